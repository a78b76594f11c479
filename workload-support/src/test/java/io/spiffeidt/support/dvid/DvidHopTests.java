package io.spiffeidt.support.dvid;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.spiffeidt.core.dvid.Dvid;
import io.spiffeidt.core.dvid.DvidAlgorithm;
import io.spiffeidt.core.dvid.DvidKeyResolver;
import io.spiffeidt.core.dvid.DvidMinter;
import io.spiffeidt.core.dvid.DvidSettings;
import io.spiffeidt.core.dvid.DvidVerifier;
import io.spiffeidt.core.dvid.VerifiedDvid;
import io.spiffeidt.core.memo.Memos;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.crypto.CryptoProviderChoice;
import io.spiffeidt.support.crypto.SignatureProvider;
import io.spiffeidt.support.hop.Grant;
import io.spiffeidt.support.hop.HopServices;
import io.spiffeidt.support.hop.Outgoing;
import io.spiffeidt.support.hop.Received;
import io.spiffeidt.support.hop.Verified;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.metrics.OperationMetrics;
import io.spiffeidt.support.testing.TestHops;
import io.spiffeidt.support.testing.TestIdentities;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Provider;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link DvidHop} on the hop contract: where a DVID is verified is the hop's choice (the target
 * verifies it here while the memo {@code dvid-keys} is on, the middle tier asks the asserting workload and gets the
 * introspection in the same call), a DVID goes on unchanged, and minting is timed where it happens.
 */
class DvidHopTests {

    private final DvidHop mTier = TestHops.dvid(Role.M_TIER, TestIdentities.source(Role.M_TIER));
    private final DvidHop target = TestHops.dvid(Role.TARGET_WL, TestIdentities.source(Role.TARGET_WL));
    private final KeyPair key = rsaKey();
    private final Provider provider = new SignatureProvider(CryptoProviderChoice.BC).provider();
    private final DvidSettings mintingSettings = DvidHop.mintingSettings(
            TestHops.parts(Role.ASSERTING_WL, TestIdentities.source(Role.ASSERTING_WL)),
            DvidAlgorithm.RS256,
            Duration.ofMinutes(5),
            80);
    private final DvidMinter minter =
            new DvidMinter(key.getPrivate(), key.getPublic(), provider, mintingSettings, new SecureRandom());
    private final DvidVerifier own =
            new DvidVerifier(mintingSettings, provider, DvidKeyResolver.of(Map.of(minter.keyId(), key.getPublic())));
    private final DvidHop asserting = new DvidHop(
            TestHops.parts(Role.ASSERTING_WL, TestIdentities.source(Role.ASSERTING_WL)), minter, own, false);

    @Test
    void validatesLocallyWhenTargetWithTheKeySetMemoThenTrueAndNowhereElse() {
        Memos on = TestHops.memos(Clock.systemUTC(), true);
        DvidHop targetWithMemos = TestHops.dvid(Role.TARGET_WL, TestIdentities.source(Role.TARGET_WL), on);
        DvidHop mTierWithMemos = TestHops.dvid(Role.M_TIER, TestIdentities.source(Role.M_TIER), on);

        assertThat(targetWithMemos.validatesLocally()).isTrue();
        assertThat(mTierWithMemos.validatesLocally()).isFalse();
        assertThat(target.validatesLocally()).isFalse();
        assertThat(target.verifiesLocally()).isFalse();
    }

    @Test
    void forwardWhenVerifiedThenTheDvidGoesOnAsReceived() {
        Dvid dvid = asserting.minting().orElseThrow().mint(grant()).document();
        VerifiedDvid verified = target.verifier(
                        DvidKeyResolver.of(Map.of(minter.keyId(), key.getPublic())), (issuer, kid) -> null)
                .verify(dvid.token(), target.self());

        Outgoing outgoing =
                mTier.forward(new Verified<>(verified, verified.result(), Received.of(dvid.token())), Role.TARGET_WL);

        assertThat(outgoing.token()).isEqualTo(dvid.token());
        assertThat(outgoing.artifacts()).isNull();
        assertThat(outgoing.depth()).isEqualTo(1);
        assertThat(verified.dpr()).isEqualTo("user0001");
    }

    @Test
    void forwardWhenTheDvidIsRelayedThenNothingIsTimedNorRecorded() {
        MeterRegistry registry = new SimpleMeterRegistry();
        DvidHop relaying = TestHops.dvid(
                Role.M_TIER,
                TestIdentities.source(Role.M_TIER),
                Memos.none(),
                new HopServices(new OperationMetrics(registry), null, null));
        Dvid dvid = asserting.minting().orElseThrow().mint(grant()).document();
        VerifiedDvid verified = target.verifier(
                        DvidKeyResolver.of(Map.of(minter.keyId(), key.getPublic())), (issuer, kid) -> null)
                .verify(dvid.token(), target.self());

        Outgoing outgoing = relaying.forward(
                new Verified<>(verified, verified.result(), Received.of(dvid.token())), Role.TARGET_WL);

        assertThat(outgoing.token()).isEqualTo(dvid.token());
        assertThat(registry.find(OperationMetrics.OPERATION_TIMER).timers()).isEmpty();
        assertThat(registry.find(OperationMetrics.DOCUMENT_SIZE).summaries()).isEmpty();
    }

    @Test
    void mintWhenDoneThenTimedAsMintAndItsSizeRecorded() {
        MeterRegistry registry = new SimpleMeterRegistry();
        DvidHop asserting = new DvidHop(
                TestHops.parts(
                        Role.ASSERTING_WL,
                        TestIdentities.source(Role.ASSERTING_WL),
                        Clock.systemUTC(),
                        Memos.none(),
                        new HopServices(new OperationMetrics(registry), null, null)),
                minter,
                own,
                false);

        Dvid dvid = asserting.minting().orElseThrow().mint(grant()).document();

        Timer mint = registry.find(OperationMetrics.OPERATION_TIMER)
                .tag("mode", "dvid")
                .tag("operation", "mint")
                .tag("outcome", "success")
                .timer();
        assertThat(mint).isNotNull();
        assertThat(mint.count()).isEqualTo(1);
        assertThat(registry.find(OperationMetrics.DOCUMENT_SIZE)
                        .tag("mode", "dvid")
                        .tag("depth", "1")
                        .summary()
                        .totalAmount())
                .isEqualTo(dvid.token().length());
    }

    @Test
    void validateWhenTheIssuerIsAskedAboutADvidItMintedThenVerifiedForTheCaller() {
        Dvid dvid = asserting.minting().orElseThrow().mint(grant()).document();
        Caller mTierCaller = new Caller(
                mTier.self(),
                TestIdentities.source(Role.M_TIER).getX509Svid().getLeaf(),
                TestIdentities.source(Role.M_TIER).getX509Svid().getLeaf().getPublicKey());

        VerifiedDvid validated = asserting.minting().orElseThrow().validate(Received.of(dvid.token()), mTierCaller);

        assertThat(validated.jti()).isEqualTo(dvid.jti());
        assertThat(validated.dpr()).isEqualTo("user0001");
    }

    @Test
    void mintingWhenNotGivenAMinterThenAbsent() {
        assertThat(mTier.minting()).isEmpty();
        assertThat(target.minting()).isEmpty();
        assertThat(asserting.minting()).isPresent();
    }

    private Grant grant() {
        return new Grant(
                target.idOf(Role.SUBJECT_WL),
                "http://idp",
                "user0001",
                Instant.now().plusSeconds(600));
    }

    /** RS256: the algorithm the hop's verification settings expect of the asserting workload. */
    private static KeyPair rsaKey() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return generator.generateKeyPair();
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
