package io.spiffeidt.core.lsvid;

import static io.spiffeidt.core.lsvid.LsvidFixture.NOW;
import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.VerifiedResult;
import io.spiffeidt.core.internal.ValidatedChains;
import io.spiffeidt.core.memo.Memos;
import io.spiffeidt.testkit.TestMemos;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The memo of decoded documents skips only the decoding of a document presented again:
 * every check still runs on the remembered result, and a rejection stays a rejection.
 */
class LsvidDocumentMemoTests {

    private static final LsvidFixture F = new LsvidFixture();

    private static LsvidVerifier sharing(LsvidSettings settings, DecodedDocuments documents) {
        return new LsvidVerifier(
                settings,
                new ValidatedChains(TestMemos.sized(64), LsvidVerifier.CHAIN_MEMO),
                new VerifiedBases(TestMemos.sized(64)),
                new VerifiedLayers(TestMemos.sized(64)),
                documents);
    }

    private static DecodedDocuments memo() {
        return new DecodedDocuments(TestMemos.sized(64));
    }

    @Test
    void verifyWhenPresentedAgainThenTheDecodingIsFoundAndTheVerdictIsUnchanged() {
        DecodedDocuments documents = memo();
        LsvidVerifier verifier = sharing(F.settings(), documents);
        String doc = LsvidCodec.encode(F.now().standard());

        VerifiedResult first = verifier.verify(doc, F.target.id(), F.mtier.presenter());
        VerifiedResult again = verifier.verify(doc, F.target.id(), F.mtier.presenter());

        assertThat(documents.size()).isEqualTo(1);
        assertThat(documents.chars()).isEqualTo(doc.length());
        assertThat(documents.hits()).isEqualTo(1);
        assertThat(again).isEqualTo(first);
        assertThat(new LsvidVerifier(F.settings(), Memos.none()).verify(doc, F.target.id(), F.mtier.presenter()))
                .isEqualTo(first);
    }

    @Test
    void verifyWhenRememberedThenAudienceAndPresenterAreCheckedAgain() {
        DecodedDocuments documents = memo();
        LsvidVerifier verifier = sharing(F.settings(), documents);
        String doc = LsvidCodec.encode(F.now().standard());
        verifier.verify(doc, F.target.id(), F.mtier.presenter());

        assertThatAssertion(() -> verifier.verify(doc, F.mtier.id(), F.mtier.presenter()))
                .hasCode(ErrorCode.WRONG_AUDIENCE);
        assertThatAssertion(() -> verifier.verify(doc, F.target.id(), F.subject.presenter()))
                .hasCode(ErrorCode.WRONG_PRESENTER);
        assertThat(documents.hits()).isEqualTo(2);
    }

    @Test
    void verifyWhenRememberedAndThenExpiredThenExpired() {
        DecodedDocuments documents = memo();
        String doc = LsvidCodec.encode(F.now().standard());
        sharing(F.settings(), documents).verify(doc, F.target.id(), F.mtier.presenter());

        LsvidVerifier later =
                sharing(F.settings().withTimeRules(LsvidFixture.time(NOW.plus(Duration.ofHours(1)))), documents);

        assertThatAssertion(() -> later.verify(doc, F.target.id(), F.mtier.presenter()))
                .hasCode(ErrorCode.EXPIRED);
        assertThat(documents.hits()).isEqualTo(1);
    }

    @Test
    void verifyWhenRememberedUnderOtherLimitsThenDecodedAgainUnderTheseLimits() {
        DecodedDocuments documents = memo();
        String doc = LsvidCodec.encode(F.now().standard());
        sharing(F.settings(), documents).verify(doc, F.target.id(), F.mtier.presenter());

        LsvidVerifier shallow = sharing(F.settings(new Limits(256 * 1024, 3, 2048, 80, 256)), documents);

        assertThatAssertion(() -> shallow.verify(doc, F.target.id(), F.mtier.presenter()))
                .hasCode(ErrorCode.LIMIT_EXCEEDED);
        assertThat(documents.hits()).isZero();
    }

    @Test
    void verifyWhenRejectedThenTheDocumentIsNotRemembered() {
        DecodedDocuments documents = memo();
        LsvidVerifier verifier = sharing(F.settings(), documents);
        String doc = LsvidCodec.encode(F.now().standard());

        assertThatAssertion(() -> verifier.verify(doc, F.mtier.id(), F.mtier.presenter()))
                .hasCode(ErrorCode.WRONG_AUDIENCE);

        assertThat(documents.size()).isZero();
        assertThat(documents.chars()).isZero();
    }

    @Test
    void verifyWhenTheDocumentsOutgrowTheBudgetThenTheMemoStaysWithinIt() {
        String one = LsvidCodec.encode(F.now().standard());
        String two = LsvidCodec.encode(F.at(NOW.plusSeconds(1)).standard());
        DecodedDocuments documents = new DecodedDocuments(TestMemos.sized(64, one.length() + two.length() - 1));
        LsvidVerifier verifier = sharing(F.settings(), documents);

        verifier.verify(one, F.target.id(), F.mtier.presenter());
        verifier.verify(two, F.target.id(), F.mtier.presenter());

        assertThat(documents.size()).isEqualTo(1);
        assertThat(documents.chars()).isEqualTo(two.length());
    }

    @Test
    void verifyWhenDocumentsAreNotRememberedThenTheOutermostLayerIsVerifiedEveryTime() {
        VerifiedLayers layers = new VerifiedLayers(TestMemos.sized(64));
        LsvidVerifier verifier = new LsvidVerifier(
                F.settings(),
                new ValidatedChains(TestMemos.sized(64), LsvidVerifier.CHAIN_MEMO),
                new VerifiedBases(TestMemos.sized(64)),
                layers,
                new DecodedDocuments(TestMemos.sized(0)));
        String doc = LsvidCodec.encode(F.now().standard()); // base and four layers

        VerifiedResult first = verifier.verify(doc, F.target.id(), F.mtier.presenter());
        VerifiedResult again = verifier.verify(doc, F.target.id(), F.mtier.presenter());

        assertThat(again).isEqualTo(first);
        assertThat(layers.size()).isEqualTo(3);
        assertThat(layers.hits()).isEqualTo(3);
    }

    @Test
    void verifyWhenMemoIsOffOrTheDocumentLongerThanTheBudgetThenNothingIsRemembered() {
        String doc = LsvidCodec.encode(F.now().standard());
        DecodedDocuments off = new DecodedDocuments(TestMemos.sized(0));
        DecodedDocuments small = new DecodedDocuments(TestMemos.sized(64, doc.length() - 1));

        sharing(F.settings(), off).verify(doc, F.target.id(), F.mtier.presenter());
        sharing(F.settings(), off).verify(doc, F.target.id(), F.mtier.presenter());
        sharing(F.settings(), small).verify(doc, F.target.id(), F.mtier.presenter());

        assertThat(off.size()).isZero();
        assertThat(off.hits()).isZero();
        assertThat(small.size()).isZero();
        assertThat(small.chars()).isZero();
    }
}
