package io.spiffeidt.support.crypto;

/**
 * Which JCA provider signs and verifies (see {@link SignatureProvider}).
 *
 * <p>Thread safety: immutable.
 */
public enum CryptoProviderChoice {
    /** Amazon Corretto Crypto Provider when it loads and is healthy, else BouncyCastle. */
    AUTO,
    /** Amazon Corretto Crypto Provider (native AWS-LC); start-up fails when it does not load. */
    ACCP,
    /** A private BouncyCastle provider instance (never registered globally). */
    BC,
    /** The JDK providers (SunEC, SunRsaSign). */
    SUN
}
