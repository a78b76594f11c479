package io.spiffeidt.core.internal;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Provider;
import java.util.Objects;

/**
 * Private keys turned once into the signing provider's own key objects: a provider
 * given a foreign key object converts it on every {@code initSign} (for Amazon Corretto: a DER
 * round trip into a native key each time), which a long-lived signer need not pay per signature.
 * Not API.
 *
 * <p>Thread safety: stateless.
 */
public final class ProviderKeys {

    private ProviderKeys() {}

    /** {@code key} as {@code provider}'s own key object, or {@code key} itself when it cannot translate. */
    public static PrivateKey forSigning(PrivateKey key, Provider provider) {
        Objects.requireNonNull(key, "key");
        if (provider == null) {
            return key;
        }
        try {
            KeyFactory factory = KeyFactory.getInstance(key.getAlgorithm(), provider);
            return (PrivateKey) factory.translateKey(key);
        } catch (GeneralSecurityException | RuntimeException e) {
            return key;
        }
    }
}
