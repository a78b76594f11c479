package io.spiffeidt.asserting.dvid;

import io.spiffeidt.asserting.keys.PemKeyPair;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.ECGenParameterSpec;

/**
 * The DVID signing key pair: read from a PEM file (shared by all asserting replicas) or, in
 * development, generated at start-up and kept in memory only.
 */
public record DvidSigningKey(PrivateKey privateKey, PublicKey publicKey, boolean generated) {

    /** Loads the key at {@code path}, or generates an RSA-2048 pair when {@code path} is null. */
    public static DvidSigningKey loadOrGenerate(Path path) {
        try {
            if (path == null) {
                KeyPairGenerator gen = KeyPairGenerator.getInstance("RSA");
                gen.initialize(2048);
                KeyPair kp = gen.generateKeyPair();
                return new DvidSigningKey(kp.getPrivate(), kp.getPublic(), true);
            }
            return load(path);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot create the DVID key", e);
        }
    }

    private static DvidSigningKey load(Path path) {
        KeyPair kp = PemKeyPair.read(path, "DVID");
        return new DvidSigningKey(kp.getPrivate(), kp.getPublic(), false);
    }

    /** Generates an EC P-256 pair (for ES256 DVIDs in tests). */
    public static DvidSigningKey generateEc() {
        try {
            KeyPairGenerator gen = KeyPairGenerator.getInstance("EC");
            gen.initialize(new ECGenParameterSpec("secp256r1"));
            KeyPair kp = gen.generateKeyPair();
            return new DvidSigningKey(kp.getPrivate(), kp.getPublic(), true);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String toString() {
        return "DvidSigningKey[" + publicKey.getAlgorithm() + (generated ? ", generated" : ", from file") + "]";
    }
}
