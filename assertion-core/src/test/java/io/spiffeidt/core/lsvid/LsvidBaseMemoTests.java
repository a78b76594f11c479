package io.spiffeidt.core.lsvid;

import static io.spiffeidt.core.lsvid.LsvidFixture.NOW;
import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.VerifiedResult;
import io.spiffeidt.core.internal.ValidatedChains;
import io.spiffeidt.core.memo.Memos;
import io.spiffeidt.testkit.TestMemos;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The memo of verified base documents never turns a rejection into an acceptance. */
class LsvidBaseMemoTests {

    private static final LsvidFixture F = new LsvidFixture();

    private static LsvidVerifier sharing(LsvidSettings settings, VerifiedBases bases) {
        return new LsvidVerifier(
                settings,
                new ValidatedChains(TestMemos.sized(64), LsvidVerifier.CHAIN_MEMO),
                bases,
                new VerifiedLayers(TestMemos.sized(64)),
                new DecodedDocuments(TestMemos.sized(64)));
    }

    @Test
    void verifyWhenBasesRememberedThenEveryDistinctBaseIsKeptAndTheVerdictIsUnchanged() {
        VerifiedBases bases = new VerifiedBases(TestMemos.sized(64));
        LsvidVerifier verifier = sharing(F.settings(), bases);
        String doc = LsvidCodec.encode(F.now().standard());
        VerifiedResult first = verifier.verify(doc, F.target.id(), F.mtier.presenter());
        int remembered = bases.size();
        VerifiedResult again = verifier.verify(doc, F.target.id(), F.mtier.presenter());

        assertThat(remembered).isGreaterThanOrEqualTo(2);
        assertThat(bases.size()).isEqualTo(remembered);
        assertThat(again).isEqualTo(first);
        assertThat(new LsvidVerifier(F.settings(), Memos.none()).verify(doc, F.target.id(), F.mtier.presenter()))
                .isEqualTo(first);
    }

    @Test
    void verifyWhenRememberedUnderAnotherBundleThenUntrustedKey() {
        VerifiedBases bases = new VerifiedBases(TestMemos.sized(64));
        String doc = LsvidCodec.encode(F.now().standard());
        sharing(F.settings(), bases).verify(doc, F.target.id(), F.mtier.presenter());
        assertThat(bases.size()).isPositive();

        LsvidFixture other = new LsvidFixture();
        LsvidSettings otherBundle = new LsvidSettings(
                F.settings().assertingWorkload(),
                other.pki.bundle(),
                F.settings().profile(),
                F.settings().limits(),
                F.settings().timeRules(),
                F.settings().trustedV1IssuerKeys(),
                F.settings().provider());

        assertThatAssertion(() -> sharing(otherBundle, bases).verify(doc, F.target.id(), F.mtier.presenter()))
                .hasCode(ErrorCode.UNTRUSTED_KEY);
    }

    @Test
    void verifyWhenRememberedAndThenExpiredThenExpired() {
        VerifiedBases bases = new VerifiedBases(TestMemos.sized(64));
        String doc = LsvidCodec.encode(
                F.at(NOW.plus(Duration.ofDays(1)).minusSeconds(30)).standard());
        LsvidVerifier atEnd = sharing(
                F.settings()
                        .withTimeRules(
                                LsvidFixture.time(NOW.plus(Duration.ofDays(1)).minusSeconds(10))),
                bases);
        atEnd.verify(doc, F.target.id(), F.mtier.presenter());
        assertThat(bases.size()).isPositive();

        LsvidVerifier later =
                sharing(F.settings().withTimeRules(LsvidFixture.time(NOW.plus(Duration.ofDays(2)))), bases);
        assertThatAssertion(() -> later.verify(doc, F.target.id(), F.mtier.presenter()))
                .hasCode(ErrorCode.EXPIRED);
    }

    @Test
    void verifyWhenRememberedBaseChangesByOneByteThenBadSignature() {
        VerifiedBases bases = new VerifiedBases(TestMemos.sized(64));
        LsvidVerifier verifier = sharing(F.settings(), bases);
        Lsvid doc = F.now().standard();
        verifier.verify(LsvidCodec.encode(doc), F.target.id(), F.mtier.presenter());

        List<LsvidToken> chain = LsvidFixture.chain(doc);
        LsvidToken base = chain.get(chain.size() - 1);
        byte[] flipped = base.signature();
        flipped[flipped.length - 1] ^= 0x01;
        chain.set(chain.size() - 1, new LsvidToken(null, base.payload(), flipped));
        String changed = LsvidCodec.encode(LsvidFixture.relink(chain, null));

        assertThatAssertion(() -> verifier.verify(changed, F.target.id(), F.mtier.presenter()))
                .hasCode(ErrorCode.BAD_SIGNATURE);
    }

    @Test
    void verifyWhenMemoIsOffThenNothingIsRemembered() {
        VerifiedBases bases = new VerifiedBases(TestMemos.sized(0));
        sharing(F.settings(), bases).verify(LsvidCodec.encode(F.now().standard()), F.target.id(), F.mtier.presenter());
        assertThat(bases.size()).isZero();
    }
}
