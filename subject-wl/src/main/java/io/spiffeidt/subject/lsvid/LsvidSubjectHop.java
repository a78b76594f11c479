package io.spiffeidt.subject.lsvid;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.lsvid.IdClaim;
import io.spiffeidt.core.lsvid.Lsvid;
import io.spiffeidt.core.lsvid.LsvidToken;
import io.spiffeidt.core.lsvid.LsvidVerification;
import io.spiffeidt.core.lsvid.LsvidVerifier.DelegationRule;
import io.spiffeidt.core.lsvid.Presenter;
import io.spiffeidt.support.LsvidHop;
import io.spiffeidt.support.Role;
import io.spiffeidt.support.SignatureProvider;
import io.spiffeidt.support.WorkloadIdentity;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.spec.X509EncodedKeySpec;

/**
 * The subject workload's part of LSVID (spec/lsvid.md "Flows"): a {@link LsvidHop} that also
 * verifies what the asserting workload answers.
 *
 * <p>Thread safety: thread safe.
 */
public class LsvidSubjectHop extends LsvidHop {

    private final WorkloadIdentity identity;

    public LsvidSubjectHop(
            WorkloadIdentity identity,
            SignatureProvider provider,
            VerificationProfile profile,
            Limits limits,
            TimeRules timeRules) {
        super(identity, provider, profile, limits, timeRules);
        this.identity = identity;
    }

    /**
     * Verifies the asserting workload's answer: the strict checks with this workload as audience and
     * the delegation required. The answer came over an mTLS connection that authenticated exactly
     * the configured asserting workload ID, but the HTTP client does not expose the server's leaf;
     * so the presenter is the configured asserting ID (the name check is real: the outermost issuer
     * must be it) with the key of the outermost layer's own, anchored {@code iss.id} (the key check
     * then only confirms that this key signed the layer, which step 3 checks anyway).
     */
    public LsvidVerification verifyFromAsserting(String encoded) {
        Lsvid decoded = decode(encoded);
        LsvidToken outer = decoded.token();
        IdClaim iss = outer.payload().iss();
        if (outer.isBase()
                || iss == null
                || iss.id() == null
                || iss.id().payload().sub() == null) {
            throw new AssertionException(ErrorCode.MALFORMED, "the asserting workload answered no extension layer");
        }
        Presenter asserting = new Presenter(
                identity.idOf(Role.ASSERTING_WL),
                publicKey(iss.id().payload().sub().pk()));
        return verifier().verify(encoded, identity.self(), asserting, DelegationRule.REQUIRED);
    }

    private static PublicKey publicKey(byte[] spki) {
        if (spki == null) {
            throw new AssertionException(ErrorCode.MALFORMED, "iss.id without sub.pk");
        }
        try {
            return KeyFactory.getInstance("EC").generatePublic(new X509EncodedKeySpec(spki));
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, "iss.id key is not a readable EC key");
        }
    }
}
