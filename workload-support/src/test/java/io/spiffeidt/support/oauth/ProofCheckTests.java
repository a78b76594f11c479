package io.spiffeidt.support.oauth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.Delegation;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.zkp.IdpKeyResolver;
import io.spiffeidt.core.zkp.OAuthProof;
import io.spiffeidt.core.zkp.VerifiedProofs;
import io.spiffeidt.support.metrics.OperationMetrics;
import io.spiffeidt.support.testing.TestOAuthIssuer;
import io.spiffeidt.support.wire.IntrospectionAnswer;
import io.spiffeidt.testkit.TestMemos;
import java.security.SecureRandom;
import java.security.interfaces.RSAPublicKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The verifier's side of "unchanged" introspection answers. The asserting workload is played by a
 * function that answers as {@code IntrospectionAnswer.of} does (the real endpoint is in
 * AssertingWorkloadIT, the whole path in devstack's ProofMemoIT); it records the digests it was
 * offered.
 */
class ProofCheckTests {

    private static final String ROOT = "eyJyb290IjoxfQ.c2lnbmF0dXJl";

    private static TestOAuthIssuer idp;
    private static OAuthProof proof;
    private static Delegation delegation;

    private final Clock clock = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
    private final OperationMetrics metrics = new OperationMetrics(new SimpleMeterRegistry());
    private final List<String> offers = new ArrayList<>();
    private ProofCheck check = proofCheck(VerifiedProofs.none());

    private ProofCheck proofCheck(VerifiedProofs memo) {
        return new ProofCheck(Mode.ID_MODE, VerificationProfile.STRICT, Limits.defaults(), null, memo, metrics);
    }

    @BeforeAll
    static void issuer() throws Exception {
        idp = new TestOAuthIssuer();
        String token = idp.token("user0042");
        RSAPublicKey key = idp.idpKeys().resolve(idp.issuer(), "test-idp-1");
        proof = OAuthProof.create(token, key, "test-idp-1", 80, new SecureRandom());
        delegation = new Delegation(idp.issuer(), "user0042", "spiffe://example.org/asserting-wl");
    }

    @AfterAll
    static void close() {
        idp.close();
    }

    private IntrospectionAnswer asserting(String offered) {
        offers.add(offered);
        return IntrospectionAnswer.of(proof, offered);
    }

    private String introspect(IdpKeyResolver keys) {
        return check.introspect(ROOT, delegation, keys, this::asserting);
    }

    @Test
    void introspectWhenMemoEmptyThenNothingOfferedAndEveryProofVerifiedInFull() {
        assertThat(introspect(idp.idpKeys())).isEqualTo(ProofCheck.MISS);
        assertThat(introspect(idp.idpKeys())).isEqualTo(ProofCheck.MISS);

        assertThat(offers).containsExactly(null, null);
    }

    @Test
    void introspectWhenProofVerifiedBeforeThenDigestOfferedAndAnsweredUnchanged() {
        check = proofCheck(new VerifiedProofs(TestMemos.sized(10, Duration.ofMinutes(5), clock)));

        assertThat(introspect(idp.idpKeys())).isEqualTo(ProofCheck.MISS);
        assertThat(introspect(idp.idpKeys())).isEqualTo(ProofCheck.UNCHANGED);

        assertThat(offers).containsExactly(null, proof.digest());
    }

    @Test
    void introspectWhenHeldProofNoLongerVerifiesUnderTheResolvedKeyThenFetchedAgainInFull() {
        check = proofCheck(new VerifiedProofs(TestMemos.sized(10, Duration.ofMinutes(5), clock)));
        introspect(idp.idpKeys());
        // the kid now resolves to another key: the held proof is not good for it, the fetched one fails
        try (TestOAuthIssuer other = new TestOAuthIssuer()) {
            RSAPublicKey otherKey = other.idpKeys().resolve(other.issuer(), "test-idp-1");
            IdpKeyResolver swapped = (issuer, kid) -> otherKey;

            codeOf(() -> introspect(swapped)).isEqualTo(ErrorCode.BAD_PROOF);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }

        assertThat(offers).containsExactly(null, proof.digest(), null);
    }

    @Test
    void introspectWhenAnswerUnchangedButNothingOfferedThenMalformed() {
        codeOf(() -> check.introspect(
                        ROOT, delegation, idp.idpKeys(), offered -> new IntrospectionAnswer(null, null, null, true)))
                .isEqualTo(ErrorCode.MALFORMED);
        codeOf(() -> check.introspect(
                        ROOT, delegation, idp.idpKeys(), offered -> new IntrospectionAnswer(null, null, null, null)))
                .isEqualTo(ErrorCode.MALFORMED);
    }

    @Test
    void introspectWhenHeldProofNamesAnotherUserThenDelegationInvalid() {
        check = proofCheck(new VerifiedProofs(TestMemos.sized(10, Duration.ofMinutes(5), clock)));
        introspect(idp.idpKeys());
        Delegation mallory = new Delegation(idp.issuer(), "mallory", delegation.assertedBy());

        codeOf(() -> check.introspect(ROOT, mallory, idp.idpKeys(), this::asserting))
                .isEqualTo(ErrorCode.DELEGATION_INVALID);
    }

    @Test
    void checkWhenTheCallerSentTheOfferItselfThenTheAnswerIsCheckedAsIntrospectDoes() {
        check = proofCheck(new VerifiedProofs(TestMemos.sized(10, Duration.ofMinutes(5), clock)));
        ProofCheck.Offer empty = check.offer(ROOT);
        String first = check.check(
                ROOT, delegation, idp.idpKeys(), empty, IntrospectionAnswer.of(proof, null), this::asserting);
        ProofCheck.Offer held = check.offer(ROOT);
        String second = check.check(
                ROOT, delegation, idp.idpKeys(), held, IntrospectionAnswer.of(proof, held.digest()), this::asserting);

        assertThat(empty.digest()).isNull();
        assertThat(first).isEqualTo(ProofCheck.MISS);
        assertThat(held.digest()).isEqualTo(proof.digest());
        assertThat(second).isEqualTo(ProofCheck.UNCHANGED);
        // the answers came with the offers: nothing was fetched again
        assertThat(offers).isEmpty();
        // "unchanged" for an offer of nothing is refused, as from introspect
        codeOf(() -> check.check(
                        "another.root",
                        delegation,
                        idp.idpKeys(),
                        check.offer("another.root"),
                        new IntrospectionAnswer(null, null, null, true),
                        this::asserting))
                .isEqualTo(ErrorCode.MALFORMED);
    }

    private static ErrorCodeAssert codeOf(Runnable work) {
        AssertionException e = catchThrowableOfType(AssertionException.class, work::run);
        assertThat(e).as("an AssertionException").isNotNull();
        return expected -> assertThat(e.code()).isEqualTo(expected);
    }

    private interface ErrorCodeAssert {
        void isEqualTo(ErrorCode expected);
    }
}
