package io.spiffeidt.asserting.idmode;

import io.spiffeidt.asserting.introspection.IntrospectionEntry;
import io.spiffeidt.core.zkp.OAuthProof;

/**
 * What the asserting workload keeps per ID-Mode root for introspection: the proof record, or the
 * OAuth token to prove it from at the first introspection ({@code zkp: lazy}). The OAuth token never
 * leaves this process.
 */
public record IdModeIntrospectionEntry(OAuthProof introspection, String pendingOAuthToken)
        implements IntrospectionEntry {

    @Override
    public String toString() {
        return "IdModeIntrospectionEntry[proof=" + (introspection != null) + ", pending=" + (pendingOAuthToken != null)
                + "]";
    }
}
