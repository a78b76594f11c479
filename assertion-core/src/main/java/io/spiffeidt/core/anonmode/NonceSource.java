package io.spiffeidt.core.anonmode;

import java.security.SecureRandom;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where Anon-Mode's fresh secret scalars come from: the root key {@code x0} of a minted token and
 * the nonce {@code k} of every signature (docs/formats/anon-mode.md "Signature", "Minting").
 *
 * <p>Production code uses {@link #secureRandom()}. {@link #sequence(List)} replays fixed scalars so
 * that tests reproduce the golden vectors byte for byte; it must never be used to sign real
 * tokens (a repeated nonce reveals the signing key).
 *
 * <p>Thread safety: implementations must be safe for concurrent use; the factories here are.
 */
@FunctionalInterface
public interface NonceSource {

    /**
     * The next secret scalar, uniformly random in {@code [1, L)} for a production source.
     *
     * @return a non-zero scalar
     */
    Scalar next();

    /** A source backed by a new {@link SecureRandom} (the default for minting and extending). */
    static NonceSource secureRandom() {
        return of(new SecureRandom());
    }

    /**
     * A source backed by the given {@link SecureRandom}.
     *
     * @param random the randomness, shared safely between threads
     * @return the source
     */
    static NonceSource of(SecureRandom random) {
        Objects.requireNonNull(random, "random");
        return () -> Scalar.random(random);
    }

    /**
     * A deterministic source that returns {@code scalars} in order, for tests only.
     *
     * @param scalars the scalars to hand out, each non-zero
     * @return the source; {@link #next()} throws {@link IllegalStateException} once they are used up
     */
    static NonceSource sequence(List<Scalar> scalars) {
        List<Scalar> copy = List.copyOf(scalars);
        if (copy.stream().anyMatch(Scalar::isZero)) {
            throw new IllegalArgumentException("a nonce must not be zero");
        }
        AtomicInteger next = new AtomicInteger();
        return () -> {
            int i = next.getAndIncrement();
            if (i >= copy.size()) {
                throw new IllegalStateException("deterministic nonce source exhausted");
            }
            return copy.get(i);
        };
    }
}
