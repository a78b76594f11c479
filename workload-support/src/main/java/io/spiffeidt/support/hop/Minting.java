package io.spiffeidt.support.hop;

import io.spiffeidt.core.AssertionException;

/**
 * The asserting workload's step of a {@link Hop} (docs/design.md "The hop contract"): a document
 * for a {@link Grant}, made with what the hop was given at construction (DVID's and the Txn-Token
 * Service's signing key, ID-Mode's SVID and the roots' lifetime, Anon-Mode's fresh key per root). A
 * hop has it ({@link Hop#minting()} present: at the asserting workload, for DVID, ID-Mode, Anon-Mode
 * and Txn-Token) or lacks it (every other workload, and the modes that mint nothing); no hop offers
 * it and then refuses.
 *
 * <p>LSVID is the one mode whose asserting workload does not mint from a grant alone: it adds the
 * delegation layer to the document the subject workload presents, which it verifies first with the
 * caller as presenter, so its step also takes that document and caller ({@code LsvidHop#mint}); what
 * it answers is a {@link Minted} all the same.
 *
 * <p>Timed as {@code mint}, the size of what it made recorded ({@link AbstractHop.MintingStep}).
 *
 * <p>Thread safety: implementations are thread safe.
 *
 * @param <M> the mode's minted document
 */
public interface Minting<M> {

    /**
     * The mode's document for {@code grant}: addressed to its audience, for its user, never living
     * past its {@code notAfter}.
     *
     * @throws AssertionException {@code EXPIRED} when the grant has no time left, or as the mode's minter
     */
    Minted<M> mint(Grant grant);
}
