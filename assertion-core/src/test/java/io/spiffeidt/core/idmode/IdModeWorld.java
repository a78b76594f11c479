package io.spiffeidt.core.idmode;

import io.spiffeidt.core.Limits;
import io.spiffeidt.core.Presenter;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.testkit.TestPki;
import java.security.Provider;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

/**
 * The PoC call path with fresh test certificates: asserting-wl mints for subject-wl, subject-wl
 * extends for m-tier, m-tier extends for target-wl. One CA (built once per JVM: key generation
 * is the slow part), a fixed clock.
 */
final class IdModeWorld {

    static final Instant NOW = Instant.parse("2030-06-01T12:00:00Z");
    static final String DPA = "https://idp.example.test/oauth2/default";
    static final String DPR = "alice@example.test";

    static final TestPki CA = TestPki.newCa("example.org");
    static final IdModeCredentials ASSERTING = credentials(CA.issue("asserting-wl"));
    static final IdModeCredentials SUBJECT = credentials(CA.issue("subject-wl"));
    static final IdModeCredentials MTIER = credentials(CA.issue("m-tier"));
    static final IdModeCredentials TARGET = credentials(CA.issue("target-wl"));

    private IdModeWorld() {}

    static TimeRules time(Instant now) {
        return TimeRules.defaults(Clock.fixed(now, ZoneOffset.UTC));
    }

    static TimeRules time() {
        return time(NOW);
    }

    static IdModeSettings settings(VerificationProfile profile) {
        return IdModeSettings.strict(ASSERTING.spiffeId(), CA.bundle(), Clock.fixed(NOW, ZoneOffset.UTC))
                .withProfile(profile);
    }

    static IdModeVerifier verifier() {
        return verifier(VerificationProfile.STRICT, TestPki.BC);
    }

    static IdModeVerifier verifier(VerificationProfile profile, Provider provider) {
        return new IdModeVerifier(settings(profile), provider);
    }

    static IdModePresentation mint(Instant now) {
        return new IdModeMinter(ASSERTING, time(now), TestPki.BC).mint(SUBJECT.spiffeId(), DPA, DPR, null);
    }

    static IdModePresentation extend(IdModeCredentials self, IdModePresentation in, SpiffeId next, Instant now) {
        return new IdModeExtender(self, time(now), Limits.defaults(), TestPki.BC).extend(in, next);
    }

    /** asserting → subject → m-tier → (aud) target, all at {@code now}. */
    static IdModePresentation pocPath(Instant now) {
        IdModePresentation root = mint(now);
        IdModePresentation two = extend(SUBJECT, root, MTIER.spiffeId(), now);
        return extend(MTIER, two, TARGET.spiffeId(), now);
    }

    static IdModePresentation pocPath() {
        return pocPath(NOW);
    }

    /** The ID-Mode credentials of a test-kit SVID. */
    static IdModeCredentials credentials(TestPki.Svid svid) {
        return IdModeCredentials.of(svid.privateKey(), svid.chain());
    }

    static Presenter presenter(IdModeCredentials who) {
        return Presenter.of(who.leaf());
    }

    static Duration lifetime() {
        return time().lifetime();
    }
}
