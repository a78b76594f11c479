package io.spiffeidt.support.hop;

import io.spiffeidt.core.Limits;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.memo.Memos;
import io.spiffeidt.core.zkp.VerifiedProofs;
import io.spiffeidt.support.crypto.SignatureProvider;
import io.spiffeidt.support.identity.WorkloadIdentity;
import java.util.Objects;

/**
 * What every mode's hop of this workload is built from, so that each mode's auto-configuration names
 * only what is its own: the workload's identity, its signature provider, the verification profile,
 * limits and time rules, its memos, the memo of verified introspection proofs, and the services the
 * hop records into and calls through. A hop gets all of it at construction.
 *
 * <p>Thread safety: immutable.
 */
public record HopParts(
        WorkloadIdentity identity,
        SignatureProvider provider,
        VerificationProfile profile,
        Limits limits,
        TimeRules timeRules,
        Memos memos,
        VerifiedProofs verifiedProofs,
        HopServices services) {

    public HopParts {
        Objects.requireNonNull(identity, "identity");
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(timeRules, "timeRules");
        Objects.requireNonNull(memos, "memos");
        Objects.requireNonNull(verifiedProofs, "verifiedProofs");
        Objects.requireNonNull(services, "services");
    }
}
