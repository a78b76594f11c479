package io.spiffeidt.support.wimse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.wimse.BoundedJtiReplayCache;
import io.spiffeidt.core.wimse.WimseSettings;
import io.spiffeidt.core.wimse.WimseVerifier;
import io.spiffeidt.core.wimse.WitIssuer;
import io.spiffeidt.core.wimse.WitKeyResolver;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Provider;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Security;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * {@link WorkloadCredential} (docs/formats/wimse.md "Who issues WITs"): obtained at the first use,
 * renewed with a new key once half the WIT's lifetime has passed, and never a WIT for another
 * workload or key.
 */
class WorkloadCredentialTests {

    private static final Provider PROVIDER = Security.getProvider("SunEC");
    private static final SpiffeId ISSUER = SpiffeId.parse("spiffe://example.org/asserting-wl");
    private static final SpiffeId SELF = SpiffeId.parse("spiffe://example.org/m-tier");

    private final MovingClock clock = new MovingClock(Instant.parse("2026-11-29T10:00:00Z"));
    private final WimseSettings settings = WimseSettings.defaults(ISSUER, clock);
    private final KeyPair issuerKey = newKey();
    private final WitIssuer issuer =
            new WitIssuer(issuerKey.getPrivate(), issuerKey.getPublic(), PROVIDER, settings, new SecureRandom());
    private final WimseVerifier verifier = new WimseVerifier(
            settings, PROVIDER, WitKeyResolver.of(issuerKey.getPublic()), new BoundedJtiReplayCache(16, clock));
    private final AtomicInteger asked = new AtomicInteger();

    private static KeyPair newKey() {
        try {
            KeyPairGenerator gen = KeyPairGenerator.getInstance("EC");
            gen.initialize(new ECGenParameterSpec("secp256r1"));
            return gen.generateKeyPair();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private WorkloadCredential credential(Function<PublicKey, String> issue) {
        return new WorkloadCredential(
                SELF,
                settings,
                PROVIDER,
                new SecureRandom(),
                key -> {
                    asked.incrementAndGet();
                    return issue.apply(key);
                },
                verifier::verifyWit);
    }

    private WorkloadCredential honest() {
        return credential(key -> issuer.issue(SELF, key).token());
    }

    @Test
    void currentWhenFirstUseThenAWitForThisWorkloadAndTheKeyItSent() {
        WorkloadCredential.Held held = honest().current();

        assertThat(held.wit().subject()).isEqualTo(SELF);
        assertThat(held.renewAt()).isEqualTo(clock.instant().plus(Duration.ofMinutes(30)));
        // the WPT it signs verifies under the WIT's cnf key
        String wpt = held.signer()
                .sign(held.wit().token(), "POST", java.net.URI.create("https://t/wimse/balance"), null)
                .token();
        assertThat(verifier.verify(new io.spiffeidt.core.wimse.WimseRequest(
                                held.wit().token(), wpt, "POST", java.net.URI.create("https://t/wimse/balance"), null))
                        .workload())
                .isEqualTo(SELF);
    }

    @Test
    void currentWhenBeforeHalfLifetimeThenTheSameWitAndAfterThenANewOneWithANewKey() {
        WorkloadCredential credential = honest();
        WorkloadCredential.Held first = credential.current();

        clock.advance(Duration.ofMinutes(29));
        WorkloadCredential.Held early = credential.current();
        clock.advance(Duration.ofMinutes(1));
        WorkloadCredential.Held renewed = credential.current();

        assertThat(early).isSameAs(first);
        assertThat(renewed.wit().token()).isNotEqualTo(first.wit().token());
        assertThat(renewed.wit().confirmationKey()).isNotEqualTo(first.wit().confirmationKey());
        assertThat(asked).hasValue(2);
    }

    @Test
    void currentWhenIssuerAnswersAWitForAnotherWorkloadOrKeyThenRefused() {
        SpiffeId other = SpiffeId.parse("spiffe://example.org/subject-wl");
        KeyPair stranger = newKey();

        assertCode(credential(key -> issuer.issue(other, key).token()), ErrorCode.UPSTREAM_UNAVAILABLE);
        assertCode(credential(key -> issuer.issue(SELF, stranger.getPublic()).token()), ErrorCode.UPSTREAM_UNAVAILABLE);
    }

    @Test
    void currentWhenIssuerSignsWithAnotherKeyThenRefusedAsTheTiersWould() {
        KeyPair rogue = newKey();
        WitIssuer rogueIssuer =
                new WitIssuer(rogue.getPrivate(), rogue.getPublic(), PROVIDER, settings, new SecureRandom());

        assertCode(credential(key -> rogueIssuer.issue(SELF, key).token()), ErrorCode.UNTRUSTED_KEY);
    }

    @Test
    void currentWhenRenewalFailsThenTheHeldWitServesWhileValidAndAfterThatTheFailureIsTheCallers() {
        AtomicInteger calls = new AtomicInteger();
        WorkloadCredential credential = credential(key -> {
            if (calls.incrementAndGet() > 1) {
                throw new AssertionException(ErrorCode.UPSTREAM_UNAVAILABLE, "issuer down");
            }
            return issuer.issue(SELF, key).token();
        });
        WorkloadCredential.Held first = credential.current();

        clock.advance(Duration.ofMinutes(40));
        WorkloadCredential.Held stillHeld = credential.current();
        clock.advance(Duration.ofMinutes(19).plusSeconds(30));

        assertThat(stillHeld).isSameAs(first);
        assertCode(credential, ErrorCode.UPSTREAM_UNAVAILABLE);
    }

    private static void assertCode(WorkloadCredential credential, ErrorCode code) {
        assertThatThrownBy(credential::current)
                .isInstanceOfSatisfying(
                        AssertionException.class, e -> assertThat(e.code()).isEqualTo(code));
    }

    /** A clock the test moves. */
    private static final class MovingClock extends Clock {

        private volatile Instant now;

        MovingClock(Instant start) {
            this.now = start;
        }

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
