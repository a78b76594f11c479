package io.spiffeidt.core.idmode;

import static io.spiffeidt.core.idmode.IdModeVectors.at;
import static io.spiffeidt.core.idmode.IdModeVectors.list;
import static io.spiffeidt.core.idmode.IdModeVectors.map;
import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.Presenter;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.TrustBundle;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.internal.Codec;
import io.spiffeidt.testkit.GoldenVectors;
import io.spiffeidt.testkit.TestPki;
import io.spiffeidt.testkit.VectorManifest;
import io.spiffeidt.testkit.VectorManifest.Entry;
import io.spiffeidt.testkit.VectorManifest.Kind;
import io.spiffeidt.testkit.VectorManifest.Outcome;
import java.security.Provider;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The golden vectors of {@code vectors/id-mode/} (test resources; vectors README, section 4), made and
 * judged by the original Go code. Each file must reach the verdict its manifest entry states
 * ({@code vectors/id-mode/manifest.json}) under each profile.
 *
 * <p>The vectors' tokens carry {@code iat} 2023-11-14 and no {@code exp}, while their
 * certificates are valid from 2024-01-01: no instant satisfies both with the default
 * original-compatible max age (300 s). The verdict tests therefore run at 2024-01-02 with {@code
 * originalMaxAge} widened to 60 days (a configurable value, docs/formats/common.md "Verification
 * profiles"); {@link #verifyWhenDefaultMaxAgeThenVectorExpired} and {@link
 * #verifyWhenClockAtIatThenCertificatesNotYetValid} show both sides of the conflict.
 */
class IdModeVectorsTests {

    private static final SpiffeId ASSERTING = SpiffeId.parse("spiffe://example.org/asserting_wl");
    private static final SpiffeId SUBJECT = SpiffeId.parse("spiffe://example.org/subject_wl");
    private static final SpiffeId MIDDLETIER = SpiffeId.parse("spiffe://example.org/middletier");
    private static final SpiffeId TARGET = SpiffeId.parse("spiffe://example.org/target_wl");
    private static final Provider PROVIDER = TestPki.BC;

    /** The expected verdicts: {@code vectors/id-mode/manifest.json}. */
    private static final VectorManifest MANIFEST = VectorManifest.load(GoldenVectors.Mode.ID_MODE);

    private static final Instant NOW = MANIFEST.now();

    static Stream<Entry> vectors() {
        return MANIFEST.entries(Kind.TOKEN);
    }

    /**
     * Under strict every vector is rejected: the original tokens carry no {@code exp} (MALFORMED at
     * parsing). Under original-compatible the well-formed ones verify for their audience, presented
     * by the outermost signer, and every tampered one fails with the manifest's code.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void verifyWhenVectorThenManifestVerdict(Entry entry) {
        Map<String, Object> outputs = at(IdModeVectors.load(entry.vector()), "outputs");
        String token = (String) outputs.get("token");
        Presenter peer =
                Presenter.of(IdModeVectors.certificate(IdModeVectors.keyFile(leafCertificate(entry.presenter()))));

        for (VerificationProfile profile : VerificationProfile.values()) {
            IdModeVerifier verifier = verifier(profile, Duration.ofDays(60), entry.now());
            entry.under(profile)
                    .assertReachedBy(
                            () -> {
                                IdModeArtifacts artifacts =
                                        IdModeArtifacts.parse((String) outputs.get("id_artifacts"), Limits.defaults());
                                VerifiedIdMode verified = verifier.verify(token, artifacts, entry.audience(), peer);
                                assertThat(verified.path().get(0)).isEqualTo(ASSERTING);
                                assertThat(verified.path().get(verified.depth() - 1))
                                        .isEqualTo(peer.id());
                                assertThat(verified.result().outermost().expiresAt())
                                        .isEqualTo(verified.result()
                                                .outermost()
                                                .issuedAt()
                                                .plus(Duration.ofDays(60)));
                                return Outcome.of(verified.result());
                            },
                            "%s under %s",
                            entry,
                            profile);
        }
    }

    private static String leafCertificate(SpiffeId id) {
        return "leaf_" + id.path().substring(1) + ".cert.pem";
    }

    @Test
    void verifyWhenDefaultMaxAgeThenVectorExpired() {
        IdModeVerifier verifier = verifier(VerificationProfile.ORIGINAL_COMPATIBLE, Duration.ofSeconds(300), NOW);
        assertThatAssertion(() -> verifyVector(verifier, "003_layers3", TARGET)).hasCode(ErrorCode.EXPIRED);
    }

    @Test
    void verifyWhenClockAtIatThenCertificatesNotYetValid() {
        IdModeVerifier verifier = verifier(
                VerificationProfile.ORIGINAL_COMPATIBLE, Duration.ofSeconds(300), Instant.ofEpochSecond(1700000002L));
        assertThatAssertion(() -> verifyVector(verifier, "003_layers3", TARGET)).hasCode(ErrorCode.UNTRUSTED_KEY);
    }

    @Test
    void verifyWhenVectorWithoutPresenterBindingThenPrefixStillFailsOnAudience() {
        IdModeVerifier verifier = verifier(VerificationProfile.ORIGINAL_COMPATIBLE, Duration.ofDays(60), NOW);
        Map<String, Object> outputs = at(IdModeVectors.load("017_drop_outermost_layer_prefix"), "outputs");
        IdModeArtifacts artifacts = IdModeArtifacts.parse((String) outputs.get("id_artifacts"), Limits.defaults());
        assertThatAssertion(() -> verifier.verifyWithoutPresenter((String) outputs.get("token"), artifacts, TARGET))
                .hasCode(ErrorCode.WRONG_AUDIENCE);
        // the same prefix is a sound token for its real audience
        assertThat(verifier.verifyWithoutPresenter((String) outputs.get("token"), artifacts, MIDDLETIER)
                        .depth())
                .isEqualTo(2);
    }

    @ParameterizedTest
    @ValueSource(strings = {"001_layers1", "002_layers2", "003_layers3"})
    void verifyWhenPositiveVectorParsedThenSegmentArithmeticMatchesRecordedLayers(String name) {
        Map<String, Object> vector = IdModeVectors.load(name);
        List<Object> layers = list(at(vector, "inputs").get("layers"));
        String text = (String) at(vector, "outputs").get("token");
        IdModeToken token = IdModeToken.parse(text, Limits.defaults());

        assertThat(token.depth()).isEqualTo(layers.size());
        String inner = null;
        for (int k = 0; k < layers.size(); k++) {
            Map<String, Object> layer = map(layers.get(k));
            assertThat(token.payloadSegment(k)).isEqualTo(layer.get("payload_b64url"));
            assertThat(token.signatureSegment(k)).isEqualTo(layer.get("signature_b64url"));
            assertThat(token.signingInput(k)).isEqualTo(layer.get("signing_input"));
            assertThat(Codec.hex(token.signature(k))).isEqualTo(layer.get("signature_der_hex"));
            inner = IdModeSigning.assemble(
                    (String) layer.get("payload_b64url"), inner, (String) layer.get("signature_b64url"));
            assertThat(token.prefix(k + 1)).isEqualTo(inner);
        }
        assertThat(inner).isEqualTo(text);
    }

    @ParameterizedTest
    @ValueSource(strings = {"003_layers3", "021_broken_iss_aud_link_signed", "022_rogue_ca_root_certificate"})
    void verifyWhenClaimsRebuiltThenPayloadJsonByteIdentical(String name) {
        List<Object> layers = list(at(IdModeVectors.load(name), "inputs").get("layers"));
        for (int k = 0; k < layers.size(); k++) {
            Map<String, Object> layer = map(layers.get(k));
            IdModeClaims claims = IdModeClaims.fromJson(map(layer.get("claims")), Limits.defaults(), k);
            assertThat(claims.toJson()).isEqualTo(layer.get("payload_json"));
            assertThat(Codec.b64url(claims.toJson())).isEqualTo(layer.get("payload_b64url"));
        }
    }

    @Test
    void verifyWhenJavaSignsRecordedClaimsWithRecordedKeysThenSameSegmentsAndValid() {
        Map<String, Object> vector = IdModeVectors.load("003_layers3");
        List<Object> layers = list(at(vector, "inputs").get("layers"));
        String token = null;
        List<List<X509Certificate>> chains = new ArrayList<>();
        for (int k = 0; k < layers.size(); k++) {
            Map<String, Object> layer = map(layers.get(k));
            Map<String, Object> signer = map(layer.get("signer"));
            IdModeClaims claims = IdModeClaims.fromJson(map(layer.get("claims")), Limits.defaults(), k);
            var key = IdModeVectors.privateKey((String) signer.get("private_key_pkcs8_pem"));
            token = token == null
                    ? IdModeSigning.root(claims, key, PROVIDER)
                    : IdModeSigning.wrap(token, claims, key, PROVIDER);
            chains.add(List.of(IdModeVectors.certificate((String) signer.get("cert_pem"))));
        }
        IdModeToken parsed = IdModeToken.parse(token, Limits.defaults());
        for (int k = 0; k < layers.size(); k++) {
            assertThat(parsed.payloadSegment(k)).isEqualTo(map(layers.get(k)).get("payload_b64url"));
        }
        IdModeVerifier verifier = verifier(VerificationProfile.ORIGINAL_COMPATIBLE, Duration.ofDays(60), NOW);
        VerifiedIdMode verified = verifier.verify(
                token,
                IdModeArtifacts.of(chains),
                TARGET,
                Presenter.of(IdModeVectors.certificate(IdModeVectors.keyFile("leaf_middletier.cert.pem"))));
        assertThat(verified.path()).containsExactly(ASSERTING, SUBJECT, MIDDLETIER);
    }

    @Test
    void verifyWhenPemArtifactsParsedThenOneLeafPerLayerRootFirst() {
        Map<String, Object> vector = IdModeVectors.load("003_layers3");
        List<Object> layers = list(at(vector, "inputs").get("layers"));
        IdModeArtifacts artifacts =
                IdModeArtifacts.parse((String) at(vector, "outputs").get("id_artifacts"), Limits.defaults());
        assertThat(artifacts.size()).isEqualTo(layers.size());
        for (int k = 0; k < layers.size(); k++) {
            String pem = (String) map(map(layers.get(k)).get("signer")).get("cert_pem");
            assertThat(artifacts.chain(k)).containsExactly(IdModeVectors.certificate(pem));
        }
        IdModeArtifacts json = IdModeArtifacts.parse(artifacts.toJson(), Limits.defaults());
        assertThat(json).isEqualTo(artifacts);
        assertThat(json.encodedSize()).isEqualTo(artifacts.toJson().length());
    }

    private static void verifyVector(IdModeVerifier verifier, String name, SpiffeId audience) {
        Map<String, Object> outputs = at(IdModeVectors.load(name), "outputs");
        verifier.verifyWithoutPresenter(
                (String) outputs.get("token"),
                IdModeArtifacts.parse((String) outputs.get("id_artifacts"), Limits.defaults()),
                audience);
    }

    private static IdModeVerifier verifier(VerificationProfile profile, Duration maxAge, Instant now) {
        X509Certificate ca = IdModeVectors.certificate(IdModeVectors.keyFile("ca.cert.pem"));
        TimeRules time = new TimeRules(
                Clock.fixed(now, ZoneOffset.UTC), Duration.ofSeconds(30), Duration.ofSeconds(120), maxAge);
        IdModeSettings settings = new IdModeSettings(
                ASSERTING,
                TrustBundleSource.of(new TrustBundle("example.org", List.of(ca))),
                profile,
                Limits.defaults(),
                time);
        return new IdModeVerifier(settings, PROVIDER);
    }
}
