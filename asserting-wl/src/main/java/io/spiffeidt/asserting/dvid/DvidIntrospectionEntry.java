package io.spiffeidt.asserting.dvid;

import io.spiffeidt.asserting.introspection.IntrospectionEntry;
import io.spiffeidt.core.zkp.OAuthProof;

/**
 * What the asserting workload keeps per DVID for introspection: the proof record, or (with {@code
 * zkp: lazy}) the OAuth token to prove it from at the first introspection. The token never leaves
 * this process.
 */
public record DvidIntrospectionEntry(OAuthProof introspection, String pendingOAuthToken) implements IntrospectionEntry {

    @Override
    public String toString() {
        return "DvidIntrospectionEntry[proof=" + (introspection != null) + ", pending=" + (pendingOAuthToken != null)
                + "]";
    }
}
