package io.spiffeidt.support.hop;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.support.caller.Caller;

/**
 * The optional step of a {@link Hop} that binds a document's root to the asserting workload
 * (docs/formats/common.md "Introspection"): a hop has it ({@link Hop#introspection()} present: DVID,
 * ID-Mode, Anon-Mode) or lacks it (LSVID, whose delegation layer is verified offline, and the
 * baselines); no hop offers it and then refuses.
 *
 * <p>Thread safety: implementations are thread safe.
 *
 * @param <D> the mode's verified document
 */
public interface Introspection<D> {

    /**
     * Every check of {@link Hop#verify}, then the root's binding to the asserting workload: its
     * introspection record of the root and the proof that it holds an IdP-signed OAuth token of the
     * verified {@code dpa}/{@code dpr}, under the IdP key this workload resolves itself.
     *
     * @throws AssertionException as {@link Hop#verify}, or the introspection's code
     */
    Verified<D> verify(Received received, Caller caller);
}
