package io.spiffeidt.core.idmode;

import static io.spiffeidt.core.idmode.IdModeWorld.ASSERTING;
import static io.spiffeidt.core.idmode.IdModeWorld.CA;
import static io.spiffeidt.core.idmode.IdModeWorld.DPA;
import static io.spiffeidt.core.idmode.IdModeWorld.DPR;
import static io.spiffeidt.core.idmode.IdModeWorld.MTIER;
import static io.spiffeidt.core.idmode.IdModeWorld.NOW;
import static io.spiffeidt.core.idmode.IdModeWorld.SUBJECT;
import static io.spiffeidt.core.idmode.IdModeWorld.TARGET;
import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.LayerInfo;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.Presenter;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.VerifiedResult;
import io.spiffeidt.core.VerifierContractTests;
import io.spiffeidt.core.internal.Codec;
import io.spiffeidt.testkit.TestPki;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The contract suite of negative cases for ID-Mode, plus every check of docs/formats/id-mode.md
 * "Verification" and the cases the original got wrong. The contract's document is the
 * presentation JSON {@code {"token","artifacts"}} of the PoC path asserting-wl → subject-wl →
 * m-tier → target-wl, verified by target-wl as presented by m-tier over mTLS.
 */
class IdModeVerifierTests extends VerifierContractTests {

    private static final IdModePresentation VALID = IdModeWorld.pocPath();
    private static final SpiffeId OTHER = CA.id("other-wl");

    @Override
    protected String validDocument() {
        return VALID.toJson();
    }

    @Override
    protected VerifiedResult verify(String document) {
        IdModePresentation p = IdModePresentation.parse(document, limits());
        return IdModeWorld.verifier()
                .verify(p, TARGET.spiffeId(), IdModeWorld.presenter(MTIER))
                .result();
    }

    @Override
    protected String document(ContractCase contractCase) {
        return switch (contractCase) {
            case TAMPERED_PAYLOAD -> withToken(VALID, replace(VALID.token(), 1, reencodedWithLaterIat(1)));
            case TAMPERED_SIGNATURE -> withToken(VALID, replace(VALID.token(), 5, flippedLastByte(5)));
            case REORDERED -> withToken(VALID, swap(VALID.token(), 1, 2));
            case DROPPED -> dropMiddleLayer().toJson();
            case WRONG_KEY -> middleLayerSignedBy(TARGET).toJson();
            case UNTRUSTED_CHAIN -> rootFromRogueCa().toJson();
            case EXPIRED -> IdModeWorld.pocPath(NOW.minus(Duration.ofHours(1))).toJson();
            case NOT_YET_VALID ->
                IdModeWorld.pocPath(NOW.plus(Duration.ofHours(1))).toJson();
        };
    }

    @Override
    protected Set<ErrorCode> expectedCodes(ContractCase contractCase) {
        return switch (contractCase) {
            case TAMPERED_PAYLOAD, TAMPERED_SIGNATURE, REORDERED, DROPPED, WRONG_KEY ->
                EnumSet.of(ErrorCode.BAD_SIGNATURE);
            case UNTRUSTED_CHAIN -> EnumSet.of(ErrorCode.UNTRUSTED_KEY);
            case EXPIRED -> EnumSet.of(ErrorCode.EXPIRED);
            case NOT_YET_VALID -> EnumSet.of(ErrorCode.NOT_YET_VALID);
        };
    }

    // ---- the verified result

    @Test
    void verifyWhenPocPathThenLayersOutermostFirstAndPathInCallOrder() {
        VerifiedIdMode v = IdModeWorld.verifier().verify(VALID, TARGET.spiffeId(), IdModeWorld.presenter(MTIER));
        assertThat(v.result().layers())
                .extracting(LayerInfo::issuer, LayerInfo::audience)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(
                                MTIER.spiffeId().toString(), TARGET.spiffeId().toString()),
                        org.assertj.core.groups.Tuple.tuple(
                                SUBJECT.spiffeId().toString(), MTIER.spiffeId().toString()),
                        org.assertj.core.groups.Tuple.tuple(
                                ASSERTING.spiffeId().toString(),
                                SUBJECT.spiffeId().toString()));
        assertThat(v.path()).containsExactly(ASSERTING.spiffeId(), SUBJECT.spiffeId(), MTIER.spiffeId());
        assertThat(v.audience()).isEqualTo(TARGET.spiffeId());
        assertThat(v.result().delegation().dpa()).isEqualTo(DPA);
        assertThat(v.result().delegation().dpr()).isEqualTo(DPR);
        assertThat(v.result().delegation().assertedBy())
                .isEqualTo(ASSERTING.spiffeId().toString());
        assertThat(v.result().encodedSize()).isEqualTo(VALID.token().length());
        assertThat(v.result().layers())
                .allSatisfy(l -> assertThat(l.expiresAt()).isEqualTo(NOW.plus(IdModeWorld.lifetime())));
        assertThat(v.presentation()).isEqualTo(VALID);
    }

    // ---- step 1: split and decode

    @Test
    void verifyWhenOddSegmentCountThenMalformed() {
        String[] parts = VALID.token().split("\\.");
        String fiveSegments = String.join(".", Arrays.copyOf(parts, 5));
        String sevenSegments = VALID.token() + "." + parts[5];
        assertCode(() -> verifyToken(fiveSegments, VALID.artifacts()), ErrorCode.MALFORMED);
        assertCode(() -> verifyToken(sevenSegments, VALID.artifacts()), ErrorCode.MALFORMED);
    }

    @Test
    void verifyWhenEmptySegmentThenMalformed() {
        assertCode(() -> verifyToken(replace(VALID.token(), 3, ""), VALID.artifacts()), ErrorCode.MALFORMED);
        assertCode(
                () -> verifyToken("." + VALID.token().substring(VALID.token().indexOf('.')), VALID.artifacts()),
                ErrorCode.MALFORMED);
        assertCode(() -> verifyToken(".", VALID.artifacts()), ErrorCode.MALFORMED);
    }

    @Test
    void verifyWhenPaddedBase64ThenMalformed() {
        String[] parts = VALID.token().split("\\.");
        int layerSegment = -1;
        for (int i = 0; i < parts.length && layerSegment < 0; i++) {
            if (parts[i].length() % 4 != 0) {
                layerSegment = i;
            }
        }
        int index = layerSegment;
        String segment = parts[index];
        String padded = segment + "=".repeat(4 - segment.length() % 4);
        assertThat(Codec.b64url(java.util.Base64.getUrlDecoder().decode(padded)))
                .isEqualTo(segment);
        assertCode(() -> verifyToken(replace(VALID.token(), index, padded), VALID.artifacts()), ErrorCode.MALFORMED);
    }

    @Test
    void verifyWhenStandardBase64AlphabetThenMalformed() {
        String[] parts = VALID.token().split("\\.");
        String std = parts[0].replace('-', '+').replace('_', '/');
        String withStd = std.equals(parts[0]) ? "+" + parts[0].substring(1) : std;
        assertCode(() -> verifyToken(replace(VALID.token(), 0, withStd), VALID.artifacts()), ErrorCode.MALFORMED);
    }

    @Test
    void verifyWhenPayloadHasDuplicateKeyThenMalformed() {
        String json = "{\"aud\":\"" + TARGET.spiffeId() + "\",\"aud\":\"" + TARGET.spiffeId() + "\",\"iat\":"
                + NOW.getEpochSecond() + ",\"iss\":\"" + MTIER.spiffeId() + "\"}";
        assertCode(
                () -> verifyToken(replace(VALID.token(), 0, Codec.b64url(json)), VALID.artifacts()),
                ErrorCode.MALFORMED);
    }

    @Test
    void verifyWhenIssuerIsNotSpiffeIdThenMalformed() {
        String json = "{\"aud\":\"" + TARGET.spiffeId() + "\",\"exp\":"
                + NOW.plusSeconds(60).getEpochSecond() + ",\"iat\":" + NOW.getEpochSecond()
                + ",\"iss\":\"https://m-tier.example.org\"}";
        assertCode(
                () -> verifyToken(replace(VALID.token(), 0, Codec.b64url(json)), VALID.artifacts()),
                ErrorCode.MALFORMED);
    }

    @Test
    void verifyWhenDeeperThanLimitThenLimitExceeded() {
        Limits shallow = new Limits(256 * 1024, 2, 2048, 80, 256);
        IdModeVerifier verifier = new IdModeVerifier(
                IdModeWorld.settings(VerificationProfile.STRICT).withLimits(shallow), TestPki.BC);
        assertCode(
                () -> verifier.verify(VALID, TARGET.spiffeId(), IdModeWorld.presenter(MTIER)),
                ErrorCode.LIMIT_EXCEEDED);
    }

    // ---- step 2: artifacts count

    @Test
    void verifyWhenArtifactsCountDiffersFromLayersThenMalformed() {
        IdModeArtifacts fewer = VALID.artifacts().prefix(2);
        IdModeArtifacts more = VALID.artifacts().append(TARGET.chain());
        assertCode(() -> verifyToken(VALID.token(), fewer), ErrorCode.MALFORMED);
        assertCode(() -> verifyToken(VALID.token(), more), ErrorCode.MALFORMED);
    }

    // ---- step 3a: chains

    @Test
    void verifyWhenCertificateFromAnotherCaThenUntrustedKey() {
        TestPki otherCa = TestPki.newCa("example.org");
        IdModeCredentials foreignMtier = IdModeWorld.credentials(otherCa.issue("m-tier"));
        IdModePresentation two = IdModeWorld.extend(SUBJECT, IdModeWorld.mint(NOW), MTIER.spiffeId(), NOW);
        IdModePresentation three = IdModeWorld.extend(foreignMtier, two, TARGET.spiffeId(), NOW);
        assertCodeAtLayer(
                () -> IdModeWorld.verifier().verify(three, TARGET.spiffeId(), IdModeWorld.presenter(foreignMtier)),
                ErrorCode.UNTRUSTED_KEY,
                2);
    }

    @Test
    void verifyWhenCertificateSanIsNotTheLayerIssuerThenUntrustedKey() {
        IdModeCredentials impostor = IdModeWorld.credentials(CA.issue("other-wl"));
        IdModePresentation two = IdModeWorld.extend(SUBJECT, IdModeWorld.mint(NOW), MTIER.spiffeId(), NOW);
        IdModeClaims claims =
                IdModeClaims.hop(MTIER.spiffeId(), TARGET.spiffeId(), NOW, NOW.plus(IdModeWorld.lifetime()));
        String token = IdModeSigning.wrap(two.token(), claims, impostor.privateKey(), TestPki.BC);
        IdModeArtifacts artifacts = two.artifacts().append(impostor.chain());
        assertCodeAtLayer(() -> verifyToken(token, artifacts), ErrorCode.UNTRUSTED_KEY, 2);
    }

    @Test
    void verifyWhenSignerTrustDomainHasNoBundleThenUntrustedKey() {
        TestPki partnerCa = TestPki.newCa("partner.org");
        IdModeCredentials partner = IdModeWorld.credentials(partnerCa.issue("m-tier"));
        IdModePresentation three = partnerHop(partner);
        assertCodeAtLayer(
                () -> IdModeWorld.verifier().verify(three, TARGET.spiffeId(), IdModeWorld.presenter(partner)),
                ErrorCode.UNTRUSTED_KEY,
                2);
    }

    @Test
    void verifyWhenSignerTrustDomainIsFederatedThenAccepted() {
        TestPki partnerCa = TestPki.newCa("partner.org");
        IdModeCredentials partner = IdModeWorld.credentials(partnerCa.issue("m-tier"));
        IdModePresentation three = partnerHop(partner);
        IdModeVerifier federated = new IdModeVerifier(
                IdModeWorld.settings(VerificationProfile.STRICT)
                        .withBundles(TrustBundleSource.of(List.of(CA.bundle(), partnerCa.bundle()))),
                TestPki.BC);
        assertThat(federated
                        .verify(three, TARGET.spiffeId(), IdModeWorld.presenter(partner))
                        .path())
                .containsExactly(ASSERTING.spiffeId(), SUBJECT.spiffeId(), partner.spiffeId());
    }

    @Test
    void verifyWhenChainThroughIntermediateThenAcceptedAndWithoutItUntrusted() {
        TestPki intermediate = CA.intermediate();
        IdModeCredentials mtier = IdModeWorld.credentials(intermediate.issue("m-tier"));
        assertThat(mtier.chain()).hasSize(2);
        IdModePresentation two = IdModeWorld.extend(SUBJECT, IdModeWorld.mint(NOW), MTIER.spiffeId(), NOW);
        IdModePresentation three = IdModeWorld.extend(mtier, two, TARGET.spiffeId(), NOW);
        assertThat(IdModeWorld.verifier()
                        .verify(three, TARGET.spiffeId(), IdModeWorld.presenter(mtier))
                        .depth())
                .isEqualTo(3);

        IdModeArtifacts leafOnly = two.artifacts().append(List.of(mtier.leaf()));
        assertCodeAtLayer(() -> verifyToken(three.token(), leafOnly), ErrorCode.UNTRUSTED_KEY, 2);
    }

    @Test
    void verifyWhenLeafIsCaThenUntrustedKey() {
        IdModeCredentials caLeaf = IdModeWorld.credentials(
                CA.issue(TestPki.ecKeyPair(), MTIER.spiffeId(), true, TestPki.NOT_BEFORE, TestPki.NOT_AFTER));
        IdModePresentation two = IdModeWorld.extend(SUBJECT, IdModeWorld.mint(NOW), MTIER.spiffeId(), NOW);
        IdModePresentation three = IdModeWorld.extend(caLeaf, two, TARGET.spiffeId(), NOW);
        assertCodeAtLayer(() -> verifyToken(three.token(), three.artifacts()), ErrorCode.UNTRUSTED_KEY, 2);
    }

    @Test
    void verifyWhenCertificateExpiredAtVerificationTimeThenUntrustedKey() {
        IdModeCredentials shortLived = IdModeWorld.credentials(
                CA.issue(TestPki.ecKeyPair(), MTIER.spiffeId(), false, TestPki.NOT_BEFORE, NOW.plusSeconds(60)));
        IdModePresentation two = IdModeWorld.extend(SUBJECT, IdModeWorld.mint(NOW), MTIER.spiffeId(), NOW);
        IdModePresentation three = IdModeWorld.extend(shortLived, two, TARGET.spiffeId(), NOW);
        assertThat(IdModeToken.parse(three.token(), Limits.defaults()).claims(2).expiresAt())
                .isEqualTo(NOW.plusSeconds(60));
        IdModeVerifier later = new IdModeVerifier(
                IdModeWorld.settings(VerificationProfile.STRICT).withTimeRules(IdModeWorld.time(NOW.plusSeconds(80))),
                TestPki.BC);
        assertCodeAtLayer(
                () -> later.verifyWithoutPresenter(three.token(), three.artifacts(), TARGET.spiffeId()),
                ErrorCode.UNTRUSTED_KEY,
                2);
    }

    // ---- step 3b: key type and signature

    @Test
    void verifyWhenLayerSignedWithRsaKeyThenUnsupported() throws GeneralSecurityException {
        KeyPair rsa = TestPki.rsaKeyPair(2048);
        X509Certificate rsaLeaf =
                CA.certificate(rsa, "m-tier rsa", MTIER.spiffeId(), false, TestPki.NOT_BEFORE, TestPki.NOT_AFTER);
        IdModePresentation two = IdModeWorld.extend(SUBJECT, IdModeWorld.mint(NOW), MTIER.spiffeId(), NOW);
        String payload = Codec.b64url(
                IdModeClaims.hop(MTIER.spiffeId(), TARGET.spiffeId(), NOW, NOW.plus(IdModeWorld.lifetime()))
                        .toJson());
        Signature rs256 = Signature.getInstance("SHA256withRSA", TestPki.BC);
        rs256.initSign(rsa.getPrivate());
        rs256.update((payload + "." + two.token()).getBytes(StandardCharsets.US_ASCII));
        String token = IdModeSigning.assemble(payload, two.token(), Codec.b64url(rs256.sign()));
        IdModeArtifacts artifacts = two.artifacts().append(List.of(rsaLeaf));
        assertCodeAtLayer(() -> verifyToken(token, artifacts), ErrorCode.UNSUPPORTED, 2);
    }

    @Test
    void verifyWhenOutermostSignatureTamperedThenBadSignatureAtOutermost() {
        String token = replace(VALID.token(), 5, flippedLastByte(5));
        assertCodeAtLayer(() -> verifyToken(token, VALID.artifacts()), ErrorCode.BAD_SIGNATURE, 2);
    }

    @Test
    void verifyWhenSignatureNotDerThenBadSignature() {
        byte[] der = Codec.fromB64url(VALID.token().split("\\.")[5]);
        byte[] raw = Arrays.copyOf(der, 64); // a P1363-sized blob, not DER
        assertCodeAtLayer(
                () -> verifyToken(replace(VALID.token(), 5, Codec.b64url(raw)), VALID.artifacts()),
                ErrorCode.BAD_SIGNATURE,
                2);
    }

    @Test
    void verifyWhenInnerSignatureTamperedAndOuterResignedThenBadSignatureAtThatLayer() {
        // an attacker who controls m-tier re-signs over a tampered inner signature
        IdModePresentation two = IdModeWorld.extend(SUBJECT, IdModeWorld.mint(NOW), MTIER.spiffeId(), NOW);
        String tamperedTwo = replace(two.token(), 3, flippedLastByte(two.token(), 3));
        IdModeClaims claims =
                IdModeClaims.hop(MTIER.spiffeId(), TARGET.spiffeId(), NOW, NOW.plus(IdModeWorld.lifetime()));
        String token = IdModeSigning.wrap(tamperedTwo, claims, MTIER.privateKey(), TestPki.BC);
        assertCodeAtLayer(() -> verifyToken(token, two.artifacts().append(MTIER.chain())), ErrorCode.BAD_SIGNATURE, 1);
    }

    // ---- step 3c: links

    @Test
    void verifyWhenIssAudMismatchWithValidSignaturesThenBrokenLink() {
        IdModePresentation root = IdModeWorld.mint(NOW);
        IdModePresentation toOther = IdModeWorld.extend(SUBJECT, root, OTHER, NOW);
        IdModeClaims claims =
                IdModeClaims.hop(MTIER.spiffeId(), TARGET.spiffeId(), NOW, NOW.plus(IdModeWorld.lifetime()));
        String token = IdModeSigning.wrap(toOther.token(), claims, MTIER.privateKey(), TestPki.BC);
        IdModeArtifacts artifacts = toOther.artifacts().append(MTIER.chain());
        assertCodeAtLayer(() -> verifyToken(token, artifacts), ErrorCode.BROKEN_LINK, 2);
        // the same under original-compatible: the original's link check was broken, ours is not
        assertCodeAtLayer(
                () -> IdModeWorld.verifier(VerificationProfile.ORIGINAL_COMPATIBLE, TestPki.BC)
                        .verify(token, artifacts, TARGET.spiffeId(), IdModeWorld.presenter(MTIER)),
                ErrorCode.BROKEN_LINK,
                2);
    }

    @Test
    void verifyWhenExtenderNotTheAudienceThenBrokenLink() {
        IdModePresentation root = IdModeWorld.mint(NOW);
        assertCode(() -> IdModeWorld.extend(MTIER, root, TARGET.spiffeId(), NOW), ErrorCode.BROKEN_LINK);
    }

    // ---- step 3d: time

    @Test
    void verifyWhenExpMissingThenStrictMalformedAndCompatibleAccepts() {
        IdModePresentation noExp = pathWithExp(null, null, null);
        assertCode(() -> verifyToken(noExp.token(), noExp.artifacts()), ErrorCode.MALFORMED);
        VerifiedIdMode compat = IdModeWorld.verifier(VerificationProfile.ORIGINAL_COMPATIBLE, TestPki.BC)
                .verify(noExp, TARGET.spiffeId(), IdModeWorld.presenter(MTIER));
        assertThat(compat.result().layers()).allSatisfy(l -> assertThat(l.expiresAt())
                .isEqualTo(l.issuedAt().plusSeconds(300)));
    }

    @Test
    void verifyWhenOuterLayerOutlivesInnerThenStrictBrokenLinkAndCompatibleAccepts() {
        Instant soon = NOW.plusSeconds(60);
        Instant later = NOW.plusSeconds(100);
        IdModePresentation p = pathWithExp(soon, later, soon);
        assertCodeAtLayer(() -> verifyToken(p.token(), p.artifacts()), ErrorCode.BROKEN_LINK, 1);
        assertThat(IdModeWorld.verifier(VerificationProfile.ORIGINAL_COMPATIBLE, TestPki.BC)
                        .verify(p, TARGET.spiffeId(), IdModeWorld.presenter(MTIER))
                        .depth())
                .isEqualTo(3);
    }

    @Test
    void verifyWhenInnerLayerExpiredThenExpiredAtThatLayer() {
        Instant past = NOW.minusSeconds(120);
        IdModePresentation p = pathWithExp(past, past, past);
        assertCodeAtLayer(() -> verifyToken(p.token(), p.artifacts()), ErrorCode.EXPIRED, 2);
    }

    @Test
    void verifyWhenWithinSkewThenAccepted() {
        IdModePresentation p = IdModeWorld.pocPath(NOW.plusSeconds(20));
        assertThat(verifyToken(p.token(), p.artifacts()).depth()).isEqualTo(3);
        IdModePresentation old =
                IdModeWorld.pocPath(NOW.minus(IdModeWorld.lifetime()).minusSeconds(20));
        assertThat(verifyToken(old.token(), old.artifacts()).depth()).isEqualTo(3);
    }

    // ---- step 4: delegation

    @Test
    void verifyWhenRootNotByPinnedAssertingWorkloadThenDelegationInvalid() {
        IdModeCredentials rogueAsserting = IdModeWorld.credentials(CA.issue("rogue-asserting"));
        IdModePresentation root = new IdModeMinter(rogueAsserting, IdModeWorld.time(), TestPki.BC)
                .mint(SUBJECT.spiffeId(), DPA, "victim@example.test", null);
        IdModePresentation two = IdModeWorld.extend(SUBJECT, root, MTIER.spiffeId(), NOW);
        IdModePresentation three = IdModeWorld.extend(MTIER, two, TARGET.spiffeId(), NOW);
        assertCodeAtLayer(() -> verifyToken(three.token(), three.artifacts()), ErrorCode.DELEGATION_INVALID, 0);
    }

    @Test
    void verifyWhenRootWithoutDprThenDelegationInvalid() {
        Instant exp = NOW.plus(IdModeWorld.lifetime());
        String root = IdModeSigning.root(
                new IdModeClaims(ASSERTING.spiffeId(), SUBJECT.spiffeId(), NOW, exp, DPA, null),
                ASSERTING.privateKey(),
                TestPki.BC);
        IdModePresentation p = new IdModePresentation(root, IdModeArtifacts.of(List.of(ASSERTING.chain())));
        IdModePresentation three = IdModeWorld.extend(
                MTIER, IdModeWorld.extend(SUBJECT, p, MTIER.spiffeId(), NOW), TARGET.spiffeId(), NOW);
        assertCodeAtLayer(() -> verifyToken(three.token(), three.artifacts()), ErrorCode.DELEGATION_INVALID, 0);
    }

    @Test
    void verifyWhenHopCarriesDprThenDelegationInvalid() {
        IdModePresentation two = IdModeWorld.extend(SUBJECT, IdModeWorld.mint(NOW), MTIER.spiffeId(), NOW);
        IdModeClaims claims = new IdModeClaims(
                MTIER.spiffeId(),
                TARGET.spiffeId(),
                NOW,
                NOW.plus(IdModeWorld.lifetime()),
                null,
                "victim@example.test");
        String token = IdModeSigning.wrap(two.token(), claims, MTIER.privateKey(), TestPki.BC);
        assertCodeAtLayer(
                () -> verifyToken(token, two.artifacts().append(MTIER.chain())), ErrorCode.DELEGATION_INVALID, 2);
    }

    // ---- step 5: audience and presenter

    @Test
    void verifyWhenOuterLayerStrippedThenWrongAudience() {
        IdModeToken parsed = IdModeToken.parse(VALID.token(), Limits.defaults());
        String prefix = parsed.prefix(2);
        IdModeArtifacts prefixArtifacts = VALID.artifacts().prefix(2);
        // the stripped prefix is itself validly signed …
        assertThat(IdModeWorld.verifier()
                        .verify(prefix, prefixArtifacts, MTIER.spiffeId(), IdModeWorld.presenter(SUBJECT))
                        .depth())
                .isEqualTo(2);
        // … but not addressed to the target, under either profile
        for (VerificationProfile profile : VerificationProfile.values()) {
            assertCodeAtLayer(
                    () -> IdModeWorld.verifier(profile, TestPki.BC)
                            .verify(prefix, prefixArtifacts, TARGET.spiffeId(), IdModeWorld.presenter(SUBJECT)),
                    ErrorCode.WRONG_AUDIENCE,
                    1);
        }
    }

    @Test
    void verifyWhenPresenterNameDiffersThenWrongPresenter() {
        assertCode(
                () -> IdModeWorld.verifier().verify(VALID, TARGET.spiffeId(), IdModeWorld.presenter(SUBJECT)),
                ErrorCode.WRONG_PRESENTER);
    }

    @Test
    void verifyWhenPresenterKeyDiffersThenWrongPresenter() {
        IdModeCredentials otherMtierKey = IdModeWorld.credentials(CA.issue("m-tier"));
        assertThat(otherMtierKey.spiffeId()).isEqualTo(MTIER.spiffeId());
        assertCode(
                () -> IdModeWorld.verifier().verify(VALID, TARGET.spiffeId(), IdModeWorld.presenter(otherMtierKey)),
                ErrorCode.WRONG_PRESENTER);
    }

    @Test
    void verifyWhenPresenterBuiltFromPeerKeyAndIdThenAccepted() {
        Presenter peer = new Presenter(MTIER.spiffeId(), MTIER.leaf().getPublicKey());
        assertThat(IdModeWorld.verifier().verify(VALID, TARGET.spiffeId(), peer).path())
                .endsWith(MTIER.spiffeId());
    }

    @ParameterizedTest
    @EnumSource(VerificationProfile.class)
    void verifyWhenWrongVerifierThenWrongAudience(VerificationProfile profile) {
        assertCode(
                () -> IdModeWorld.verifier(profile, TestPki.BC)
                        .verify(VALID, SUBJECT.spiffeId(), IdModeWorld.presenter(MTIER)),
                ErrorCode.WRONG_AUDIENCE);
    }

    // ---- helpers

    private static VerifiedIdMode verifyToken(String token, IdModeArtifacts artifacts) {
        return IdModeWorld.verifier().verify(token, artifacts, TARGET.spiffeId(), IdModeWorld.presenter(MTIER));
    }

    private static void assertCode(ThrowingCallable call, ErrorCode code) {
        assertThatAssertion(call).hasCode(code);
    }

    private static void assertCodeAtLayer(ThrowingCallable call, ErrorCode code, int layer) {
        assertThatAssertion(call).hasCode(code).hasLayer(layer);
    }

    private static String withToken(IdModePresentation p, String token) {
        return new IdModePresentation(token, p.artifacts()).toJson();
    }

    private static String replace(String token, int segment, String value) {
        String[] parts = token.split("\\.", -1);
        parts[segment] = value;
        return String.join(".", parts);
    }

    private static String swap(String token, int a, int b) {
        String[] parts = token.split("\\.", -1);
        String t = parts[a];
        parts[a] = parts[b];
        parts[b] = t;
        return String.join(".", parts);
    }

    private static String reencodedWithLaterIat(int segment) {
        String json = Codec.utf8(Codec.fromB64url(VALID.token().split("\\.")[segment]));
        String later = json.replace("\"iat\":" + NOW.getEpochSecond(), "\"iat\":" + (NOW.getEpochSecond() + 1));
        assertThat(later).isNotEqualTo(json);
        return Codec.b64url(later);
    }

    private static String flippedLastByte(int segment) {
        return flippedLastByte(VALID.token(), segment);
    }

    private static String flippedLastByte(String token, int segment) {
        byte[] der = Codec.fromB64url(token.split("\\.")[segment]);
        der[der.length - 1] ^= 0x01;
        return Codec.b64url(der);
    }

    private static IdModePresentation dropMiddleLayer() {
        String[] parts = VALID.token().split("\\.");
        String token = String.join(".", parts[0], parts[2], parts[3], parts[5]);
        IdModeArtifacts artifacts = IdModeArtifacts.of(
                List.of(VALID.artifacts().chain(0), VALID.artifacts().chain(2)));
        return new IdModePresentation(token, artifacts);
    }

    private static IdModePresentation middleLayerSignedBy(IdModeCredentials wrongSigner) {
        IdModePresentation root = IdModeWorld.mint(NOW);
        IdModeClaims claims =
                IdModeClaims.hop(SUBJECT.spiffeId(), MTIER.spiffeId(), NOW, NOW.plus(IdModeWorld.lifetime()));
        String two = IdModeSigning.wrap(root.token(), claims, wrongSigner.privateKey(), TestPki.BC);
        IdModePresentation p = new IdModePresentation(two, root.artifacts().append(SUBJECT.chain()));
        return IdModeWorld.extend(MTIER, p, TARGET.spiffeId(), NOW);
    }

    private static IdModePresentation rootFromRogueCa() {
        TestPki rogue = TestPki.newCa("example.org");
        IdModeCredentials rogueAsserting = IdModeWorld.credentials(rogue.issue("asserting-wl"));
        assertThat(rogueAsserting.spiffeId()).isEqualTo(ASSERTING.spiffeId());
        IdModePresentation root = new IdModeMinter(rogueAsserting, IdModeWorld.time(), TestPki.BC)
                .mint(SUBJECT.spiffeId(), DPA, DPR, null);
        IdModePresentation two = IdModeWorld.extend(SUBJECT, root, MTIER.spiffeId(), NOW);
        return IdModeWorld.extend(MTIER, two, TARGET.spiffeId(), NOW);
    }

    private static IdModePresentation partnerHop(IdModeCredentials partnerMtier) {
        IdModePresentation root = IdModeWorld.mint(NOW);
        IdModePresentation two = IdModeWorld.extend(SUBJECT, root, partnerMtier.spiffeId(), NOW);
        return IdModeWorld.extend(partnerMtier, two, TARGET.spiffeId(), NOW);
    }

    /** The PoC path signed by hand with the given {@code exp} per layer (root first; null = absent). */
    private static IdModePresentation pathWithExp(Instant exp0, Instant exp1, Instant exp2) {
        String t = IdModeSigning.root(
                new IdModeClaims(ASSERTING.spiffeId(), SUBJECT.spiffeId(), NOW, exp0, DPA, DPR),
                ASSERTING.privateKey(),
                TestPki.BC);
        t = IdModeSigning.wrap(
                t, IdModeClaims.hop(SUBJECT.spiffeId(), MTIER.spiffeId(), NOW, exp1), SUBJECT.privateKey(), TestPki.BC);
        t = IdModeSigning.wrap(
                t, IdModeClaims.hop(MTIER.spiffeId(), TARGET.spiffeId(), NOW, exp2), MTIER.privateKey(), TestPki.BC);
        List<List<X509Certificate>> chains = new ArrayList<>();
        chains.add(ASSERTING.chain());
        chains.add(SUBJECT.chain());
        chains.add(MTIER.chain());
        return new IdModePresentation(t, IdModeArtifacts.of(chains));
    }
}
