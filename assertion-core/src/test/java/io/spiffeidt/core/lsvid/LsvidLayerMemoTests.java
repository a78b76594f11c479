package io.spiffeidt.core.lsvid;

import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.VerifiedResult;
import io.spiffeidt.core.internal.ValidatedChains;
import io.spiffeidt.core.memo.Memos;
import io.spiffeidt.testkit.TestMemos;
import java.security.KeyFactory;
import java.security.interfaces.ECPublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The memo of verified layers never turns a rejection into an acceptance. */
class LsvidLayerMemoTests {

    private static final LsvidFixture F = new LsvidFixture();

    private static LsvidVerifier sharing(VerifiedLayers layers) {
        return new LsvidVerifier(
                F.settings(),
                new ValidatedChains(TestMemos.sized(64), LsvidVerifier.CHAIN_MEMO),
                new VerifiedBases(TestMemos.sized(64)),
                layers,
                new DecodedDocuments(TestMemos.sized(64)));
    }

    private static VerifiedResult atTarget(LsvidVerifier verifier, Lsvid doc) {
        return verifier.verify(LsvidCodec.encode(doc), F.target.id(), F.mtier.presenter());
    }

    @Test
    void verifyWhenLayersRememberedThenEveryLayerIsKeptAndTheVerdictIsUnchanged() {
        VerifiedLayers layers = new VerifiedLayers(TestMemos.sized(64));
        LsvidVerifier verifier = sharing(layers);
        Lsvid doc = F.now().standard(); // base and four layers, the outermost m-tier → target

        VerifiedResult first = atTarget(verifier, doc);
        int remembered = layers.size();
        VerifiedResult again = atTarget(verifier, doc);

        // the outermost too: a hop that reuses its extension presents the same one again
        assertThat(remembered).isEqualTo(4);
        assertThat(layers.size()).isEqualTo(4);
        assertThat(layers.hits()).isEqualTo(4);
        assertThat(again).isEqualTo(first);
        assertThat(atTarget(new LsvidVerifier(F.settings(), Memos.none()), doc)).isEqualTo(first);
    }

    @Test
    void verifyWhenRequestsReuseOneMintedDocumentThenItsLayersAreRememberedOnce() {
        LsvidFixture.Builder at = F.now();
        Lsvid minted = at.minted();
        VerifiedLayers layers = new VerifiedLayers(TestMemos.sized(64));
        LsvidVerifier verifier = sharing(layers);

        for (int request = 1; request <= 3; request++) {
            Lsvid doc = at.extend(at.extend(minted, F.subject, F.mtier), F.mtier, F.target);
            atTarget(verifier, doc);
            // the minted request and delegation layers once, and each request's two new layers
            assertThat(layers.size()).isEqualTo(2 + 2 * request);
            assertThat(layers.hits()).isEqualTo(2 * (request - 1));
        }
    }

    @Test
    void verifyWhenARememberedSignatureComesWithAnotherPayloadThenBadSignature() {
        VerifiedLayers layers = new VerifiedLayers(TestMemos.sized(64));
        LsvidVerifier verifier = sharing(layers);
        Lsvid doc = F.now().standard();
        atTarget(verifier, doc);

        List<LsvidToken> chain = LsvidFixture.chain(doc); // outermost first
        int innermostLayer = chain.size() - 2; // subject → asserting, remembered above
        LsvidToken genuine = chain.get(innermostLayer);
        LsvidPayload p = genuine.payload();
        LsvidPayload earlier =
                LsvidFixture.layer(p.iss().id(), p.iss().cn(), p.aud().cn(), p.iat() - 1, p.exp(), null);
        chain.set(innermostLayer, new LsvidToken(genuine.nested(), earlier, genuine.signature()));
        Lsvid changed = LsvidFixture.relink(chain, null);

        // at the changed layer itself (layer 1), not only at the layer that nests it
        assertThatAssertion(() -> atTarget(verifier, changed))
                .hasCode(ErrorCode.BAD_SIGNATURE)
                .hasLayer(1);
    }

    @Test
    void verifyWhenTheLayersOutgrowTheCharacterBudgetThenTheMemoStaysWithinIt() {
        LsvidFixture.Builder at = F.now();
        Lsvid doc = at.standard();
        List<LsvidToken> chain = LsvidFixture.chain(doc);
        // room for the longest inner layer (subject → m-tier, which wraps the other two), not for all
        // three; the outermost layer, which wraps all of them, is longer than the whole budget
        long budget = LsvidCodec.decodeForVerification(
                                LsvidCodec.encode(doc), F.settings().limits())
                        .tokenJson(1)
                        .length()
                + 1;
        VerifiedLayers layers = new VerifiedLayers(TestMemos.sized(64, budget));
        LsvidVerifier verifier = sharing(layers);

        VerifiedResult result = atTarget(verifier, doc);

        assertThat(chain).hasSize(5);
        assertThat(layers.chars()).isPositive().isLessThanOrEqualTo(budget);
        assertThat(layers.size()).isLessThan(3);
        assertThat(atTarget(verifier, doc)).isEqualTo(result);
        assertThat(layers.chars()).isLessThanOrEqualTo(budget);
    }

    @Test
    void verifyWhenALayerIsLongerThanTheBudgetThenItIsNotRemembered() {
        VerifiedLayers layers = new VerifiedLayers(TestMemos.sized(64, 100));
        atTarget(sharing(layers), F.now().standard());
        assertThat(layers.size()).isZero();
        assertThat(layers.chars()).isZero();
    }

    @Test
    void verifyWhenMemoIsOffThenNoLayerIsRemembered() {
        VerifiedLayers layers = new VerifiedLayers(TestMemos.sized(0));
        LsvidVerifier verifier = sharing(layers);
        atTarget(verifier, F.now().standard());
        atTarget(verifier, F.now().standard());
        assertThat(layers.size()).isZero();
        assertThat(layers.hits()).isZero();
    }

    /** Another instance of the same public key (as a memo that made it again gives it). */
    private static ECPublicKey copyOf(ECPublicKey key) throws Exception {
        return (ECPublicKey) KeyFactory.getInstance("EC").generatePublic(new X509EncodedKeySpec(key.getEncoded()));
    }

    private static LsvidCodec.Decoded decoded(Lsvid doc) {
        return LsvidCodec.decodeForVerification(
                LsvidCodec.encode(doc), F.settings().limits());
    }

    @Test
    void holdsWhenTheKeyIsAnEqualInstanceThenItHoldsAndAnotherKeyDoesNot() throws Exception {
        VerifiedLayers layers = new VerifiedLayers(TestMemos.sized(64));
        LsvidCodec.Decoded doc = decoded(F.now().standard());
        byte[] signature = doc.chain().get(1).signatureRaw();
        ECPublicKey key = (ECPublicKey) F.mtier.leaf().getPublicKey();
        layers.remember(doc, 1, signature, copyOf(key));

        assertThat(layers.holds(doc, 1, signature, copyOf(key))).isTrue();
        assertThat(layers.holds(doc, 1, signature, copyOf(key))).isTrue();
        assertThat(layers.holds(decoded(F.now().standard()), 1, signature, copyOf(key)))
                .isFalse(); // another document: other signatures, so not this entry's text
        assertThat(layers.holds(
                        doc, 1, signature, (ECPublicKey) F.subject.leaf().getPublicKey()))
                .isFalse();
        assertThat(layers.holds(doc, 1, signature, copyOf(key))).isTrue();
        assertThat(layers.hits()).isEqualTo(3);
    }

    @Test
    void holdsWhenTheSameDocumentIsAskedAtAnotherIndexThenTheTextDecidesNotTheDocument() throws Exception {
        VerifiedLayers layers = new VerifiedLayers(TestMemos.sized(64));
        LsvidCodec.Decoded doc = decoded(F.now().standard());
        byte[] signature = doc.chain().get(1).signatureRaw();
        ECPublicKey key = (ECPublicKey) F.mtier.leaf().getPublicKey();
        layers.remember(doc, 1, signature, key);

        assertThat(layers.holds(doc, 1, signature, key)).isTrue();
        // the same document and signature, but the token at index 2 is another text
        assertThat(layers.holds(doc, 2, signature, key)).isFalse();
        assertThat(layers.holds(doc, 0, signature, key)).isFalse();
        // a fresh decoding of the same bytes: found by its text
        LsvidCodec.Decoded again = decoded(doc.lsvid());
        assertThat(again).isNotSameAs(doc);
        assertThat(layers.holds(again, 1, signature, key)).isTrue();
        assertThat(layers.holds(doc, 1, signature, key)).isTrue();
    }
}
