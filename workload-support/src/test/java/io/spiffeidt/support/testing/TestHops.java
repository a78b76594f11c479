package io.spiffeidt.support.testing;

import io.spiffeidt.core.Limits;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.memo.Memos;
import io.spiffeidt.support.anonmode.AnonModeHop;
import io.spiffeidt.support.crypto.CryptoProviderChoice;
import io.spiffeidt.support.crypto.SignatureProvider;
import io.spiffeidt.support.dvid.DvidHop;
import io.spiffeidt.support.identity.IdentityProperties;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.identity.WorkloadIdentity;
import io.spiffeidt.support.idmode.IdModeHop;
import io.spiffeidt.support.lsvid.LsvidHop;
import io.spiffeidt.support.lsvid.LsvidV1IssuerKeys;
import java.time.Clock;

/**
 * The hops of a role as another workload of the call path would hold them (strict profile, default
 * limits, system clock), on an SVID of {@link TestIdentities#PKI}: what a module test uses to make
 * or check the documents its workload receives and forwards.
 */
public final class TestHops {

    private static final SignatureProvider PROVIDER = new SignatureProvider(CryptoProviderChoice.BC);

    private TestHops() {}

    /** The identity of {@code role} on {@code source}. */
    public static WorkloadIdentity identity(Role role, StaticX509Source source) {
        return new WorkloadIdentity(source, IdentityProperties.defaults(TestIdentities.TRUST_DOMAIN, role));
    }

    /** The ID-Mode hop of {@code role}, signing an extension per forward. */
    public static IdModeHop idMode(Role role, StaticX509Source source) {
        return idMode(role, source, Clock.systemUTC(), false);
    }

    /** The ID-Mode hop of {@code role} on {@code clock}, reusing young extensions when {@code reuse}. */
    public static IdModeHop idMode(Role role, StaticX509Source source, Clock clock, boolean reuse) {
        return new IdModeHop(
                identity(role, source),
                PROVIDER,
                VerificationProfile.STRICT,
                Limits.defaults(),
                TimeRules.defaults(clock),
                memos(clock, reuse));
    }

    /** The Anon-Mode hop of {@code role} (no {@code iid}), signing an extension per forward. */
    public static AnonModeHop anonMode(Role role, StaticX509Source source) {
        return anonMode(role, source, Clock.systemUTC(), false);
    }

    /** The Anon-Mode hop of {@code role} on {@code clock}, reusing young extensions when {@code reuse}. */
    public static AnonModeHop anonMode(Role role, StaticX509Source source, Clock clock, boolean reuse) {
        return new AnonModeHop(
                identity(role, source),
                PROVIDER,
                VerificationProfile.STRICT,
                Limits.defaults(),
                TimeRules.defaults(clock),
                false,
                memos(clock, reuse));
    }

    /** The LSVID hop of {@code role}, signing an extension per forward. */
    public static LsvidHop lsvid(Role role, StaticX509Source source) {
        return new LsvidHop(
                identity(role, source),
                PROVIDER,
                VerificationProfile.STRICT,
                Limits.defaults(),
                time(),
                LsvidV1IssuerKeys.none(),
                Memos.none());
    }

    /** The DVID hop of {@code role}, with no memo (DVIDs validated at the asserting workload). */
    public static DvidHop dvid(Role role, StaticX509Source source) {
        return dvid(role, source, Memos.none());
    }

    /** The DVID hop of {@code role} with {@code memos}. */
    public static DvidHop dvid(Role role, StaticX509Source source, Memos memos) {
        return new DvidHop(
                identity(role, source), PROVIDER, VerificationProfile.STRICT, Limits.defaults(), time(), memos);
    }

    /** Every memo at its defaults on {@code clock} when {@code reuse}, else none: every request does all its work. */
    public static Memos memos(Clock clock, boolean reuse) {
        return reuse ? Memos.defaults(clock) : Memos.none();
    }

    private static TimeRules time() {
        return TimeRules.defaults(Clock.systemUTC());
    }
}
