package io.spiffeidt.core.dvid;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.VerifiedResult;
import java.util.Optional;

/**
 * The rule of a tier that has a DVID validated by the asserting workload instead of verifying it
 * itself (docs/formats/dvid.md "Flows": the middle tier and the target): the asserting workload's
 * verdict counts only when the DVID's {@code sub} is the subject workload, the one workload a DVID
 * is minted for. A tier that verifies the DVID itself applies the same rule.
 *
 * <p>Thread safety: stateless.
 */
public final class RemoteValidation {

    private RemoteValidation() {}

    /**
     * Accepts the asserting workload's answer for a DVID, received over an mTLS connection that
     * authenticated the asserting workload.
     *
     * @param result the verified result it answered
     * @param jti the DVID's {@code jti}
     * @param subject the DVID's {@code sub} as it answered it
     * @param subjectWorkload the configured SPIFFE ID of the subject workload
     * @return the DVID as verified by the asserting workload (without an embedded proof)
     * @throws AssertionException {@link ErrorCode#MALFORMED} when {@code subject} is no SPIFFE ID,
     *     {@link ErrorCode#DELEGATION_INVALID} when it is not {@code subjectWorkload}
     */
    public static VerifiedDvid accept(VerifiedResult result, String jti, String subject, SpiffeId subjectWorkload) {
        SpiffeId sub = SpiffeId.parse(subject);
        requireSubjectWorkload(sub, subjectWorkload);
        return new VerifiedDvid(result, jti, sub, Optional.empty());
    }

    /**
     * The same rule for a DVID a tier verified itself ({@link DvidVerifier}).
     *
     * @return {@code dvid}
     * @throws AssertionException {@link ErrorCode#DELEGATION_INVALID} when its {@code sub} is not
     *     {@code subjectWorkload}
     */
    public static VerifiedDvid accept(VerifiedDvid dvid, SpiffeId subjectWorkload) {
        requireSubjectWorkload(dvid.subject(), subjectWorkload);
        return dvid;
    }

    private static void requireSubjectWorkload(SpiffeId sub, SpiffeId subjectWorkload) {
        if (!sub.equals(subjectWorkload)) {
            throw new AssertionException(
                    ErrorCode.DELEGATION_INVALID, "DVID subject " + sub + " is not the subject workload");
        }
    }
}
