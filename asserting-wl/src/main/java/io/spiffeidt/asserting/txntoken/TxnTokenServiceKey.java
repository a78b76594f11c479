package io.spiffeidt.asserting.txntoken;

import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.Objects;

/** The Txn-Token Service's P-256 signing key pair; never logged. */
public record TxnTokenServiceKey(PrivateKey privateKey, PublicKey publicKey) {

    public TxnTokenServiceKey {
        Objects.requireNonNull(privateKey, "privateKey");
        Objects.requireNonNull(publicKey, "publicKey");
    }

    @Override
    public String toString() {
        return "TxnTokenServiceKey[EC P-256]";
    }
}
