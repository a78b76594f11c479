package io.spiffeidt.core.dvid;

import static io.spiffeidt.core.dvid.DvidTestSupport.ASSERTING;
import static io.spiffeidt.core.dvid.DvidTestSupport.BC;
import static io.spiffeidt.core.dvid.DvidTestSupport.DPA;
import static io.spiffeidt.core.dvid.DvidTestSupport.DPR;
import static io.spiffeidt.core.dvid.DvidTestSupport.IDP_KID;
import static io.spiffeidt.core.dvid.DvidTestSupport.MIDDLE;
import static io.spiffeidt.core.dvid.DvidTestSupport.NOW;
import static io.spiffeidt.core.dvid.DvidTestSupport.SUBJECT;
import static io.spiffeidt.core.dvid.DvidTestSupport.TARGET;
import static io.spiffeidt.core.dvid.DvidTestSupport.clockAt;
import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.VerifiedResult;
import io.spiffeidt.core.VerifierContractTests;
import io.spiffeidt.core.internal.Codec;
import io.spiffeidt.core.internal.Json;
import io.spiffeidt.core.zkp.IdpKeyResolver;
import io.spiffeidt.core.zkp.ZkProof;
import io.spiffeidt.core.zkp.ZkProofCodec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.MessageDigest;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Security;
import java.time.Instant;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link DvidVerifier} against the shared contract suite and the DVID-specific checks. */
class DvidVerifierTests extends VerifierContractTests {

    private static final KeyPair ASSERTING_KEYS = DvidTestSupport.assertingKeyPair();
    private static final KeyPair OTHER_KEYS = DvidTestSupport.idpKeyPair();
    private static final String KID = DvidKeys.thumbprint(ASSERTING_KEYS.getPublic());
    private static final Instant OAUTH_EXP = Instant.ofEpochSecond(4102444800L);

    private static DvidSettings settings(Instant now) {
        return DvidSettings.defaults(ASSERTING, clockAt(now));
    }

    private static DvidMinter minter(Instant now, KeyPair keys) {
        return new DvidMinter(keys.getPrivate(), keys.getPublic(), BC, settings(now), new SecureRandom());
    }

    private static DvidVerifier verifier(DvidSettings settings) {
        return new DvidVerifier(settings, BC, DvidKeyResolver.of(ASSERTING_KEYS.getPublic()));
    }

    private static DvidMintRequest request() {
        return DvidMintRequest.of(SUBJECT, DPA, DPR, OAUTH_EXP).withAudience(List.of(MIDDLE, TARGET));
    }

    private static String mint(Instant at, KeyPair keys, DvidMintRequest request) {
        return minter(at, keys).mint(request).token();
    }

    @Override
    protected String validDocument() {
        return mint(NOW, ASSERTING_KEYS, request());
    }

    @Override
    protected VerifiedResult verify(String document) {
        return verifier(settings(NOW)).verify(document, MIDDLE).result();
    }

    @Override
    protected String document(ContractCase contractCase) {
        String valid = validDocument();
        List<String> seg = DvidTestSupport.segments(valid);
        return switch (contractCase) {
            case TAMPERED_PAYLOAD ->
                seg.get(0) + "."
                        + Codec.b64url(DvidTestSupport.segmentJson(valid, 1).replace(DPR, "mallory@example.test")) + "."
                        + seg.get(2);
            case TAMPERED_SIGNATURE -> {
                byte[] sig = Codec.fromB64url(seg.get(2));
                sig[sig.length / 2] ^= 0x01;
                yield seg.get(0) + "." + seg.get(1) + "." + Codec.b64url(sig);
            }
            case REORDERED -> seg.get(1) + "." + seg.get(0) + "." + seg.get(2);
            case DROPPED -> seg.get(0) + "." + seg.get(1);
            // another key, under the asserting key's kid
            case WRONG_KEY ->
                mint(
                        NOW,
                        OTHER_KEYS,
                        new DvidMintRequest(SUBJECT, DPA, DPR, OAUTH_EXP, List.of(MIDDLE), null, false, KID));
            // another key under its own kid: not in the asserting workload's key set
            case UNTRUSTED_CHAIN -> mint(NOW, OTHER_KEYS, request());
            case EXPIRED -> mint(NOW.minusSeconds(1000), ASSERTING_KEYS, request());
            case NOT_YET_VALID -> mint(NOW.plusSeconds(1000), ASSERTING_KEYS, request());
        };
    }

    @Override
    protected Set<ErrorCode> expectedCodes(ContractCase contractCase) {
        return switch (contractCase) {
            case TAMPERED_PAYLOAD, TAMPERED_SIGNATURE, WRONG_KEY -> EnumSet.of(ErrorCode.BAD_SIGNATURE);
            case REORDERED -> EnumSet.of(ErrorCode.MALFORMED);
            case DROPPED -> EnumSet.of(ErrorCode.MALFORMED);
            case UNTRUSTED_CHAIN -> EnumSet.of(ErrorCode.UNTRUSTED_KEY);
            case EXPIRED -> EnumSet.of(ErrorCode.EXPIRED);
            case NOT_YET_VALID -> EnumSet.of(ErrorCode.NOT_YET_VALID);
        };
    }

    // ---- DVID-specific checks ------------------------------------------------------------------

    private static Map<String, Object> header() {
        Map<String, Object> h = new TreeMap<>();
        h.put("alg", "RS256");
        h.put("kid", KID);
        h.put("typ", "JWT");
        return h;
    }

    private static Map<String, Object> claims() {
        Map<String, Object> c = new TreeMap<>();
        c.put("aat", NOW.getEpochSecond());
        c.put("aud", MIDDLE.toString());
        c.put("dpa", DPA);
        c.put("dpr", DPR);
        c.put("exp", NOW.getEpochSecond() + 120);
        c.put("iat", NOW.getEpochSecond());
        c.put("iss", ASSERTING.toString());
        c.put("jti", "hand-made-jti");
        c.put("sub", SUBJECT.toString());
        return c;
    }

    private static String handMade(Map<String, Object> header, Map<String, Object> claims) {
        return DvidTestSupport.signRs256(Json.write(header), Json.write(claims), ASSERTING_KEYS.getPrivate());
    }

    private static void assertCode(DvidVerifier verifier, String token, SpiffeId who, ErrorCode code) {
        assertThatAssertion(() -> verifier.verify(token, who)).hasCode(code);
    }

    @Test
    void verifyWhenValidThenEveryClaimIsReported() {
        Dvid minted = minter(NOW, ASSERTING_KEYS).mint(request());

        VerifiedDvid verified = verifier(settings(NOW)).verify(minted.token(), TARGET);

        assertThat(verified.result().mode()).isEqualTo(Mode.DVID);
        assertThat(verified.result().depth()).isEqualTo(1);
        assertThat(verified.result().encodedSize()).isEqualTo(minted.token().length());
        assertThat(verified.result().outermost().issuer()).isEqualTo(ASSERTING.toString());
        assertThat(verified.result().outermost().audience()).isEqualTo(MIDDLE.toString());
        assertThat(verified.result().outermost().issuedAt()).isEqualTo(NOW);
        assertThat(verified.expiresAt()).isEqualTo(NOW.plusSeconds(120));
        assertThat(verified.result().delegation().dpa()).isEqualTo(DPA);
        assertThat(verified.result().delegation().dpr()).isEqualTo(DPR);
        assertThat(verified.result().delegation().assertedBy()).isEqualTo(ASSERTING.toString());
        assertThat(verified.subject()).isEqualTo(SUBJECT);
        assertThat(verified.jti()).isEqualTo(minted.jti());
        assertThat(verified.embeddedZkp()).isEmpty();
    }

    @Test
    void verifyWhenSunRsaSignProviderThenSameVerdicts() {
        DvidVerifier sun = new DvidVerifier(
                settings(NOW), Security.getProvider("SunRsaSign"), DvidKeyResolver.of(ASSERTING_KEYS.getPublic()));
        assertThat(sun.verify(validDocument(), MIDDLE).dpr()).isEqualTo(DPR);
        assertCode(sun, document(ContractCase.TAMPERED_SIGNATURE), MIDDLE, ErrorCode.BAD_SIGNATURE);
        assertCode(sun, document(ContractCase.WRONG_KEY), MIDDLE, ErrorCode.BAD_SIGNATURE);
    }

    @Test
    void verifyWhenIssuerIsNotThePinnedAssertingWorkloadThenDelegationInvalid() {
        SpiffeId rogue = SpiffeId.parse("spiffe://example.org/rogue");
        DvidMinter rogueMinter = new DvidMinter(
                ASSERTING_KEYS.getPrivate(),
                ASSERTING_KEYS.getPublic(),
                BC,
                DvidSettings.defaults(rogue, clockAt(NOW)),
                new SecureRandom());
        String token = rogueMinter.mint(request()).token();
        assertCode(verifier(settings(NOW)), token, MIDDLE, ErrorCode.DELEGATION_INVALID);
    }

    @ParameterizedTest
    @ValueSource(strings = {"spiffe://other.org/asserting_wl", "https://asserting_wl", "spiffe://example.org"})
    void verifyWhenIssuerLooksSimilarThenDelegationInvalid(String iss) {
        Map<String, Object> c = claims();
        c.put("iss", iss);
        assertCode(verifier(settings(NOW)), handMade(header(), c), MIDDLE, ErrorCode.DELEGATION_INVALID);
    }

    @Test
    void verifyWhenSubjectOutsideTheTrustDomainThenDelegationInvalid() {
        Map<String, Object> c = claims();
        c.put("sub", "spiffe://other.org/subject_wl");
        assertCode(verifier(settings(NOW)), handMade(header(), c), MIDDLE, ErrorCode.DELEGATION_INVALID);
    }

    @Test
    void verifyWhenSubjectIsNotASpiffeIdThenMalformed() {
        Map<String, Object> c = claims();
        c.put("sub", "subject_wl");
        assertCode(verifier(settings(NOW)), handMade(header(), c), MIDDLE, ErrorCode.MALFORMED);
    }

    @Test
    void verifyWhenAudienceDoesNotNameTheVerifierThenWrongAudience() {
        String token = validDocument();
        assertCode(
                verifier(settings(NOW)), token, SpiffeId.parse("spiffe://example.org/other"), ErrorCode.WRONG_AUDIENCE);
        assertCode(verifier(settings(NOW)), token, null, ErrorCode.WRONG_AUDIENCE);
    }

    @Test
    void verifyWhenNoAudienceThenAnyVerifierAccepts() {
        String token = mint(NOW, ASSERTING_KEYS, DvidMintRequest.of(SUBJECT, DPA, DPR, OAUTH_EXP));
        assertThat(verifier(settings(NOW))
                        .verify(token, TARGET)
                        .result()
                        .outermost()
                        .audience())
                .isNull();
        assertThat(verifier(settings(NOW)).verify(token, null).dpr()).isEqualTo(DPR);
    }

    @Test
    void verifyWhenAudienceIsNotAStringOrArrayThenMalformed() {
        Map<String, Object> c = claims();
        c.put("aud", 42);
        assertCode(verifier(settings(NOW)), handMade(header(), c), MIDDLE, ErrorCode.MALFORMED);
        c.put("aud", List.of(MIDDLE.toString(), 7));
        assertCode(verifier(settings(NOW)), handMade(header(), c), MIDDLE, ErrorCode.MALFORMED);
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "HS256", "RS384", "PS256", "ES256", "rs256", ""})
    void verifyWhenAlgIsNotTheConfiguredOneThenUnsupported(String alg) {
        Map<String, Object> h = header();
        h.put("alg", alg);
        assertCode(verifier(settings(NOW)), handMade(h, claims()), MIDDLE, ErrorCode.UNSUPPORTED);
    }

    @Test
    void verifyWhenAlgNoneWithoutSignatureThenRejected() {
        Map<String, Object> h = new TreeMap<>(Map.of("alg", "none", "typ", "JWT"));
        String unsigned = Codec.b64url(Json.write(h)) + "." + Codec.b64url(Json.write(claims())) + ".";
        assertCode(verifier(settings(NOW)), unsigned, MIDDLE, ErrorCode.MALFORMED);
        assertCode(verifier(settings(NOW)), unsigned + "AAAA", MIDDLE, ErrorCode.UNSUPPORTED);
    }

    @Test
    void verifyWhenHs256KeyedWithThePublicKeyThenUnsupported() throws GeneralSecurityException {
        Map<String, Object> h = header();
        h.put("alg", "HS256");
        String input = Codec.b64url(Json.write(h)) + "." + Codec.b64url(Json.write(claims()));
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(ASSERTING_KEYS.getPublic().getEncoded(), "HmacSHA256"));
        String token = input + "." + Codec.b64url(mac.doFinal(input.getBytes(StandardCharsets.US_ASCII)));
        assertCode(verifier(settings(NOW)), token, MIDDLE, ErrorCode.UNSUPPORTED);
    }

    @Test
    void verifyWhenResolvedKeyDoesNotMatchTheAlgThenUnsupported() throws GeneralSecurityException {
        java.security.KeyPairGenerator g = java.security.KeyPairGenerator.getInstance("EC", BC);
        g.initialize(new java.security.spec.ECGenParameterSpec("secp256r1"));
        PublicKey ec = g.generateKeyPair().getPublic();
        DvidVerifier confused = new DvidVerifier(settings(NOW), BC, kid -> ec);
        assertCode(confused, validDocument(), MIDDLE, ErrorCode.UNSUPPORTED);
    }

    @Test
    void verifyWhenCritHeaderThenUnsupported() {
        Map<String, Object> h = header();
        h.put("crit", List.of("exp"));
        assertCode(verifier(settings(NOW)), handMade(h, claims()), MIDDLE, ErrorCode.UNSUPPORTED);
    }

    @Test
    void verifyWhenTypIsNotJwtThenMalformed() {
        Map<String, Object> h = header();
        h.put("typ", "at+jwt");
        assertCode(verifier(settings(NOW)), handMade(h, claims()), MIDDLE, ErrorCode.MALFORMED);
    }

    @Test
    void verifyWhenTypAbsentThenAccepted() {
        Map<String, Object> h = header();
        h.remove("typ");
        assertThat(verifier(settings(NOW)).verify(handMade(h, claims()), MIDDLE).dpr())
                .isEqualTo(DPR);
    }

    @Test
    void verifyWhenKidEmptyOrAbsentThenStrictRejectsAndOriginalCompatibleAccepts() {
        Map<String, Object> empty = header();
        empty.put("kid", "");
        Map<String, Object> absent = header();
        absent.remove("kid");
        DvidVerifier compat = new DvidVerifier(
                settings(NOW).withProfile(VerificationProfile.ORIGINAL_COMPATIBLE),
                BC,
                DvidKeyResolver.of(Map.of("", ASSERTING_KEYS.getPublic())));
        for (Map<String, Object> h : List.of(empty, absent)) {
            String token = handMade(h, claims());
            assertCode(verifier(settings(NOW)), token, MIDDLE, ErrorCode.MALFORMED);
            assertThat(compat.verify(token, MIDDLE).dpr()).isEqualTo(DPR);
        }
    }

    @Test
    void verifyWhenJtiAbsentThenStrictRejectsAndOriginalCompatibleKeysOnTheTokenHash() throws Exception {
        Map<String, Object> c = claims();
        c.remove("jti");
        String token = handMade(header(), c);
        assertCode(verifier(settings(NOW)), token, MIDDLE, ErrorCode.MALFORMED);
        VerifiedDvid compat = verifier(settings(NOW).withProfile(VerificationProfile.ORIGINAL_COMPATIBLE))
                .verify(token, MIDDLE);
        byte[] hash = MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.US_ASCII));
        assertThat(compat.jti()).isEqualTo(Codec.b64url(hash));
    }

    @Test
    void verifyWhenExpAbsentThenStrictRejectsAndOriginalCompatibleUsesMaxAge() {
        Map<String, Object> c = claims();
        c.remove("exp");
        String token = handMade(header(), c);
        assertCode(verifier(settings(NOW)), token, MIDDLE, ErrorCode.MALFORMED);
        DvidSettings compat = settings(NOW).withProfile(VerificationProfile.ORIGINAL_COMPATIBLE);
        assertThat(verifier(compat).verify(token, MIDDLE).expiresAt()).isEqualTo(NOW.plusSeconds(300));
        assertCode(verifier(compat.withClock(clockAt(NOW.plusSeconds(331)))), token, MIDDLE, ErrorCode.EXPIRED);
    }

    @ParameterizedTest
    @ValueSource(strings = {"iss", "sub", "dpa", "dpr", "iat"})
    void verifyWhenRequiredClaimMissingThenMalformed(String claim) {
        Map<String, Object> c = claims();
        c.remove(claim);
        for (VerificationProfile profile : VerificationProfile.values()) {
            assertCode(
                    verifier(settings(NOW).withProfile(profile)), handMade(header(), c), MIDDLE, ErrorCode.MALFORMED);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"iat", "exp", "aat", "nbf"})
    void verifyWhenTimeClaimIsNotANumberThenMalformed(String claim) {
        Map<String, Object> c = claims();
        c.put(claim, "1750000000");
        assertCode(verifier(settings(NOW)), handMade(header(), c), MIDDLE, ErrorCode.MALFORMED);
    }

    @Test
    void verifyWhenNotBeforeInTheFutureThenNotYetValid() {
        Map<String, Object> c = claims();
        c.put("nbf", NOW.getEpochSecond() + 60);
        assertCode(verifier(settings(NOW)), handMade(header(), c), MIDDLE, ErrorCode.NOT_YET_VALID);
    }

    @Test
    void verifyWhenExpiredWithinSkewThenAcceptedAndJustPastThenExpired() {
        String token = validDocument();
        assertThat(verifier(settings(NOW.plusSeconds(150)))
                        .verify(token, MIDDLE)
                        .dpr())
                .isEqualTo(DPR);
        assertCode(verifier(settings(NOW.plusSeconds(151))), token, MIDDLE, ErrorCode.EXPIRED);
    }

    @Test
    void verifyWhenDuplicateClaimThenMalformed() {
        String payload = Json.write(claims()).replace("\"dpr\":", "\"dpr\":\"mallory\",\"dpr\":");
        String token = DvidTestSupport.signRs256(Json.write(header()), payload, ASSERTING_KEYS.getPrivate());
        assertCode(verifier(settings(NOW)), token, MIDDLE, ErrorCode.MALFORMED);
    }

    @Test
    void verifyWhenPayloadIsNotAnObjectThenMalformed() {
        String token = DvidTestSupport.signRs256(Json.write(header()), "[1,2]", ASSERTING_KEYS.getPrivate());
        assertCode(verifier(settings(NOW)), token, MIDDLE, ErrorCode.MALFORMED);
    }

    @Test
    void verifyWhenSignatureShortenedByItsLeadingByteThenBadSignature() {
        List<String> seg = DvidTestSupport.segments(validDocument());
        byte[] sig = Codec.fromB64url(seg.get(2));
        byte[] shorter = java.util.Arrays.copyOfRange(sig, 1, sig.length);
        String token = seg.get(0) + "." + seg.get(1) + "." + Codec.b64url(shorter);
        assertCode(verifier(settings(NOW)), token, MIDDLE, ErrorCode.BAD_SIGNATURE);
    }

    @Test
    void verifyWhenSegmentIsNotStrictBase64urlThenMalformed() {
        List<String> seg = DvidTestSupport.segments(validDocument());
        List<String> variants = List.of(
                seg.get(0) + "." + seg.get(1) + "." + seg.get(2) + "==",
                seg.get(0) + "+." + seg.get(1) + "." + seg.get(2),
                seg.get(0) + "." + seg.get(1) + "/." + seg.get(2),
                seg.get(0) + " ." + seg.get(1) + "." + seg.get(2),
                seg.get(0) + "." + seg.get(1) + "." + seg.get(2) + ".",
                "." + seg.get(1) + "." + seg.get(2),
                seg.get(0) + ".." + seg.get(2));
        for (String variant : variants) {
            assertCode(verifier(settings(NOW)), variant, MIDDLE, ErrorCode.MALFORMED);
        }
    }

    @Test
    void verifyWhenResolverFailsThenTypedErrors() {
        DvidVerifier down = new DvidVerifier(settings(NOW), BC, kid -> {
            throw new IllegalStateException("JWKS endpoint unreachable");
        });
        DvidVerifier nothing = new DvidVerifier(settings(NOW), BC, kid -> null);
        assertCode(down, validDocument(), MIDDLE, ErrorCode.UPSTREAM_UNAVAILABLE);
        assertCode(nothing, validDocument(), MIDDLE, ErrorCode.UNTRUSTED_KEY);
    }

    @Test
    void verifyWhenClaimOverTheLengthLimitThenLimitExceeded() {
        Map<String, Object> c = claims();
        c.put("dpr", "a".repeat(3000));
        assertCode(verifier(settings(NOW)), handMade(header(), c), MIDDLE, ErrorCode.LIMIT_EXCEEDED);
    }

    // ---- embedded proof (step 4) ---------------------------------------------------------------

    private static final IdpKeyResolver IDP_KEYS =
            IdpKeyResolver.of(DPA, Map.of(IDP_KID, DvidTestSupport.idpPublicKey()));

    private static EmbeddedZkp embedded() {
        return EmbeddedZkp.prove(DvidTestSupport.oauthToken(), DvidTestSupport.idpPublicKey(), 80, new SecureRandom());
    }

    @Test
    void verifyWhenEmbeddedProofValidThenAcceptedAndReported() {
        EmbeddedZkp zkp = embedded();
        String token = mint(NOW, ASSERTING_KEYS, request().withZkp(zkp));
        DvidVerifier verifier =
                new DvidVerifier(settings(NOW), BC, DvidKeyResolver.of(ASSERTING_KEYS.getPublic()), IDP_KEYS);

        VerifiedDvid verified = verifier.verify(token, MIDDLE);

        assertThat(verified.embeddedZkp()).contains(zkp);
        assertThat(zkp.msg())
                .doesNotContain(
                        DvidTestSupport.segments(DvidTestSupport.oauthToken()).get(2));
        assertThat(token.length()).isBetween(80_000, 256 * 1024);
    }

    @Test
    void verifyWhenEmbeddedProofButNoIdpKeysThenUnsupported() {
        String token = mint(NOW, ASSERTING_KEYS, request().withZkp(embedded()));
        assertCode(verifier(settings(NOW)), token, MIDDLE, ErrorCode.UNSUPPORTED);
    }

    @Test
    void verifyWhenEmbeddedProofIsForAnotherUserThenDelegationInvalid() {
        DvidMintRequest other = DvidMintRequest.of(SUBJECT, DPA, "mallory@example.test", OAUTH_EXP)
                .withZkp(embedded());
        String token = mint(NOW, ASSERTING_KEYS, other);
        DvidVerifier verifier =
                new DvidVerifier(settings(NOW), BC, DvidKeyResolver.of(ASSERTING_KEYS.getPublic()), IDP_KEYS);
        assertCode(verifier, token, MIDDLE, ErrorCode.DELEGATION_INVALID);
    }

    @Test
    void verifyWhenEmbeddedProofTamperedThenBadProof() {
        EmbeddedZkp zkp = embedded();
        ZkProof proof = ZkProofCodec.parse(zkp.proof());
        List<java.math.BigInteger> p = new java.util.ArrayList<>(proof.p());
        p.set(3, p.get(3).add(java.math.BigInteger.ONE));
        EmbeddedZkp tampered = new EmbeddedZkp(zkp.msg(), ZkProofCodec.toJson(new ZkProof(p, proof.c())));
        String token = mint(NOW, ASSERTING_KEYS, request().withZkp(tampered));
        DvidVerifier verifier =
                new DvidVerifier(settings(NOW), BC, DvidKeyResolver.of(ASSERTING_KEYS.getPublic()), IDP_KEYS);
        assertCode(verifier, token, MIDDLE, ErrorCode.BAD_PROOF);
    }

    @Test
    void verifyWhenEmbeddedProofClaimHasWrongShapeThenMalformed() {
        Map<String, Object> c = claims();
        c.put("zkp", new LinkedHashMap<>(Map.of("msg", "a.b")));
        DvidVerifier verifier =
                new DvidVerifier(settings(NOW), BC, DvidKeyResolver.of(ASSERTING_KEYS.getPublic()), IDP_KEYS);
        assertCode(verifier, handMade(header(), c), MIDDLE, ErrorCode.MALFORMED);
    }

    @ParameterizedTest
    @EnumSource(VerificationProfile.class)
    void verifyWhenEmbeddedProofFromAnUnknownIdpThenUnknownIssuer(VerificationProfile profile) {
        DvidVerifier verifier = new DvidVerifier(
                settings(NOW).withProfile(profile),
                BC,
                DvidKeyResolver.of(ASSERTING_KEYS.getPublic()),
                IdpKeyResolver.of("https://other-idp.example", Map.of(IDP_KID, DvidTestSupport.idpPublicKey())));
        String token = mint(NOW, ASSERTING_KEYS, request().withZkp(embedded()));
        assertCode(verifier, token, MIDDLE, ErrorCode.UNKNOWN_ISSUER);
    }
}
