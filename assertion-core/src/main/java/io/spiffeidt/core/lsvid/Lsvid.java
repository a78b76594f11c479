package io.spiffeidt.core.lsvid;

import java.util.Objects;

/**
 * An LSVID document, the wrapper that is encoded (docs/formats/lsvid.md "Structure"):
 * {@code {token, bundle}}, {@code bundle} always written ({@code null} when absent).
 *
 * <p>Version 2 documents (X.509-anchored bases) carry no bundle token; version 1 documents (the
 * original) carry the SPIRE-signed bundle token. Encode with {@link LsvidCodec#encode(Lsvid)}.
 *
 * <p>Thread safety: immutable.
 *
 * @param token the outermost token; never {@code null}
 * @param bundle the version 1 bundle token, or {@code null}
 */
public record Lsvid(LsvidToken token, LsvidToken bundle) {

    /** Requires a token. */
    public Lsvid {
        Objects.requireNonNull(token, "token");
    }

    /** A document made of one base token and no bundle: what a workload starts from. */
    public static Lsvid of(LsvidToken base) {
        return new Lsvid(base, null);
    }

    /** The number of tokens in the chain, the base included. */
    public int depth() {
        return token.depth();
    }

    @Override
    public String toString() {
        return "Lsvid[" + token + ", bundle=" + (bundle != null) + "]";
    }
}
