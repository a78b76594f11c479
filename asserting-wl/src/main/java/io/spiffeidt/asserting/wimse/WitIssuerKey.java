package io.spiffeidt.asserting.wimse;

import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.Objects;

/** The WIT issuer's P-256 signing key pair; never logged. */
public record WitIssuerKey(PrivateKey privateKey, PublicKey publicKey) {

    public WitIssuerKey {
        Objects.requireNonNull(privateKey, "privateKey");
        Objects.requireNonNull(publicKey, "publicKey");
    }

    @Override
    public String toString() {
        return "WitIssuerKey[EC P-256]";
    }
}
