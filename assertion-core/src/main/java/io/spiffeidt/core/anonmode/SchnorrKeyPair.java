package io.spiffeidt.core.anonmode;

import java.util.Objects;

/**
 * A Schnorr key pair of Anon-Mode: secret scalar {@code x} and public point {@code Y = x·B}
 * (docs/formats/anon-mode.md "Signature"). The public key is always derived from the secret, so the two
 * cannot disagree.
 *
 * <p>{@link #toString()} never shows the secret. Thread safety: immutable.
 */
public final class SchnorrKeyPair {

    private final Scalar secret;
    private final Point publicKey;

    private SchnorrKeyPair(Scalar secret, Point publicKey) {
        this.secret = secret;
        this.publicKey = publicKey;
    }

    /**
     * The key pair of a secret scalar.
     *
     * @param secret non-zero
     * @return {@code (secret, secret·B)}
     * @throws IllegalArgumentException when the secret is zero
     */
    public static SchnorrKeyPair of(Scalar secret) {
        Objects.requireNonNull(secret, "secret");
        if (secret.isZero()) {
            throw new IllegalArgumentException("secret scalar must not be zero");
        }
        return new SchnorrKeyPair(secret, Point.multiplyBase(secret));
    }

    /**
     * A fresh key pair.
     *
     * @param nonces where the secret comes from
     * @return a new key pair
     */
    public static SchnorrKeyPair generate(NonceSource nonces) {
        return of(nonces.next());
    }

    /** The secret scalar {@code x}. */
    public Scalar secret() {
        return secret;
    }

    /** The public key {@code Y = x·B}. */
    public Point publicKey() {
        return publicKey;
    }

    /** Never shows the secret. */
    @Override
    public String toString() {
        return "SchnorrKeyPair[publicKey=" + publicKey.toHex() + "]";
    }
}
