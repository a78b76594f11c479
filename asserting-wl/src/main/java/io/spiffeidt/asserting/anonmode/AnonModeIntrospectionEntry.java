package io.spiffeidt.asserting.anonmode;

import io.spiffeidt.asserting.introspection.IntrospectionEntry;
import io.spiffeidt.core.zkp.OAuthProof;

/**
 * What the asserting workload keeps per Anon-Mode root for introspection: the proof record, or the
 * OAuth token to prove it from at the first introspection ({@code zkp: lazy}). The OAuth token
 * never leaves this process.
 */
public record AnonModeIntrospectionEntry(OAuthProof introspection, String pendingOAuthToken)
        implements IntrospectionEntry {

    @Override
    public String toString() {
        return "AnonModeIntrospectionEntry[proof=" + (introspection != null) + ", pending="
                + (pendingOAuthToken != null) + "]";
    }
}
