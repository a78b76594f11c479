package io.spiffeidt.support.testing;

import io.spiffeidt.core.Limits;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.memo.Memos;
import io.spiffeidt.core.zkp.VerifiedProofs;
import io.spiffeidt.support.anonmode.AnonModeHop;
import io.spiffeidt.support.crypto.CryptoProviderChoice;
import io.spiffeidt.support.crypto.SignatureProvider;
import io.spiffeidt.support.dvid.DvidHop;
import io.spiffeidt.support.hop.HopParts;
import io.spiffeidt.support.hop.HopServices;
import io.spiffeidt.support.identity.IdentityProperties;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.identity.WorkloadIdentity;
import io.spiffeidt.support.idmode.IdModeHop;
import io.spiffeidt.support.lsvid.LsvidHop;
import io.spiffeidt.support.lsvid.LsvidV1IssuerKeys;
import java.time.Clock;
import java.time.Duration;

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

    /** What a hop of {@code role} is built from: no memo, metrics into a private registry, no downstream. */
    public static HopParts parts(Role role, StaticX509Source source) {
        return parts(role, source, Clock.systemUTC(), Memos.none(), HopServices.standalone());
    }

    /** What a hop of {@code role} is built from, on {@code clock}, with {@code memos} (no memo of verified proofs) and {@code services}. */
    public static HopParts parts(Role role, StaticX509Source source, Clock clock, Memos memos, HopServices services) {
        return new HopParts(
                identity(role, source),
                PROVIDER,
                VerificationProfile.STRICT,
                Limits.defaults(),
                TimeRules.defaults(clock),
                memos,
                VerifiedProofs.none(),
                services);
    }

    /** The lifetime of the roots the asserting hops of these tests mint. */
    public static final Duration ROOT_LIFETIME = Duration.ofMinutes(2);

    /** The ID-Mode hop of {@code role}, signing an extension per forward. */
    public static IdModeHop idMode(Role role, StaticX509Source source) {
        return idMode(role, source, Clock.systemUTC(), false);
    }

    /** The ID-Mode hop of {@code role} on {@code clock}, reusing young extensions when {@code reuse}. */
    public static IdModeHop idMode(Role role, StaticX509Source source, Clock clock, boolean reuse) {
        return new IdModeHop(parts(role, source, clock, memos(clock, reuse), HopServices.standalone()));
    }

    /** The asserting workload's ID-Mode hop, minting roots that live two minutes. */
    public static IdModeHop idModeAsserting(StaticX509Source source) {
        return new IdModeHop(parts(Role.ASSERTING_WL, source), ROOT_LIFETIME);
    }

    /** The asserting workload's Anon-Mode hop, minting roots that live two minutes. */
    public static AnonModeHop anonModeAsserting(StaticX509Source source) {
        return new AnonModeHop(parts(Role.ASSERTING_WL, source), false, ROOT_LIFETIME);
    }

    /** The Anon-Mode hop of {@code role} (no {@code iid}), signing an extension per forward. */
    public static AnonModeHop anonMode(Role role, StaticX509Source source) {
        return anonMode(role, source, Clock.systemUTC(), false);
    }

    /** The Anon-Mode hop of {@code role} on {@code clock}, reusing young extensions when {@code reuse}. */
    public static AnonModeHop anonMode(Role role, StaticX509Source source, Clock clock, boolean reuse) {
        return new AnonModeHop(parts(role, source, clock, memos(clock, reuse), HopServices.standalone()), false);
    }

    /** The LSVID hop of {@code role}, signing an extension per forward. */
    public static LsvidHop lsvid(Role role, StaticX509Source source) {
        return lsvid(role, source, HopServices.standalone());
    }

    /** The LSVID hop of {@code role}, recording into and calling through {@code services}. */
    public static LsvidHop lsvid(Role role, StaticX509Source source, HopServices services) {
        return new LsvidHop(parts(role, source, Clock.systemUTC(), Memos.none(), services), LsvidV1IssuerKeys.none());
    }

    /** The ID-Mode hop of {@code role}, recording into and calling through {@code services}. */
    public static IdModeHop idMode(Role role, StaticX509Source source, HopServices services) {
        return new IdModeHop(parts(role, source, Clock.systemUTC(), Memos.none(), services));
    }

    /** The Anon-Mode hop of {@code role}, recording into and calling through {@code services}. */
    public static AnonModeHop anonMode(Role role, StaticX509Source source, HopServices services) {
        return new AnonModeHop(parts(role, source, Clock.systemUTC(), Memos.none(), services), false);
    }

    /** The DVID hop of {@code role}, with no memo (DVIDs validated at the asserting workload). */
    public static DvidHop dvid(Role role, StaticX509Source source) {
        return dvid(role, source, Memos.none());
    }

    /** The DVID hop of {@code role} with {@code memos}. */
    public static DvidHop dvid(Role role, StaticX509Source source, Memos memos) {
        return dvid(role, source, memos, HopServices.standalone());
    }

    /** The DVID hop of {@code role} with {@code memos}, recording into and calling through {@code services}. */
    public static DvidHop dvid(Role role, StaticX509Source source, Memos memos, HopServices services) {
        return new DvidHop(parts(role, source, Clock.systemUTC(), memos, services));
    }

    /** Every memo at its defaults on {@code clock} when {@code reuse}, else none: every request does all its work. */
    public static Memos memos(Clock clock, boolean reuse) {
        return reuse ? Memos.defaults(clock) : Memos.none();
    }
}
