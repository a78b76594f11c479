package io.spiffeidt.asserting.introspection;

import io.spiffeidt.core.zkp.OAuthProof;

/**
 * What the asserting workload keeps per minted document for introspection, in every mode that has
 * it: the proof record, or the OAuth token to prove it from at the first introspection ({@code zkp:
 * lazy}); neither under {@code zkp: off}. The OAuth token never leaves this process.
 */
public interface IntrospectionEntry {

    /** The proof record, or {@code null} until it is made. */
    OAuthProof introspection();

    /** The OAuth token to prove from ({@code zkp: lazy}, before the first introspection), or {@code null}. */
    String pendingOAuthToken();

    /**
     * What this entry weighs against the in-memory store's character budget: the characters of the
     * proof record (its three texts; about 85,000 at 80 rounds) and of the pending OAuth token.
     */
    default long chars() {
        OAuthProof proof = introspection();
        String pending = pendingOAuthToken();
        long proofChars = proof == null
                ? 0
                : (long) proof.msg().length()
                        + proof.zkp().length()
                        + proof.idpKey().length();
        return proofChars + (pending == null ? 0 : pending.length());
    }
}
