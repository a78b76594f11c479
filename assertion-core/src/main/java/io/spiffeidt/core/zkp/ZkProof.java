package io.spiffeidt.core.zkp;

import java.math.BigInteger;
import java.util.List;

/**
 * An RSA-signature proof of knowledge (docs/formats/dvid.md "The zero-knowledge proof"): the responses
 * {@code p_i} and the commitments {@code c_i} of its {@code k} rounds. A value object only; {@link
 * RsaSignatureProof#verify} decides whether it proves anything.
 *
 * <p>Thread safety: immutable (the lists are copied).
 *
 * @param p the responses {@code p_1 … p_k}
 * @param c the commitments {@code c_1 … c_k}
 */
public record ZkProof(List<BigInteger> p, List<BigInteger> c) {

    /** Copies the lists; both must be non-empty, of the same length, without nulls. */
    public ZkProof {
        p = List.copyOf(p);
        c = List.copyOf(c);
        if (p.isEmpty() || p.size() != c.size()) {
            throw new IllegalArgumentException("p and c must be non-empty and of the same length");
        }
    }

    /** The number of rounds {@code k}. */
    public int rounds() {
        return p.size();
    }

    /** Names the number of rounds only (the values are long and say nothing to a reader). */
    @Override
    public String toString() {
        return "ZkProof[rounds=" + p.size() + "]";
    }
}
