package io.spiffeidt.asserting.introspection;

import io.spiffeidt.core.zkp.OAuthProof;

/**
 * What the asserting workload keeps per minted document for introspection, in every mode that has
 * it: the proof record, or the OAuth token to prove it from at the first introspection ({@code zkp:
 * lazy}); neither under {@code zkp: off}. The OAuth token never leaves this process.
 *
 * @param introspection the proof record, or {@code null} until it is made
 * @param pendingOAuthToken the OAuth token to prove from ({@code zkp: lazy}, before the first
 *     introspection), or {@code null}
 */
public record IntrospectionEntry(OAuthProof introspection, String pendingOAuthToken) {

    /** How an entry maps to the columns of the JDBC store's table. */
    public static final JdbcIntrospectionStore.Mapping<IntrospectionEntry> JDBC_MAPPING =
            new JdbcIntrospectionStore.Mapping<>(
                    IntrospectionEntry::introspection, IntrospectionEntry::pendingOAuthToken, IntrospectionEntry::new);

    /**
     * What this entry weighs against the in-memory store's character budget: the characters of the
     * proof record (its three texts; about 85,000 at 80 rounds) and of the pending OAuth token.
     */
    public long chars() {
        long proofChars = introspection == null
                ? 0
                : (long) introspection.msg().length()
                        + introspection.zkp().length()
                        + introspection.idpKey().length();
        return proofChars + (pendingOAuthToken == null ? 0 : pendingOAuthToken.length());
    }

    @Override
    public String toString() {
        return "IntrospectionEntry[proof=" + (introspection != null) + ", pending=" + (pendingOAuthToken != null) + "]";
    }
}
