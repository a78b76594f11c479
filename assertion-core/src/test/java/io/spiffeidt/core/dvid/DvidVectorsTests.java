package io.spiffeidt.core.dvid;

import static io.spiffeidt.core.dvid.DvidTestSupport.ASSERTING;
import static io.spiffeidt.core.dvid.DvidTestSupport.BC;
import static io.spiffeidt.core.dvid.DvidTestSupport.SUBJECT;
import static io.spiffeidt.core.dvid.DvidTestSupport.at;
import static io.spiffeidt.core.dvid.DvidTestSupport.clockAt;
import static io.spiffeidt.core.dvid.DvidTestSupport.has;
import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.internal.Codec;
import io.spiffeidt.core.internal.Json;
import io.spiffeidt.core.zkp.RsaSignatureProof;
import io.spiffeidt.core.zkp.ZkProof;
import io.spiffeidt.core.zkp.ZkProofCodec;
import io.spiffeidt.testkit.GoldenVectors;
import io.spiffeidt.testkit.VectorManifest;
import io.spiffeidt.testkit.VectorManifest.Entry;
import io.spiffeidt.testkit.VectorManifest.Kind;
import io.spiffeidt.testkit.VectorManifest.Outcome;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.interfaces.RSAPublicKey;
import java.time.Instant;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runs every golden vector of {@code vectors/dvid/} (test resources; the vectors README, section 7) and reaches the
 * verdict its manifest entry states ({@code vectors/dvid/manifest.json}): under original-compatible the
 * original's verdict where that is sound, under both profiles the {@code strict_implementation_expectation}.
 */
class DvidVectorsTests {

    /** The expected verdicts: {@code vectors/dvid/manifest.json}. */
    private static final VectorManifest MANIFEST = VectorManifest.load(GoldenVectors.Mode.DVID);

    static Stream<Entry> entries() {
        return MANIFEST.entries().stream();
    }

    /**
     * DA-SVIDs are verified at their own {@code iat} (the manifest's clock) by the subject: under
     * original-compatible the sound ones verify, under strict (no jti, and for 001 / 002 an empty
     * kid) all are rejected. Proofs are verified against the message and key in the file.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("entries")
    void verifyWhenVectorThenManifestVerdict(Entry entry) {
        Map<String, Object> v = DvidTestSupport.readVector(entry.vector());
        assertThat((String) at(v, "vector")).isEqualTo(entry.vector());

        for (VerificationProfile profile : VerificationProfile.values()) {
            VectorManifest.Verdict verdict = entry.under(profile);
            Supplier<Outcome> verification = entry.kind() == Kind.PROOF
                    ? () -> verifyProof(v, profile)
                    : () -> verifyDasvid(v, entry, verdict, profile);
            verdict.assertReachedBy(verification, "%s under %s", entry, profile);
        }
    }

    private static Outcome verifyDasvid(
            Map<String, Object> v, Entry entry, VectorManifest.Verdict verdict, VerificationProfile profile) {
        String token = at(v, "outputs.dasvid");
        VerifiedDvid ok = verifier(profile, entry.now().getEpochSecond(), assertingJwkKey(v))
                .verify(token, entry.audience());
        assertThat(ok.result().mode()).isEqualTo(Mode.DVID);
        assertThat(ok.subject().toString()).isEqualTo(verdict.claims().subject());
        assertThat(ok.jti()).isEqualTo(Codec.b64url(sha256(token)));
        return Outcome.of(ok.result());
    }

    private static Outcome verifyProof(Map<String, Object> v, VerificationProfile profile) {
        String proofJson = has(v, "outputs.proof_json") ? at(v, "outputs.proof_json") : at(v, "inputs.proof_json");
        ZkProof proof = ZkProofCodec.parse(proofJson);
        assertThat(proof.rounds()).isEqualTo(((BigInteger) at(v, "inputs.proof_len")).intValueExact());
        byte[] msg = ((String) at(v, "inputs.msg")).getBytes(StandardCharsets.US_ASCII);
        RsaSignatureProof.verify(proof, msg, idpJwkKey(v), profile, Limits.defaults());
        return null;
    }

    @Test
    void verifyWhenVector001ThenMinterReproducesItByteForByte() {
        Map<String, Object> v = DvidTestSupport.vector001();
        KeyPair keys = DvidTestSupport.assertingKeyPair();
        long iat = ((BigInteger) at(v, "inputs.claims.iat")).longValueExact();
        DvidSettings settings = DvidSettings.defaults(SpiffeId.parse(at(v, "inputs.claims.iss")), clockAt(iat))
                .withProfile(VerificationProfile.ORIGINAL_COMPATIBLE);
        DvidMinter minter = new DvidMinter(keys.getPrivate(), keys.getPublic(), BC, settings, new SecureRandom());
        DvidMintRequest request = DvidMintRequest.of(
                        SpiffeId.parse(at(v, "inputs.claims.sub")),
                        at(v, "inputs.claims.dpa"),
                        at(v, "inputs.claims.dpr"),
                        Instant.ofEpochSecond(4102444800L))
                .withOriginalShape(at(v, "inputs.claims.kid"));

        Dvid dvid = minter.mint(request);

        assertThat(dvid.token()).isEqualTo(at(v, "outputs.dasvid"));
        assertThat(DvidTestSupport.segmentJson(dvid.token(), 0)).isEqualTo(at(v, "outputs.header_json"));
        assertThat(DvidTestSupport.segmentJson(dvid.token(), 1)).isEqualTo(at(v, "outputs.payload_json"));
        assertThat(dvid.jti()).isNull();
        assertThat(dvid.expiresAt().getEpochSecond()).isEqualTo(1700000120L);
    }

    @Test
    void verifyWhenVector001ThenSunRsaSignReproducesItToo() {
        Map<String, Object> v = DvidTestSupport.vector001();
        KeyPair keys = DvidTestSupport.assertingKeyPair();
        DvidSettings settings = DvidSettings.defaults(ASSERTING, clockAt(1700000000L));
        DvidMinter minter = new DvidMinter(
                keys.getPrivate(),
                keys.getPublic(),
                java.security.Security.getProvider("SunRsaSign"),
                settings,
                new SecureRandom());
        Dvid dvid = minter.mint(DvidMintRequest.of(
                        SUBJECT, DvidTestSupport.DPA, DvidTestSupport.DPR, Instant.ofEpochSecond(4102444800L))
                .withOriginalShape(""));
        assertThat(dvid.token()).isEqualTo(at(v, "outputs.dasvid"));
    }

    @ParameterizedTest
    @EnumSource(VerificationProfile.class)
    void verifyWhenVector001AtNowThenSignatureValidButExpired(VerificationProfile profile) {
        Map<String, Object> v = DvidTestSupport.vector001();
        String token = at(v, "outputs.dasvid");
        PublicKey key = assertingJwkKey(v);
        // the original reports DasvidSigValidation true, DasvidExpValidation false
        assertThat((Boolean) at(v, "verification.extra.DasvidSigValidation")).isTrue();
        assertThat((Boolean) at(v, "verification.extra.DasvidExpValidation")).isFalse();
        ErrorCode expected = profile == VerificationProfile.STRICT ? ErrorCode.MALFORMED : ErrorCode.EXPIRED;
        assertThatAssertion(() -> verifier(profile, DvidTestSupport.NOW.getEpochSecond(), key)
                        .verify(token, SUBJECT))
                .hasCode(expected);
    }

    @Test
    void verifyWhenVector001JustPastSkewThenExpiredAndWithinSkewThenValid() {
        String token = at(DvidTestSupport.vector001(), "outputs.dasvid");
        PublicKey key = assertingJwkKey(DvidTestSupport.vector001());
        assertThat(verifier(VerificationProfile.ORIGINAL_COMPATIBLE, 1700000150L, key)
                        .verify(token, SUBJECT)
                        .dpr())
                .isEqualTo(DvidTestSupport.DPR);
        assertThatAssertion(() -> verifier(VerificationProfile.ORIGINAL_COMPATIBLE, 1700000151L, key)
                        .verify(token, SUBJECT))
                .hasCode(ErrorCode.EXPIRED);
    }

    @Test
    void verifyWhenVector003ThenKidIsPassedToTheResolver() {
        Map<String, Object> v = DvidTestSupport.readVector("003_dasvid_with_kid");
        String token = at(v, "outputs.dasvid");
        PublicKey key = assertingJwkKey(v);
        DvidSettings settings = settings(VerificationProfile.ORIGINAL_COMPATIBLE, 1700000000L);
        DvidVerifier onlyTestKid = new DvidVerifier(settings, BC, DvidKeyResolver.of(Map.of("test-kid", key)));
        DvidVerifier onlyEmptyKid = new DvidVerifier(settings, BC, DvidKeyResolver.of(Map.of("", key)));
        assertThat(onlyTestKid.verify(token, SUBJECT).dpr()).isEqualTo(DvidTestSupport.DPR);
        assertThatAssertion(() -> onlyEmptyKid.verify(token, SUBJECT)).hasCode(ErrorCode.UNTRUSTED_KEY);
    }

    // ---- ZKP vectors (vector 010's derived values: RsaSignatureProofTests) ------------------------

    @Test
    void verifyWhenVector011ThenReserializedByteForByte() {
        Map<String, Object> v = DvidTestSupport.readVector("011_zkp_compact_json");
        String json = at(v, "inputs.proof_json");
        assertThat(ZkProofCodec.toJson(ZkProofCodec.parse(json))).isEqualTo(json);
    }

    @Test
    void verifyWhenVector012ThenAllZeroRejectedUnderBothProfilesThoughTheOriginalAcceptedIt() {
        Map<String, Object> v = DvidTestSupport.readVector("012_zkp_all_zero_degenerate");
        assertThat((String) at(v, "verification.result")).isEqualTo("valid");
        ZkProof proof = ZkProofCodec.parse(at(v, "inputs.proof_json"));
        assertThat(proof.p()).containsOnly(BigInteger.ZERO);
        assertThat(proof.c()).containsOnly(BigInteger.ZERO);
        // any message: the original accepted it for all of them
        byte[] other = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJtYWxsb3J5In0".getBytes(StandardCharsets.US_ASCII);
        for (VerificationProfile profile : VerificationProfile.values()) {
            assertThatAssertion(() -> RsaSignatureProof.verify(proof, other, idpJwkKey(v), profile, Limits.defaults()))
                    .hasCode(ErrorCode.BAD_PROOF);
        }
    }

    // ---- helpers -------------------------------------------------------------------------------

    private static DvidSettings settings(VerificationProfile profile, long now) {
        return DvidSettings.defaults(ASSERTING, clockAt(now)).withProfile(profile);
    }

    private static DvidVerifier verifier(VerificationProfile profile, long now, PublicKey key) {
        return new DvidVerifier(settings(profile, now), BC, kid -> key);
    }

    private static PublicKey assertingJwkKey(Map<String, Object> v) {
        Map<String, Object> jwk = has(v, "inputs.asserting_jwk")
                ? at(v, "inputs.asserting_jwk")
                : at(v, "inputs.keys.asserting_wl_dasvid_key.jwk");
        return DvidKeys.parseJwk(Json.write(jwk), BC);
    }

    private static RSAPublicKey idpJwkKey(Map<String, Object> v) {
        Map<String, Object> jwk = has(v, "inputs.idp_jwk") ? at(v, "inputs.idp_jwk") : at(v, "inputs.idp_key.jwk");
        return (RSAPublicKey) DvidKeys.parseJwk(Json.write(jwk), BC);
    }

    private static byte[] sha256(String token) {
        try {
            return java.security.MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.US_ASCII));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
