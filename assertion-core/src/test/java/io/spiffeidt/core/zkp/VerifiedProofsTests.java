package io.spiffeidt.core.zkp;

import static io.spiffeidt.core.zkp.ZkpTestSupport.BC;
import static io.spiffeidt.core.zkp.ZkpTestSupport.DPA;
import static io.spiffeidt.core.zkp.ZkpTestSupport.DPR;
import static io.spiffeidt.core.zkp.ZkpTestSupport.IDP_KID;
import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.testkit.MutableClock;
import io.spiffeidt.testkit.TestMemos;
import java.math.BigInteger;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class VerifiedProofsTests {

    private static final Limits LIMITS = Limits.defaults();
    private static final OAuthProof ANSWER = OAuthProof.create(
            ZkpTestSupport.oauthToken(), ZkpTestSupport.idpPublicKey(), IDP_KID, 80, new SecureRandom());
    private static final IdpKeyResolver IDP_KEYS =
            IdpKeyResolver.of(DPA, Map.of(IDP_KID, ZkpTestSupport.idpPublicKey()));

    private final MutableClock clock = MutableClock.at(Instant.parse("2026-01-01T00:00:00Z"));
    private final VerifiedProofs memo = new VerifiedProofs(TestMemos.sized(2, Duration.ofMinutes(5), clock));

    private boolean verify(OAuthProof proof, String dpr, IdpKeyResolver keys) {
        return proof.verify(DPA, dpr, keys, VerificationProfile.STRICT, LIMITS, BC, memo);
    }

    private static OAuthProof tampered() {
        ZkProof proof = ZkProofCodec.parse(ANSWER.zkp());
        List<BigInteger> c = new ArrayList<>(proof.c());
        c.set(3, c.get(3).add(BigInteger.ONE));
        return new OAuthProof(ANSWER.msg(), ZkProofCodec.toJson(new ZkProof(proof.p(), c)), ANSWER.idpKey());
    }

    @Test
    void verifyWhenSameProofAgainThenTheMemoAnswersTheSecondTime() {
        assertThat(verify(ANSWER, DPR, IDP_KEYS)).isFalse();
        assertThat(verify(ANSWER, DPR, IDP_KEYS)).isTrue();
        assertThat(memo.size()).isEqualTo(1);
    }

    @Test
    void verifyWhenProofAlteredAfterAVerifiedOneThenVerifiedInFullAndBadProof() {
        verify(ANSWER, DPR, IDP_KEYS);

        assertThatAssertion(() -> verify(tampered(), DPR, IDP_KEYS)).hasCode(ErrorCode.BAD_PROOF);
        assertThat(memo.size()).isEqualTo(1);
    }

    @Test
    void verifyWhenAnotherDelegationThenNeverAnsweredByTheMemo() {
        verify(ANSWER, DPR, IDP_KEYS);

        assertThatAssertion(() -> verify(ANSWER, "someone-else", IDP_KEYS)).hasCode(ErrorCode.DELEGATION_INVALID);
    }

    @Test
    void verifyWhenTheIssuerNoLongerPublishesTheKeyThenUntrustedKeyDespiteTheMemo() {
        verify(ANSWER, DPR, IDP_KEYS);
        IdpKeyResolver rotated = IdpKeyResolver.of(DPA, Map.of("new-kid", ZkpTestSupport.otherRsaPublicKey()));

        assertThatAssertion(() -> verify(ANSWER, DPR, rotated)).hasCode(ErrorCode.UNTRUSTED_KEY);
    }

    @Test
    void verifyWhenTheKidNowResolvesToAnotherKeyThenVerifiedInFullAndRejected() {
        verify(ANSWER, DPR, IDP_KEYS);
        IdpKeyResolver swapped = IdpKeyResolver.of(DPA, Map.of(IDP_KID, ZkpTestSupport.otherRsaPublicKey()));

        assertThatAssertion(() -> verify(ANSWER, DPR, swapped)).hasCode(ErrorCode.BAD_PROOF);
    }

    @Test
    void verifyWhenEntryOlderThanTheTtlThenVerifiedInFullAgain() {
        verify(ANSWER, DPR, IDP_KEYS);
        clock.advance(Duration.ofMinutes(5));

        assertThat(verify(ANSWER, DPR, IDP_KEYS)).isFalse();
        assertThat(verify(ANSWER, DPR, IDP_KEYS)).isTrue();
    }

    @Test
    void verifyWhenMoreProofsThanTheCapacityThenTheLeastRecentlyUsedGoes() {
        OAuthProof second = OAuthProof.create(
                ZkpTestSupport.oauthToken(), ZkpTestSupport.idpPublicKey(), IDP_KID, 80, new SecureRandom());
        OAuthProof third = OAuthProof.create(
                ZkpTestSupport.oauthToken(), ZkpTestSupport.idpPublicKey(), IDP_KID, 80, new SecureRandom());
        verify(ANSWER, DPR, IDP_KEYS);
        verify(second, DPR, IDP_KEYS);
        verify(ANSWER, DPR, IDP_KEYS); // ANSWER is now the most recently used

        verify(third, DPR, IDP_KEYS);

        assertThat(memo.size()).isEqualTo(2);
        assertThat(verify(ANSWER, DPR, IDP_KEYS)).isTrue();
        assertThat(verify(second, DPR, IDP_KEYS)).isFalse();
    }

    @Test
    void verifyWhenCapacityZeroThenNothingRemembered() {
        VerifiedProofs none = VerifiedProofs.none();

        assertThat(ANSWER.verify(DPA, DPR, IDP_KEYS, VerificationProfile.STRICT, LIMITS, BC, none))
                .isFalse();
        assertThat(ANSWER.verify(DPA, DPR, IDP_KEYS, VerificationProfile.STRICT, LIMITS, BC, none))
                .isFalse();
        assertThat(none.size()).isZero();
    }

    // ---- held proofs: "unchanged" introspection answers ----

    private static final String ROOT = "eyJyb290IjoxfQ.c2lnbmF0dXJl";

    private boolean verifyFor(OAuthProof proof, String document) {
        return proof.verify(DPA, DPR, IDP_KEYS, VerificationProfile.STRICT, LIMITS, BC, memo, document);
    }

    private boolean held(String document, String dpr, IdpKeyResolver keys) {
        return OAuthProof.verifyHeld(document, DPA, dpr, keys, VerificationProfile.STRICT, LIMITS, memo);
    }

    @Test
    void heldDigestWhenProofVerifiedForADocumentThenItsDigestIsOfferedAndTheHeldProofVerifies() {
        assertThat(memo.heldDigest(ROOT)).isNull();
        assertThat(held(ROOT, DPR, IDP_KEYS)).isFalse();

        verifyFor(ANSWER, ROOT);

        assertThat(memo.heldDigest(ROOT)).isEqualTo(ANSWER.digest()).matches("[A-Za-z0-9_-]{43}");
        assertThat(memo.heldDigest("another root")).isNull();
        assertThat(held(ROOT, DPR, IDP_KEYS)).isTrue();
    }

    @Test
    void digestWhenAnyPartDiffersThenAnotherDigest() {
        assertThat(tampered().digest()).isNotEqualTo(ANSWER.digest());
        assertThat(new OAuthProof(ANSWER.msg(), ANSWER.zkp(), ANSWER.idpKey() + " ").digest())
                .isNotEqualTo(ANSWER.digest());
        assertThat(new OAuthProof(ANSWER.msg(), ANSWER.zkp(), ANSWER.idpKey()).digest())
                .isEqualTo(ANSWER.digest());
    }

    @Test
    void verifyHeldWhenAnotherDelegationThenDelegationInvalid() {
        verifyFor(ANSWER, ROOT);

        assertThatAssertion(() -> held(ROOT, "someone-else", IDP_KEYS)).hasCode(ErrorCode.DELEGATION_INVALID);
    }

    @Test
    void verifyHeldWhenTheKeyIsNoLongerPublishedOrResolvesToAnotherKeyThenUntrustedOrNotHeld() {
        verifyFor(ANSWER, ROOT);
        IdpKeyResolver rotated = IdpKeyResolver.of(DPA, Map.of("new-kid", ZkpTestSupport.otherRsaPublicKey()));
        IdpKeyResolver swapped = IdpKeyResolver.of(DPA, Map.of(IDP_KID, ZkpTestSupport.otherRsaPublicKey()));

        assertThatAssertion(() -> held(ROOT, DPR, rotated)).hasCode(ErrorCode.UNTRUSTED_KEY);
        // another key is another memo key: nothing verified under it, so the proof must be fetched
        assertThat(held(ROOT, DPR, swapped)).isFalse();
    }

    @Test
    void verifyHeldWhenOlderThanTheTtlOrMemoEmptyThenNotHeld() {
        verifyFor(ANSWER, ROOT);
        clock.advance(Duration.ofMinutes(5));
        VerifiedProofs none = VerifiedProofs.none();
        ANSWER.verify(DPA, DPR, IDP_KEYS, VerificationProfile.STRICT, LIMITS, BC, none, ROOT);

        assertThat(memo.heldDigest(ROOT)).isNull();
        assertThat(held(ROOT, DPR, IDP_KEYS)).isFalse();
        assertThat(none.heldDigest(ROOT)).isNull();
    }

    @Test
    void verifyWhenProofFailsThenNothingHeldForTheDocument() {
        assertThatAssertion(() -> verifyFor(tampered(), ROOT)).hasCode(ErrorCode.BAD_PROOF);

        assertThat(memo.heldDigest(ROOT)).isNull();
    }
}
