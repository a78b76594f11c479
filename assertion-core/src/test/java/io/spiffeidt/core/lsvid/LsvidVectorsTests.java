package io.spiffeidt.core.lsvid;

import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.Presenter;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.TrustBundle;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.VerifiedResult;
import io.spiffeidt.core.internal.Codec;
import io.spiffeidt.core.internal.Es256;
import io.spiffeidt.core.internal.Json;
import io.spiffeidt.core.lsvid.LsvidVerifier.DelegationRule;
import io.spiffeidt.testkit.GoldenVectors;
import io.spiffeidt.testkit.TestPki;
import io.spiffeidt.testkit.VectorManifest;
import io.spiffeidt.testkit.VectorManifest.Entry;
import io.spiffeidt.testkit.VectorManifest.Kind;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.PublicKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.bouncycastle.jce.interfaces.ECPrivateKey;
import org.bouncycastle.jce.spec.ECPublicKeySpec;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runs every file in {@code vectors/lsvid/} in the test resources (section 6 of the vectors README): the exact
 * bytes of every encoded document, signing input and payload are reproduced by our canonical
 * serializer, the recorded signatures verify over them, and each document reaches the verdict its
 * manifest entry states under each profile ({@code vectors/lsvid/manifest.json}), even where the
 * original answered "valid".
 */
class LsvidVectorsTests {

    private static final SpiffeId ASSERTING = SpiffeId.parse("spiffe://example.org/asserting_wl");

    /**
     * The expected verdicts: {@code vectors/lsvid/manifest.json}. Positive vectors verify under
     * original-compatible (they are version 1) and are rejected as {@code UNSUPPORTED} under strict;
     * every negative vector is rejected under both, with the code our stricter rules give.
     */
    private static final VectorManifest MANIFEST = VectorManifest.load(GoldenVectors.Mode.LSVID);

    static Stream<Entry> entries() {
        return MANIFEST.entries(Kind.TOKEN);
    }

    static Stream<String> vectors() {
        List<String> names = GoldenVectors.names(GoldenVectors.Mode.LSVID).stream()
                .map(n -> n + ".json")
                .toList();
        assertThat(names).as("LSVID vectors on the classpath").isNotEmpty();
        return names.stream();
    }

    // ---- byte-exact structure of the positive vectors ----

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void decodeWhenVectorThenExactBytesRoundTrip(String file) throws Exception {
        Map<String, Object> v = load(file);
        String lsvid = (String) map(v, "outputs").get("lsvid");

        Lsvid doc = LsvidCodec.decode(lsvid);

        String decoded = Codec.utf8(Codec.fromB64url(lsvid));
        assertThat(LsvidCodec.json(doc)).isEqualTo(decoded);
        assertThat(LsvidCodec.encode(doc)).isEqualTo(lsvid);
        if (map(v, "outputs").get("decoded_json") instanceof String expected) {
            assertThat(decoded).isEqualTo(expected);
        }
        if (map(v, "outputs").get("lsvid_bytes") instanceof Number n) {
            assertThat(lsvid.length()).isEqualTo(n.intValue());
            assertThat(LsvidCodec.encodedSize(doc)).isEqualTo(n.intValue());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void signingInputWhenPositiveVectorThenByteIdenticalAndSignaturesVerify(String file) throws Exception {
        Map<String, Object> v = load(file);
        assumeThat(v.get("base_vector")).as("positive vector").isNull();
        Map<String, Object> inputs = map(v, "inputs");
        Map<String, Object> keys = map(inputs, "keys");
        PublicKey issuer = publicKeyFromSpki((String) keys.get("lsvid_issuer_public_key_spki_b64"));
        Lsvid doc = LsvidCodec.decode((String) map(v, "outputs").get("lsvid"));

        for (Object o : list(inputs, "base_tokens")) {
            @SuppressWarnings("unchecked")
            Map<String, Object> base = (Map<String, Object>) o;
            LsvidToken token =
                    LsvidJsonReader.token(Json.parseObject((String) base.get("token_json")), Limits.DEFAULTS);
            checkSigningInput(token, base, issuer);
            assertThat(LsvidCodec.json(token)).isEqualTo(base.get("token_json"));
            assertThat(token.signature()).isEqualTo(Codec.fromB64std((String) base.get("signature_der_b64")));
        }
        assertThat(doc.bundle()).isNotNull();
        assertThat(LsvidCodec.signingInput(doc.bundle()))
                .isEqualTo(((String) inputs.get("bundle_signing_input_json")).getBytes(StandardCharsets.UTF_8));
        Es256.requireValid(
                Es256.publicKey(issuer.getEncoded(), TestPki.BC, -1),
                LsvidCodec.signingInput(doc.bundle()),
                doc.bundle().signature(),
                TestPki.BC,
                -1);

        List<LsvidToken> chain = LsvidFixture.chain(doc); // outermost first
        List<Object> extensions = list(inputs, "extensions");
        assertThat(chain).hasSize(extensions.size() + 1);
        for (Object o : extensions) {
            @SuppressWarnings("unchecked")
            Map<String, Object> ext = (Map<String, Object>) o;
            int index = ((Number) ext.get("index")).intValue();
            LsvidToken token = chain.get(chain.size() - 1 - index);
            assertThat(LsvidCodec.json(token.payload())).isEqualTo(ext.get("payload_json"));
            assertThat(token.signature()).isEqualTo(Codec.fromB64std((String) ext.get("signature_der_b64")));
            assertThat(Codec.hex(token.signature())).isEqualTo(ext.get("signature_der_hex"));
            PublicKey signerKey =
                    workloadCertificate(keys, (String) ext.get("signer")).getPublicKey();
            checkSigningInput(token, ext, signerKey);
        }
    }

    private static void checkSigningInput(LsvidToken token, Map<String, Object> recorded, PublicKey key)
            throws Exception {
        byte[] input = LsvidCodec.signingInput(token);
        assertThat(LsvidFixture.utf8(input)).isEqualTo(recorded.get("signing_input_json"));
        assertThat(input).isEqualTo(Base64.getDecoder().decode((String) recorded.get("signing_input_b64")));
        assertThat(Codec.hex(MessageDigest.getInstance("SHA-256").digest(input)))
                .isEqualTo(recorded.get("signing_input_sha256_hex"));
        Es256.requireValid(
                Es256.publicKey(key.getEncoded(), TestPki.BC, 0),
                input,
                Codec.fromB64std((String) recorded.get("signature_der_b64")),
                TestPki.BC,
                0);
    }

    // ---- verdicts ----

    @ParameterizedTest(name = "{0}")
    @MethodSource("entries")
    void verifyWhenVectorThenManifestVerdict(Entry entry) throws Exception {
        Map<String, Object> v = load(entry.vector());
        String lsvid = (String) map(v, "outputs").get("lsvid");
        if (v.get("base_vector") != null) {
            // the base vector of a negative one is itself a positive document
            String baseLsvid = (String) map(v, "inputs").get("base_lsvid");
            VerifiedResult baseResult = verifyAsNextHop(
                            verifier(VerificationProfile.ORIGINAL_COMPATIBLE, entry), baseLsvid, entry)
                    .toResult();
            assertThat(baseResult.delegation().dpr()).isEqualTo("alice@example.test");
        }

        for (VerificationProfile profile : VerificationProfile.values()) {
            LsvidVerifier verifier = verifier(profile, entry);
            entry.under(profile)
                    .assertReachedBy(
                            () -> outcome(verifyAsNextHop(verifier, lsvid, entry)),
                            "%s under %s (original verdicts %s)",
                            entry,
                            profile,
                            originalVerdicts(v));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void verifyWhenIssuerKeyNotTrustedThenUntrustedKey(String file) throws Exception {
        Map<String, Object> v = load(file);
        assumeThat(v.get("base_vector")).as("positive vector").isNull();
        Entry entry = MANIFEST.entry(file.replace(".json", ""));
        String lsvid = (String) map(v, "outputs").get("lsvid");
        LsvidVerifier verifier = new LsvidVerifier(settings(VerificationProfile.ORIGINAL_COMPATIBLE, entry)
                .withTrustedV1IssuerKeys(List.of(TestPki.ecKeyPair().getPublic())));

        assertThatAssertion(() -> verifyAsNextHop(verifier, lsvid, entry)).hasCode(ErrorCode.UNTRUSTED_KEY);
    }

    /**
     * Verifies as the manifest entry's audience, presented over mTLS by the entry's presenter with
     * its genuine certificate; delegation is required when any layer of the document carries one.
     */
    private static LsvidVerification verifyAsNextHop(LsvidVerifier verifier, String lsvid, Entry entry) {
        Presenter presenter = new Presenter(entry.presenter(), presenterKey(entry.presenter()));
        boolean delegated = LsvidFixture.chain(LsvidCodec.decode(lsvid)).stream()
                .anyMatch(t -> t.payload().hasDelegation());
        return verifier.verify(
                lsvid, entry.audience(), presenter, delegated ? DelegationRule.REQUIRED : DelegationRule.ABSENT);
    }

    private static VectorManifest.Outcome outcome(LsvidVerification verified) {
        return new VectorManifest.Outcome(
                verified.depth(), verified.delegation(), verified.outermost(), verified.encodedSize());
    }

    private static PublicKey presenterKey(SpiffeId id) {
        try {
            return leafCertificate(id).getPublicKey();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static LsvidVerifier verifier(VerificationProfile profile, Entry entry) {
        return new LsvidVerifier(settings(profile, entry));
    }

    private static LsvidSettings settings(VerificationProfile profile, Entry entry) {
        try {
            X509Certificate ca = certificate(GoldenVectors.keyFile("ca.cert.pem"));
            return new LsvidSettings(
                    ASSERTING,
                    new TrustBundle("example.org", List.of(ca)),
                    profile,
                    Limits.defaults(),
                    TimeRules.defaults(LsvidFixture.clock(entry.now())),
                    List.of(issuerPublicKey()),
                    TestPki.BC);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The LSVID issuer's public key, derived from {@code keys/lsvid_issuer.key.pem}. */
    private static PublicKey issuerPublicKey() throws Exception {
        KeyFactory kf = KeyFactory.getInstance("EC", TestPki.BC);
        ECPrivateKey priv = (ECPrivateKey)
                kf.generatePrivate(new PKCS8EncodedKeySpec(pemBody(GoldenVectors.keyFile("lsvid_issuer.key.pem"))));
        var q = priv.getParameters().getG().multiply(priv.getD()).normalize();
        return kf.generatePublic(new ECPublicKeySpec(q, priv.getParameters()));
    }

    private static X509Certificate leafCertificate(SpiffeId id) throws Exception {
        String name = id.path().substring(1);
        return certificate(GoldenVectors.keyFile("leaf_" + name + ".cert.pem"));
    }

    private static X509Certificate workloadCertificate(Map<String, Object> keys, String spiffeId) throws Exception {
        for (Object o : (List<?>) keys.get("workloads")) {
            Map<?, ?> w = (Map<?, ?>) o;
            if (spiffeId.equals(w.get("spiffe_id"))) {
                return certificate((String) w.get("cert_pem"));
            }
        }
        throw new IllegalStateException("no certificate for " + spiffeId);
    }

    private static X509Certificate certificate(String pem) throws Exception {
        return (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
    }

    private static PublicKey publicKeyFromSpki(String b64) throws Exception {
        return KeyFactory.getInstance("EC", TestPki.BC)
                .generatePublic(new java.security.spec.X509EncodedKeySpec(
                        Base64.getDecoder().decode(b64)));
    }

    private static byte[] pemBody(String pem) {
        String body = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        return Base64.getDecoder().decode(body);
    }

    private static List<String> originalVerdicts(Map<String, Object> v) {
        Object verification = v.get("verification");
        List<?> all = verification instanceof List<?> l ? l : List.of(verification);
        return all.stream().map(o -> (String) ((Map<?, ?>) o).get("result")).toList();
    }

    private static Map<String, Object> load(String file) throws IOException {
        return Json.parseObject(GoldenVectors.text(GoldenVectors.Mode.LSVID, file));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Map<String, Object> m, String key) {
        return (Map<String, Object>) m.get(key);
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Map<String, Object> m, String key) {
        return (List<Object>) m.get(key);
    }
}
