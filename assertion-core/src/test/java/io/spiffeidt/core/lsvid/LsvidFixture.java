package io.spiffeidt.core.lsvid;

import io.spiffeidt.core.Limits;
import io.spiffeidt.core.Presenter;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.internal.Es256;
import io.spiffeidt.testkit.TestPki;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * The four workloads of the thesis path on a generated PKI, with a fixed clock, and helpers that
 * build and take apart LSVID chains.
 */
final class LsvidFixture {

    static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");
    static final String DPA = "https://idp.example.test/oauth2/default";
    static final String DPR = "alice@example.test";

    /** A workload's X.509-SVID as the LSVID tests use it (a view of a test-kit SVID). */
    record Workload(SpiffeId id, List<X509Certificate> chain, PrivateKey key) {

        static Workload of(TestPki.Svid svid) {
            return new Workload(svid.id(), svid.chain(), svid.privateKey());
        }

        X509Certificate leaf() {
            return chain.get(0);
        }

        Presenter presenter() {
            return Presenter.of(leaf());
        }
    }

    final TestPki pki;
    final Workload subject;
    final Workload asserting;
    final Workload mtier;
    final Workload target;
    final List<Workload> hops = new ArrayList<>();

    LsvidFixture() {
        pki = TestPki.newCa("example.org", NOW.minus(Duration.ofDays(1)), NOW.plus(Duration.ofDays(1)));
        subject = Workload.of(pki.issue("/subject-wl"));
        asserting = Workload.of(pki.issue("/asserting-wl"));
        mtier = Workload.of(pki.issue("/m-tier"));
        target = Workload.of(pki.issue("/target-wl"));
        for (int i = 2; i <= 8; i++) {
            hops.add(Workload.of(pki.issue("/m-tier" + i)));
        }
    }

    static Clock clock(Instant at) {
        return Clock.fixed(at, ZoneOffset.UTC);
    }

    static TimeRules time(Instant at) {
        return TimeRules.defaults(clock(at));
    }

    LsvidSettings settings() {
        return LsvidSettings.strict(asserting.id(), pki.bundle(), clock(NOW), TestPki.BC);
    }

    LsvidSettings settings(Limits limits) {
        return settings().withLimits(limits);
    }

    LsvidSettings compatibleSettings() {
        return settings().withProfile(VerificationProfile.ORIGINAL_COMPATIBLE);
    }

    LsvidVerifier verifier() {
        return new LsvidVerifier(settings());
    }

    /** Builds and extends documents at one instant. */
    Builder at(Instant at) {
        return new Builder(at);
    }

    Builder now() {
        return at(NOW);
    }

    final class Builder {
        final LsvidBaseBuilder bases;
        final LsvidExtender extender;

        Builder(Instant at) {
            bases = new LsvidBaseBuilder(time(at), TestPki.BC);
            extender = new LsvidExtender(time(at), TestPki.BC);
        }

        LsvidToken base(Workload w) {
            return bases.build(w.chain(), w.key());
        }

        Lsvid start(Workload w) {
            return Lsvid.of(base(w));
        }

        Lsvid extend(Lsvid doc, Workload by, Workload to) {
            return extender.extend(doc, base(by), by.key(), to.id());
        }

        Lsvid delegate(Lsvid doc, Workload by, Workload to) {
            return extender.extendWithDelegation(doc, base(by), by.key(), to.id(), DPA, DPR);
        }

        /** base(subject) → subject→asserting → asserting→subject (dpa/dpr). */
        Lsvid minted() {
            return delegate(extend(start(subject), subject, asserting), asserting, subject);
        }

        /** The thesis path: minted → subject→m-tier → m-tier→target (5 tokens). */
        Lsvid standard() {
            return extend(extend(minted(), subject, mtier), mtier, target);
        }

        /**
         * A chain of {@code depth} tokens along base(subject) → asserting → subject (delegation)
         * → m-tier → m-tier2 → …; the last hop of the list presents it to the next.
         */
        Lsvid ofDepth(int depth) {
            List<Workload> path = path(depth);
            Lsvid doc = start(subject);
            for (int k = 1; k < depth; k++) {
                Workload by = path.get(k - 1);
                Workload to = path.get(k);
                doc = k == 2 ? delegate(doc, by, to) : extend(doc, by, to);
            }
            return doc;
        }
    }

    /** The workloads along {@link Builder#ofDepth}: element k-1 signs layer k, element k is its aud. */
    List<Workload> path(int depth) {
        List<Workload> path = new ArrayList<>();
        path.add(subject);
        path.add(asserting);
        path.add(subject);
        path.add(mtier);
        path.addAll(hops);
        return path.subList(0, Math.max(depth, 1));
    }

    /** The chain of a document, outermost first. */
    static List<LsvidToken> chain(Lsvid doc) {
        List<LsvidToken> out = new ArrayList<>();
        for (LsvidToken t = doc.token(); t != null; t = t.nested()) {
            out.add(t);
        }
        return out;
    }

    /** Re-links tokens (outermost first) into a document, keeping each payload and signature. */
    static Lsvid relink(List<LsvidToken> outermostFirst, LsvidToken bundle) {
        LsvidToken t = null;
        for (int i = outermostFirst.size() - 1; i >= 0; i--) {
            LsvidToken src = outermostFirst.get(i);
            t = new LsvidToken(t, src.payload(), src.signature());
        }
        return new Lsvid(t, bundle);
    }

    /** Signs a token's signing input with {@code key}: a genuine signature by whoever holds it. */
    static LsvidToken signed(LsvidToken nested, LsvidPayload payload, PrivateKey key) {
        LsvidToken unsigned = new LsvidToken(nested, payload, null);
        return new LsvidToken(nested, payload, Es256.sign(key, LsvidCodec.signingInput(unsigned), TestPki.BC));
    }

    /** An extension payload as the extender writes it, with free choice of every claim. */
    static LsvidPayload layer(LsvidToken issBase, String issCn, String aud, long iat, long exp, String dpr) {
        return new LsvidPayload(
                2,
                "ES256",
                iat,
                exp,
                new IdClaim(issCn, null, null, issBase),
                null,
                IdClaim.of(aud),
                dpr == null ? null : DPA,
                dpr);
    }

    static String utf8(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    static SpiffeId id(String text) {
        return SpiffeId.parse(text);
    }
}
