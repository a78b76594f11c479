package io.spiffeidt.core.lsvid;

import static io.spiffeidt.core.lsvid.LsvidFixture.DPA;
import static io.spiffeidt.core.lsvid.LsvidFixture.DPR;
import static io.spiffeidt.core.lsvid.LsvidFixture.NOW;
import static io.spiffeidt.core.lsvid.LsvidFixture.chain;
import static io.spiffeidt.core.lsvid.LsvidFixture.layer;
import static io.spiffeidt.core.lsvid.LsvidFixture.relink;
import static io.spiffeidt.core.lsvid.LsvidFixture.signed;
import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.LayerInfo;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.Presenter;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.VerifiedResult;
import io.spiffeidt.core.VerifierContractTests;
import io.spiffeidt.core.internal.Codec;
import io.spiffeidt.core.lsvid.LsvidFixture.Workload;
import io.spiffeidt.core.lsvid.LsvidVerifier.DelegationRule;
import io.spiffeidt.testkit.TestPki;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The LSVID verifier: the shared contract suite, the forgeries the original accepted, the
 * delegation, audience and presenter rules, and build / extend / verify at depth 1 to 8.
 */
class LsvidVerifierTests extends VerifierContractTests {

    private static final LsvidFixture F = new LsvidFixture();
    private static final Lsvid STANDARD = F.now().standard();
    private static final String STANDARD_ENCODED = LsvidCodec.encode(STANDARD);

    // ---- contract ----

    @Override
    protected String validDocument() {
        return STANDARD_ENCODED;
    }

    @Override
    protected VerifiedResult verify(String document) {
        return F.verifier().verify(document, F.target.id(), F.mtier.presenter());
    }

    @Override
    protected String document(ContractCase contractCase) {
        List<LsvidToken> c = chain(STANDARD); // [m→t, s→m, a→s (delegation), s→a, base(s)]
        return switch (contractCase) {
            case TAMPERED_PAYLOAD -> {
                LsvidPayload p = c.get(2).payload();
                List<LsvidToken> t = new ArrayList<>(c);
                t.set(
                        2,
                        new LsvidToken(
                                null,
                                new LsvidPayload(
                                        p.ver(),
                                        p.alg(),
                                        p.iat(),
                                        p.exp(),
                                        p.iss(),
                                        p.sub(),
                                        p.aud(),
                                        p.dpa(),
                                        "mallory@example.test"),
                                c.get(2).signature()));
                yield LsvidCodec.encode(relink(t, null));
            }
            case TAMPERED_SIGNATURE -> {
                byte[] sig = c.get(1).signature();
                sig[sig.length / 2] ^= 0x01;
                List<LsvidToken> t = new ArrayList<>(c);
                t.set(1, new LsvidToken(null, c.get(1).payload(), sig));
                yield LsvidCodec.encode(relink(t, null));
            }
            case REORDERED -> {
                List<LsvidToken> t = new ArrayList<>(c);
                t.set(1, c.get(2));
                t.set(2, c.get(1));
                yield LsvidCodec.encode(relink(t, null));
            }
            case DROPPED -> {
                List<LsvidToken> t = new ArrayList<>(c);
                t.remove(1);
                yield LsvidCodec.encode(relink(t, null));
            }
            case WRONG_KEY -> {
                // the outermost layer, unchanged, but signed with the target's key
                yield LsvidCodec.encode(new Lsvid(signed(c.get(1), c.get(0).payload(), F.target.key()), null));
            }
            case UNTRUSTED_CHAIN -> {
                TestPki rogue =
                        TestPki.newCa("example.org", NOW.minus(Duration.ofDays(1)), NOW.plus(Duration.ofDays(1)));
                Workload fakeSubject = Workload.of(rogue.issue("/subject-wl"));
                LsvidFixture.Builder b = F.now();
                Lsvid doc = b.extend(b.start(fakeSubject), fakeSubject, F.asserting);
                doc = b.delegate(doc, F.asserting, F.subject);
                doc = b.extend(b.extend(doc, F.subject, F.mtier), F.mtier, F.target);
                yield LsvidCodec.encode(doc);
            }
            case EXPIRED ->
                LsvidCodec.encode(F.at(NOW.minus(Duration.ofHours(1))).standard());
            case NOT_YET_VALID ->
                LsvidCodec.encode(F.at(NOW.plus(Duration.ofHours(1))).standard());
        };
    }

    @Override
    protected Set<ErrorCode> expectedCodes(ContractCase contractCase) {
        return switch (contractCase) {
            case TAMPERED_PAYLOAD, TAMPERED_SIGNATURE, WRONG_KEY -> EnumSet.of(ErrorCode.BAD_SIGNATURE);
            case REORDERED, DROPPED -> EnumSet.of(ErrorCode.BROKEN_LINK);
            case UNTRUSTED_CHAIN -> EnumSet.of(ErrorCode.UNTRUSTED_KEY);
            case EXPIRED -> EnumSet.of(ErrorCode.EXPIRED);
            case NOT_YET_VALID -> EnumSet.of(ErrorCode.NOT_YET_VALID);
        };
    }

    // ---- the valid path ----

    @Test
    void verifyWhenThesisPathThenLayersDelegationAndSize() {
        VerifiedResult r = verify(STANDARD_ENCODED);

        assertThat(r.mode()).isEqualTo(Mode.LSVID);
        assertThat(r.depth()).isEqualTo(5);
        assertThat(r.encodedSize()).isEqualTo(STANDARD_ENCODED.length());
        assertThat(r.layers())
                .extracting(LayerInfo::issuer, LayerInfo::audience)
                .containsExactly(
                        tuple(F.mtier.id().toString(), F.target.id().toString()),
                        tuple(F.subject.id().toString(), F.mtier.id().toString()),
                        tuple(F.asserting.id().toString(), F.subject.id().toString()),
                        tuple(F.subject.id().toString(), F.asserting.id().toString()),
                        tuple("spiffe://example.org", null));
        assertThat(r.delegation().dpa()).isEqualTo(DPA);
        assertThat(r.delegation().dpr()).isEqualTo(DPR);
        assertThat(r.delegation().assertedBy()).isEqualTo(F.asserting.id().toString());
        assertThat(r.outermost().expiresAt()).isEqualTo(NOW.plusSeconds(120));
        assertThat(r.layers().get(4).expiresAt())
                .isEqualTo(F.subject.leaf().getNotAfter().toInstant());
    }

    @ParameterizedTest(name = "depth {0}")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
    void verifyWhenBuiltAtDepthThenVerifiesAtTheNextHop(int depth) {
        Lsvid doc = F.now().ofDepth(depth);
        String encoded = LsvidCodec.encode(doc);
        List<Workload> path = F.path(depth);
        SpiffeId audience = path.get(depth - 1).id();

        assertThat(doc.depth()).isEqualTo(depth);
        if (depth == 1) {
            // a version 2 base alone names no audience: it is never a presentable credential
            assertCode(
                    () -> F.verifier().verify(encoded, audience, F.subject.presenter(), DelegationRule.ABSENT),
                    ErrorCode.WRONG_AUDIENCE);
            return;
        }
        Presenter presenter = path.get(depth - 2).presenter();
        LsvidVerification v = F.verifier()
                .verify(encoded, audience, presenter, depth >= 3 ? DelegationRule.REQUIRED : DelegationRule.ABSENT);
        assertThat(v.depth()).isEqualTo(depth);
        assertThat(v.layers()).hasSize(depth);
        assertThat(v.outermost().issuer()).isEqualTo(presenter.id().toString());
        assertThat(v.outermost().audience()).isEqualTo(audience.toString());
        assertThat(v.document()).isEqualTo(doc);
        if (depth >= 3) {
            assertThat(v.toResult().delegation().dpr()).isEqualTo(DPR);
        } else {
            assertThat(v.delegation()).isNull();
        }
    }

    @Test
    void verifyWhenSizesByDepthThenGrowingAndMatchingTheEncodedPrefixes() {
        Lsvid doc = F.now().ofDepth(8);
        int[] sizes = LsvidCodec.encodedSizesByDepth(doc);
        List<LsvidToken> c = chain(doc);

        assertThat(sizes).hasSize(8);
        for (int d = 1; d <= 8; d++) {
            Lsvid prefix = new Lsvid(c.get(8 - d), null);
            assertThat(sizes[d - 1]).isEqualTo(LsvidCodec.encode(prefix).length());
            assertThat(LsvidCodec.encodedSize(prefix)).isEqualTo(sizes[d - 1]);
        }
        for (int d = 1; d < 8; d++) {
            assertThat(sizes[d]).isGreaterThan(sizes[d - 1]);
        }
    }

    @Test
    void verifyWhenJdkDefaultProviderThenSameResult() {
        LsvidVerifier sunEc = new LsvidVerifier(new LsvidSettings(
                F.asserting.id(),
                F.pki.bundle(),
                VerificationProfile.STRICT,
                Limits.defaults(),
                LsvidFixture.time(NOW),
                List.of(),
                null));

        VerifiedResult r = sunEc.verify(STANDARD_ENCODED, F.target.id(), F.mtier.presenter());

        assertThat(r.delegation().dpr()).isEqualTo(DPR);
    }

    // ---- forgeries the original accepted ----

    @Test
    void verifyWhenBaseKeyNotAnchoredThenUntrustedKey() {
        // the subject's genuine certificate chain, but sub.pk is an attacker's key that signs
        var attacker = TestPki.ecKeyPair();
        LsvidToken genuine = F.now().base(F.subject);
        LsvidPayload p = genuine.payload();
        LsvidPayload forged = new LsvidPayload(
                p.ver(),
                p.alg(),
                p.iat(),
                p.exp(),
                p.iss(),
                new IdClaim(
                        p.sub().cn(), attacker.getPublic().getEncoded(), p.sub().x5c(), null),
                null,
                null,
                null);
        LsvidToken forgedBase = signed(null, forged, attacker.getPrivate());
        LsvidFixture.Builder b = F.now();
        Lsvid doc = b.extender.extend(Lsvid.of(forgedBase), forgedBase, attacker.getPrivate(), F.asserting.id());
        doc = b.delegate(doc, F.asserting, F.subject);
        doc = b.extend(b.extend(doc, F.subject, F.mtier), F.mtier, F.target);
        String encoded = LsvidCodec.encode(doc);

        assertCode(() -> verify(encoded), ErrorCode.UNTRUSTED_KEY);
    }

    @Test
    void verifyWhenAnotherBaseCarriesAnAnchoredChainWithAnotherKeyThenUntrustedKey() {
        // the innermost base anchors the subject's chain (validated once per call); a second base
        // with that very chain but an attacker's sub.pk must still fail its own key binding
        var attacker = TestPki.ecKeyPair();
        LsvidFixture.Builder b = F.now();
        LsvidToken genuine = b.base(F.subject);
        LsvidPayload p = genuine.payload();
        LsvidPayload forged = new LsvidPayload(
                p.ver(),
                p.alg(),
                p.iat(),
                p.exp(),
                p.iss(),
                new IdClaim(
                        p.sub().cn(), attacker.getPublic().getEncoded(), p.sub().x5c(), null),
                null,
                null,
                null);
        LsvidToken forgedBase = signed(null, forged, attacker.getPrivate());
        Lsvid doc = b.extender.extend(Lsvid.of(genuine), forgedBase, attacker.getPrivate(), F.asserting.id());
        doc = b.delegate(doc, F.asserting, F.subject);
        doc = b.extend(b.extend(doc, F.subject, F.mtier), F.mtier, F.target);
        String encoded = LsvidCodec.encode(doc);

        assertCode(() -> verify(encoded), ErrorCode.UNTRUSTED_KEY);
    }

    @Test
    void verifyWhenBaseWithoutCertificateChainThenMalformed() {
        LsvidToken genuine = F.now().base(F.subject);
        LsvidPayload p = genuine.payload();
        LsvidPayload bare = new LsvidPayload(
                p.ver(),
                p.alg(),
                p.iat(),
                p.exp(),
                p.iss(),
                new IdClaim(p.sub().cn(), p.sub().pk(), null, null),
                null,
                null,
                null);
        LsvidToken base = signed(null, bare, F.subject.key());
        Lsvid doc = F.now().extender.extend(Lsvid.of(base), base, F.subject.key(), F.asserting.id());

        assertCode(
                () -> F.verifier()
                        .verify(LsvidCodec.encode(doc), F.asserting.id(), F.subject.presenter(), DelegationRule.ABSENT),
                ErrorCode.MALFORMED);
    }

    @Test
    void verifyWhenBaseOutlivesItsCertificateThenUntrustedKey() {
        LsvidToken genuine = F.now().base(F.subject);
        LsvidPayload p = genuine.payload();
        LsvidPayload longer =
                new LsvidPayload(p.ver(), p.alg(), p.iat(), p.exp() + 3600, p.iss(), p.sub(), null, null, null);
        LsvidToken base = signed(null, longer, F.subject.key());
        Lsvid doc = F.now().extender.extend(Lsvid.of(base), base, F.subject.key(), F.asserting.id());

        assertCode(
                () -> F.verifier()
                        .verify(LsvidCodec.encode(doc), F.asserting.id(), F.subject.presenter(), DelegationRule.ABSENT),
                ErrorCode.UNTRUSTED_KEY);
    }

    @Test
    void verifyWhenIssIdOfAnotherIdentityThenUntrustedKey() {
        // the outermost layer claims m-tier but embeds (and is signed with) the subject's identity
        List<LsvidToken> c = chain(STANDARD);
        LsvidToken subjectBase = F.now().base(F.subject);
        long now = NOW.getEpochSecond();
        LsvidToken forged = signed(
                c.get(1),
                layer(subjectBase, F.mtier.id().toString(), F.target.id().toString(), now, now + 60, null),
                F.subject.key());

        assertCode(() -> verify(LsvidCodec.encode(new Lsvid(forged, null))), ErrorCode.UNTRUSTED_KEY);
    }

    @Test
    void verifyWhenIssIdIsSelfMadeThenUntrustedKey() {
        // vector 015 in version 2: a self-made iss.id from a CA outside the bundle
        TestPki rogue = TestPki.newCa("example.org", NOW.minus(Duration.ofDays(1)), NOW.plus(Duration.ofDays(1)));
        Workload fakeMtier = Workload.of(rogue.issue("/m-tier"));
        LsvidFixture.Builder b = F.now();
        Lsvid doc = b.extend(b.extend(b.minted(), F.subject, F.mtier), fakeMtier, F.target);

        assertCode(
                () -> F.verifier().verify(LsvidCodec.encode(doc), F.target.id(), fakeMtier.presenter()),
                ErrorCode.UNTRUSTED_KEY);
    }

    @Test
    void verifyWhenIssIdReplayedWithAnotherKeyThenBadSignature() {
        // m-tier copies the asserting workload's genuine base (public) and signs a delegation itself
        LsvidFixture.Builder b = F.now();
        Lsvid asked = b.extend(b.start(F.subject), F.subject, F.asserting);
        long now = NOW.getEpochSecond();
        LsvidToken fake = signed(
                asked.token(),
                layer(
                        b.base(F.asserting),
                        F.asserting.id().toString(),
                        F.subject.id().toString(),
                        now,
                        now + 60,
                        DPR),
                F.mtier.key());
        Lsvid doc = b.extend(b.extend(new Lsvid(fake, null), F.subject, F.mtier), F.mtier, F.target);

        assertCode(() -> verify(LsvidCodec.encode(doc)), ErrorCode.BAD_SIGNATURE);
    }

    @Test
    void verifyWhenOneWorkloadBuildsChainClaimingUserThenDelegationInvalid() {
        // vector 016 in version 2: every signature genuine, all by m-tier
        LsvidFixture.Builder b = F.now();
        Lsvid doc = b.extender.extendWithDelegation(
                b.start(F.mtier), b.base(F.mtier), F.mtier.key(), F.mtier.id(), DPA, "victim@example.test");
        doc = b.extend(doc, F.mtier, F.mtier);
        doc = b.extend(doc, F.mtier, F.target);
        String encoded = LsvidCodec.encode(doc);

        assertCode(() -> verify(encoded), ErrorCode.DELEGATION_INVALID);
    }

    @Test
    void verifyWhenSubjectDelegatesItselfThenDelegationInvalid() {
        LsvidFixture.Builder b = F.now();
        Lsvid doc = b.extender.extendWithDelegation(
                b.start(F.subject), b.base(F.subject), F.subject.key(), F.mtier.id(), DPA, DPR);
        doc = b.extend(doc, F.mtier, F.target);
        String encoded = LsvidCodec.encode(doc);

        assertCode(() -> verify(encoded), ErrorCode.DELEGATION_INVALID);
    }

    @Test
    void verifyWhenTwoDelegationLayersThenDelegationInvalid() {
        LsvidFixture.Builder b = F.now();
        Lsvid doc = b.minted();
        doc = b.delegate(b.extend(doc, F.subject, F.asserting), F.asserting, F.subject);
        doc = b.extend(b.extend(doc, F.subject, F.mtier), F.mtier, F.target);
        String encoded = LsvidCodec.encode(doc);

        assertCode(() -> verify(encoded), ErrorCode.DELEGATION_INVALID);
    }

    @Test
    void verifyWhenDprInNonAssertingLayerThenDelegationInvalid() {
        LsvidFixture.Builder b = F.now();
        Lsvid doc = b.delegate(b.minted(), F.subject, F.mtier);
        doc = b.extend(doc, F.mtier, F.target);
        String encoded = LsvidCodec.encode(doc);

        assertCode(() -> verify(encoded), ErrorCode.DELEGATION_INVALID);
    }

    @Test
    void verifyWhenDprOnlyInNonAssertingLayerThenDelegationInvalid() {
        LsvidFixture.Builder b = F.now();
        Lsvid doc = b.extend(b.extend(b.start(F.subject), F.subject, F.asserting), F.asserting, F.subject);
        doc = b.delegate(doc, F.subject, F.mtier);
        doc = b.extend(doc, F.mtier, F.target);
        String encoded = LsvidCodec.encode(doc);

        assertCode(() -> verify(encoded), ErrorCode.DELEGATION_INVALID);
    }

    @Test
    void verifyWhenNoDelegationThenDelegationInvalid() {
        LsvidFixture.Builder b = F.now();
        Lsvid doc = b.extend(b.extend(b.start(F.subject), F.subject, F.mtier), F.mtier, F.target);
        String encoded = LsvidCodec.encode(doc);

        assertCode(() -> verify(encoded), ErrorCode.DELEGATION_INVALID);
    }

    @Test
    void verifyWhenDelegationAddressedToAnotherWorkloadThenDelegationInvalid() {
        // asserting delegates to m-tier although the subject asked
        LsvidFixture.Builder b = F.now();
        Lsvid doc = b.delegate(b.extend(b.start(F.subject), F.subject, F.asserting), F.asserting, F.mtier);
        doc = b.extend(doc, F.mtier, F.target);
        String encoded = LsvidCodec.encode(doc);

        assertCode(() -> verify(encoded), ErrorCode.DELEGATION_INVALID);
    }

    @Test
    void verifyWhenDelegationRightAboveTheBaseThenDelegationInvalid() {
        LsvidFixture.Builder b = F.now();
        Lsvid doc = b.delegate(b.start(F.asserting), F.asserting, F.subject);
        doc = b.extend(b.extend(doc, F.subject, F.mtier), F.mtier, F.target);
        String encoded = LsvidCodec.encode(doc);

        assertCode(() -> verify(encoded), ErrorCode.DELEGATION_INVALID);
    }

    @Test
    void verifyWhenBaseCarriesDprThenDelegationInvalid() {
        LsvidToken genuine = F.now().base(F.subject);
        LsvidPayload p = genuine.payload();
        LsvidToken base = signed(
                null,
                new LsvidPayload(p.ver(), p.alg(), p.iat(), p.exp(), p.iss(), p.sub(), null, DPA, DPR),
                F.subject.key());
        LsvidFixture.Builder b = F.now();
        Lsvid doc = b.extender.extend(Lsvid.of(base), base, F.subject.key(), F.mtier.id());
        doc = b.extend(doc, F.mtier, F.target);
        String encoded = LsvidCodec.encode(doc);

        assertCode(() -> verify(encoded), ErrorCode.DELEGATION_INVALID);
    }

    @Test
    void verifyWhenNonCanonicalButEqualJsonThenMalformed() {
        String json = LsvidCodec.json(STANDARD);
        String spaced = json.replaceFirst("\\{\"token\":", "{\"token\": ");
        String escapedSlash = json.replace("spiffe://example.org/target-wl", "spiffe:\\/\\/example.org\\/target-wl");

        assertThat(escapedSlash).isNotEqualTo(json);
        assertCode(() -> verify(Codec.b64url(spaced)), ErrorCode.MALFORMED);
        assertCode(() -> verify(Codec.b64url(escapedSlash)), ErrorCode.MALFORMED);
        assertCode(() -> verify(Codec.b64url(json + "\n")), ErrorCode.MALFORMED);
    }

    @Test
    void verifyWhenDepthThousandThenLimitExceededWithoutStackOverflow() {
        String deep = LsvidCodecTests.nestedJson(1000);

        assertCode(() -> verify(Codec.b64url(deep)), ErrorCode.LIMIT_EXCEEDED);
        LsvidVerifier roomy = new LsvidVerifier(F.settings(new Limits(64 * 1024 * 1024, 32, 2048, 80, 256)));
        String deeper = LsvidCodecTests.nestedJson(200_000);
        assertCode(
                () -> roomy.verify(Codec.b64url(deeper), F.target.id(), F.mtier.presenter()), ErrorCode.LIMIT_EXCEEDED);
    }

    @Test
    void verifyWhenOneTokenOverTheDepthLimitThenLimitExceeded() {
        Lsvid doc = F.now().ofDepth(4);
        LsvidVerifier shallow = new LsvidVerifier(F.settings(new Limits(256 * 1024, 3, 2048, 80, 256)));

        assertCode(
                () -> shallow.verify(LsvidCodec.encode(doc), F.mtier.id(), F.subject.presenter()),
                ErrorCode.LIMIT_EXCEEDED);
    }

    // ---- links, times, versions ----

    @Test
    void verifyWhenSignedLayerBreaksTheLinkThenBrokenLink() {
        // m-tier genuinely extends a document that was addressed to the target
        LsvidFixture.Builder b = F.now();
        Lsvid doc = b.extend(b.extend(b.minted(), F.subject, F.target), F.mtier, F.target);

        assertCode(() -> verify(LsvidCodec.encode(doc)), ErrorCode.BROKEN_LINK);
    }

    @Test
    void verifyWhenLayerOutlivesTheInnerLayerThenBrokenLinkAsInEveryNestedMode() {
        List<LsvidToken> c = chain(STANDARD);
        long now = NOW.getEpochSecond();
        LsvidToken longer = signed(
                c.get(1),
                layer(
                        F.now().base(F.mtier),
                        F.mtier.id().toString(),
                        F.target.id().toString(),
                        now,
                        c.get(1).payload().exp() + 1,
                        null),
                F.mtier.key());

        assertCode(() -> verify(LsvidCodec.encode(new Lsvid(longer, null))), ErrorCode.BROKEN_LINK);
    }

    @Test
    void verifyWhenUnknownVersionOrAlgorithmThenUnsupported() {
        List<LsvidToken> c = chain(STANDARD);
        long now = NOW.getEpochSecond();
        LsvidPayload p = layer(
                F.now().base(F.mtier), F.mtier.id().toString(), F.target.id().toString(), now, now + 60, null);
        LsvidPayload v3 = new LsvidPayload(3, p.alg(), p.iat(), p.exp(), p.iss(), null, p.aud(), null, null);
        LsvidPayload es384 = new LsvidPayload(2, "ES384", p.iat(), p.exp(), p.iss(), null, p.aud(), null, null);

        assertCode(
                () -> verify(LsvidCodec.encode(new Lsvid(signed(c.get(1), v3, F.mtier.key()), null))),
                ErrorCode.UNSUPPORTED);
        assertCode(
                () -> verify(LsvidCodec.encode(new Lsvid(signed(c.get(1), es384, F.mtier.key()), null))),
                ErrorCode.UNSUPPORTED);
    }

    @Test
    void verifyWhenVersion2CarriesABundleTokenThenMalformed() {
        Lsvid withBundle = new Lsvid(STANDARD.token(), F.now().base(F.subject));

        assertCode(() -> verify(LsvidCodec.encode(withBundle)), ErrorCode.MALFORMED);
    }

    @Test
    void verifyWhenCertificateOutlivedThenExpired() {
        // every layer ends by its base's certificate notAfter, so a document never outlives it
        LsvidVerifier later =
                new LsvidVerifier(F.settings().withTimeRules(LsvidFixture.time(NOW.plus(Duration.ofDays(2)))));
        Lsvid doc = F.at(NOW.plus(Duration.ofDays(1)).minusSeconds(30)).standard();
        String encoded = LsvidCodec.encode(doc);

        assertThat(doc.token().payload().exp())
                .isEqualTo(NOW.plus(Duration.ofDays(1)).getEpochSecond());
        assertCode(() -> later.verify(encoded, F.target.id(), F.mtier.presenter()), ErrorCode.EXPIRED);
    }

    @Test
    void verifyWhenCertificateNotYetValidThenUntrustedKey() {
        Workload early =
                Workload.of(F.pki.issue("/subject-wl", NOW.plus(Duration.ofHours(1)), NOW.plus(Duration.ofDays(1))));
        LsvidFixture.Builder b = F.now();
        Lsvid asked = b.extend(b.start(early), early, F.asserting);

        assertCode(
                () -> F.verifier()
                        .verify(LsvidCodec.encode(asked), F.asserting.id(), early.presenter(), DelegationRule.ABSENT),
                ErrorCode.UNTRUSTED_KEY);
    }

    // ---- audience and presenter ----

    @Test
    void verifyWhenVerifierIsNotTheAudienceThenWrongAudience() {
        assertCode(
                () -> F.verifier().verify(STANDARD_ENCODED, F.asserting.id(), F.mtier.presenter()),
                ErrorCode.WRONG_AUDIENCE);
    }

    @Test
    void verifyWhenOutermostLayerDroppedThenWrongAudience() {
        // vector 014 in version 2: the prefix is genuinely signed, only aud/peer reject it
        String prefix = LsvidCodec.encode(new Lsvid(STANDARD.token().nested(), null));

        assertCode(() -> F.verifier().verify(prefix, F.target.id(), F.subject.presenter()), ErrorCode.WRONG_AUDIENCE);
    }

    @Test
    void verifyWhenPresenterIsAnotherWorkloadThenWrongPresenter() {
        assertCode(
                () -> F.verifier().verify(STANDARD_ENCODED, F.target.id(), F.subject.presenter()),
                ErrorCode.WRONG_PRESENTER);
    }

    @Test
    void verifyWhenNoPresenterThenWrongPresenter() {
        assertCode(() -> F.verifier().verify(STANDARD_ENCODED, F.target.id(), null), ErrorCode.WRONG_PRESENTER);
    }

    @Test
    void verifyWhenPresenterRotatedItsKeyThenWrongPresenterUntilItExtendsAgain() {
        // m-tier extended with its old SVID, then rotated: same SPIFFE ID, new key
        Workload rotated = Workload.of(F.pki.issue("/m-tier"));
        assertThat(rotated.id()).isEqualTo(F.mtier.id());

        assertCode(
                () -> F.verifier().verify(STANDARD_ENCODED, F.target.id(), rotated.presenter()),
                ErrorCode.WRONG_PRESENTER);

        // after rotation m-tier rebuilds its base and extends again: accepted from the new key
        LsvidBaseBuilder own = new LsvidBaseBuilder(LsvidFixture.time(NOW), TestPki.BC);
        LsvidToken oldBase = own.current(F.mtier.chain(), F.mtier.key());
        assertThat(own.current(F.mtier.chain(), F.mtier.key())).isSameAs(oldBase);
        LsvidToken newBase = own.current(rotated.chain(), rotated.key());
        assertThat(newBase).isNotEqualTo(oldBase);
        LsvidFixture.Builder b = F.now();
        Lsvid again =
                b.extender.extend(b.extend(b.minted(), F.subject, F.mtier), newBase, rotated.key(), F.target.id());

        VerifiedResult r = F.verifier().verify(LsvidCodec.encode(again), F.target.id(), rotated.presenter());
        assertThat(r.outermost().issuer()).isEqualTo(F.mtier.id().toString());
    }

    // ---- the asserting workload's check before it delegates ----

    @Test
    void verifyWhenUndelegatedRequestThenAcceptedWithoutDelegation() {
        LsvidFixture.Builder b = F.now();
        Lsvid asked = b.extend(b.start(F.subject), F.subject, F.asserting);

        LsvidVerification v = F.verifier()
                .verify(LsvidCodec.encode(asked), F.asserting.id(), F.subject.presenter(), DelegationRule.ABSENT);

        assertThat(v.delegation()).isNull();
        assertThat(v.outermost().issuer()).isEqualTo(F.subject.id().toString());
        assertThatAssertion(v::toResult).hasCode(ErrorCode.DELEGATION_INVALID);
        // and the asserting workload's extension verifies at the subject
        Lsvid minted = b.delegate(v.document(), F.asserting, F.subject);
        VerifiedResult r = F.verifier().verify(LsvidCodec.encode(minted), F.subject.id(), F.asserting.presenter());
        assertThat(r.delegation().dpr()).isEqualTo(DPR);
    }

    @Test
    void verifyWhenUndelegatedRuleButDelegationPresentThenDelegationInvalid() {
        String minted = LsvidCodec.encode(F.now().minted());

        assertCode(
                () -> F.verifier().verify(minted, F.subject.id(), F.asserting.presenter(), DelegationRule.ABSENT),
                ErrorCode.DELEGATION_INVALID);
    }

    @Test
    void verifyWhenLayerWouldOutliveTheInnerOneThenExtenderCapsIt() {
        Instant early = NOW.minusSeconds(100);
        LsvidFixture.Builder first = F.at(early);
        Lsvid asked = first.extend(first.start(F.subject), F.subject, F.asserting);
        Lsvid minted = F.now().delegate(asked, F.asserting, F.subject);

        assertThat(minted.token().payload().exp())
                .isEqualTo(asked.token().payload().exp());
        assertThat(F.verifier()
                        .verify(LsvidCodec.encode(minted), F.subject.id(), F.asserting.presenter())
                        .outermost()
                        .expiresAt())
                .isEqualTo(early.plusSeconds(120));
    }

    private static void assertCode(ThrowingCallable call, ErrorCode code) {
        assertThatAssertion(call).hasCode(code);
    }
}
