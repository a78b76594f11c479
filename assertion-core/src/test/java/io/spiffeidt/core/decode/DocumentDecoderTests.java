package io.spiffeidt.core.decode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.lsvid.IdClaim;
import io.spiffeidt.core.lsvid.Lsvid;
import io.spiffeidt.core.lsvid.LsvidCodec;
import io.spiffeidt.core.lsvid.LsvidPayload;
import io.spiffeidt.core.lsvid.LsvidToken;
import io.spiffeidt.testkit.GoldenVectors;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class DocumentDecoderTests {

    private static final String SUBJECT = "spiffe://example.org/subject-wl";
    private static final String ASSERTING = "spiffe://example.org/asserting-wl";
    private static final String MTIER = "spiffe://example.org/m-tier";

    private static String b64(String json) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }

    private static String sig(int bytes) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(new byte[bytes]);
    }

    @Test
    void decodeWhenDvidWithProofThenHeaderClaimsAndProofRounds() {
        String proof = "{\"proofp\":[{\"0\":\"0A\"},{\"1\":\"0B\"}],\"proofc\":[{\"0\":\"01\"},{\"1\":\"02\"}]}";
        String claims = "{\"iss\":\"" + ASSERTING + "\",\"sub\":\"" + SUBJECT + "\",\"aud\":[\"" + MTIER
                + "\"],\"dpa\":\"http://idp\",\"dpr\":\"user0001\",\"iat\":1700000000,\"exp\":1700000060,"
                + "\"jti\":\"j1\",\"zkp\":{\"msg\":\"eyJh.eyJi\",\"proof\":" + jsonString(proof) + "}}";
        String token = b64("{\"alg\":\"ES256\",\"typ\":\"JWT\"}") + "." + b64(claims) + "." + sig(64);

        DecodedDocument doc = DocumentDecoder.decode(Mode.DVID, token, Limits.defaults());

        assertThat(doc.encodedBytes()).isEqualTo(token.length());
        assertThat(doc.header()).containsEntry("alg", "ES256");
        assertThat(doc.depth()).isEqualTo(1);
        DecodedLayer layer = doc.layers().get(0);
        assertThat(layer.issuer()).isEqualTo(ASSERTING);
        assertThat(layer.subject()).isEqualTo(SUBJECT);
        assertThat(layer.audience()).isEqualTo(MTIER);
        assertThat(layer.dpa()).isEqualTo("http://idp");
        assertThat(layer.dpr()).isEqualTo("user0001");
        assertThat(layer.issuedAt()).isEqualTo(Instant.ofEpochSecond(1_700_000_000L));
        assertThat(layer.expiresAt()).isEqualTo(Instant.ofEpochSecond(1_700_000_060L));
        assertThat(layer.signatureAlgorithm()).isEqualTo("ES256");
        assertThat(layer.signatureBytes()).isEqualTo(64);
        assertThat(layer.otherClaims()).containsEntry("jti", "j1").containsKey("zkp");
        assertThat(layer.otherClaims().get("zkp").toString()).doesNotContain("eyJh");
        assertThat(doc.proofAttached()).isTrue();
        assertThat(doc.proofRounds()).isEqualTo(2);
    }

    @Test
    void decodeWhenDvidWithoutProofThenNoProofAttached() {
        String token =
                b64("{\"alg\":\"RS256\"}") + "." + b64("{\"iss\":\"" + ASSERTING + "\",\"exp\":1}") + "." + sig(256);
        DecodedDocument doc = DocumentDecoder.decode(Mode.DVID, token, Limits.defaults());
        assertThat(doc.proofAttached()).isFalse();
        assertThat(doc.layers().get(0).signatureAlgorithm()).isEqualTo("RS256");
        assertThat(doc.layers().get(0).signatureBytes()).isEqualTo(256);
    }

    @Test
    void decodeWhenIdModeTwoLayersThenRootFirstWithDelegationInRootOnly() {
        String p0 = b64("{\"aud\":\"" + SUBJECT + "\",\"dpa\":\"http://idp\",\"dpr\":\"user0001\",\"exp\":1700000060,"
                + "\"iat\":1700000000,\"iss\":\"" + ASSERTING + "\"}");
        String p1 =
                b64("{\"aud\":\"" + MTIER + "\",\"exp\":1700000050,\"iat\":1700000001,\"iss\":\"" + SUBJECT + "\"}");
        String token = p1 + "." + p0 + "." + sig(71) + "." + sig(70);

        DecodedDocument doc = DocumentDecoder.decode(Mode.ID_MODE, token, Limits.defaults());

        assertThat(doc.depth()).isEqualTo(2);
        DecodedLayer root = doc.layers().get(0);
        DecodedLayer hop = doc.layers().get(1);
        assertThat(root.role()).isEqualTo("root");
        assertThat(root.issuer()).isEqualTo(ASSERTING);
        assertThat(root.audience()).isEqualTo(SUBJECT);
        assertThat(root.dpr()).isEqualTo("user0001");
        assertThat(root.signatureBytes()).isEqualTo(71);
        assertThat(hop.role()).isEqualTo("hop");
        assertThat(hop.issuer()).isEqualTo(SUBJECT);
        assertThat(hop.audience()).isEqualTo(MTIER);
        assertThat(hop.dpa()).isNull();
        assertThat(hop.signatureBytes()).isEqualTo(70);
        assertThat(hop.signatureAlgorithm()).startsWith("ES256");
        assertThat(doc.hopsAnonymous()).isFalse();
    }

    @Test
    void decodeWhenAnonModeHopsWithoutIidThenHopsAnonymous() {
        String p0 = b64(
                "{\"aud\":\"" + SUBJECT + "\",\"dpa\":\"http://idp\",\"dpr\":\"user0001\",\"iat\":1,\"iss\":\"k0\"}");
        String p1 = b64("{\"aud\":\"" + MTIER + "\",\"iat\":2,\"iss\":\"k1\"}");
        String token = p1 + "." + p0 + "." + sig(32) + "." + sig(64);

        DecodedDocument doc = DocumentDecoder.decode(Mode.ANON_MODE, token, Limits.defaults());

        assertThat(doc.hopsAnonymous()).isTrue();
        assertThat(doc.layers()).allMatch(DecodedLayer::anonymous);
        assertThat(doc.layers().get(0).signatureBytes()).isEqualTo(32);
        assertThat(doc.layers().get(1).signatureBytes()).isEqualTo(64);
        assertThat(doc.layers().get(1).signatureAlgorithm()).contains("Schnorr");
    }

    @Test
    void decodeWhenAnonModeHopNamesItsWorkloadThenNotAnonymous() {
        String p0 = b64("{\"aud\":\"" + SUBJECT + "\",\"iat\":1,\"iss\":\"k0\"}");
        String p1 = b64("{\"aud\":\"" + MTIER + "\",\"iat\":2,\"iid\":\"" + SUBJECT + "\",\"iss\":\"k1\"}");
        String token = p1 + "." + p0 + "." + sig(32) + "." + sig(64);

        DecodedDocument doc = DocumentDecoder.decode(Mode.ANON_MODE, token, Limits.defaults());

        assertThat(doc.hopsAnonymous()).isFalse();
        assertThat(doc.layers().get(1).anonymous()).isFalse();
        assertThat(doc.layers().get(1).otherClaims()).containsEntry("iid", SUBJECT);
    }

    @Test
    void decodeWhenLsvidExtendedThenBaseFirstWithDelegation() {
        LsvidToken base = new LsvidToken(
                null,
                new LsvidPayload(2, "ES256", 100, 200, IdClaim.of(ASSERTING), IdClaim.of(SUBJECT), null, null, null),
                new byte[64]);
        LsvidToken ext = new LsvidToken(
                base,
                new LsvidPayload(
                        2, "ES256", 101, 190, IdClaim.of(SUBJECT), null, IdClaim.of(MTIER), "http://idp", "user0001"),
                new byte[64]);
        String encoded = LsvidCodec.encode(Lsvid.of(ext));

        DecodedDocument doc = DocumentDecoder.decode(Mode.LSVID, encoded, Limits.defaults());

        assertThat(doc.encodedBytes()).isEqualTo(encoded.length());
        assertThat(doc.depth()).isEqualTo(2);
        assertThat(doc.layers().get(0).role()).isEqualTo("base");
        assertThat(doc.layers().get(0).subject()).isEqualTo(SUBJECT);
        assertThat(doc.layers().get(1).role()).isEqualTo("extension");
        assertThat(doc.layers().get(1).audience()).isEqualTo(MTIER);
        assertThat(doc.layers().get(1).dpr()).isEqualTo("user0001");
        assertThat(doc.layers().get(1).expiresAt()).isEqualTo(Instant.ofEpochSecond(190));
        assertThat(doc.layers().get(1).signatureBytes()).isEqualTo(64);
    }

    @Test
    void decodeWhenModeWithoutDocumentThenUnsupported() {
        for (Mode mode : new Mode[] {Mode.MTLS_ONLY, Mode.BEARER_FORWARD}) {
            assertThat(mode.hasDocument()).isFalse();
            assertThatThrownBy(() -> DocumentDecoder.decode(mode, "a.b.c", Limits.defaults()))
                    .as(mode.pathSegment())
                    .isInstanceOfSatisfying(
                            AssertionException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.UNSUPPORTED));
        }
    }

    @Test
    void decodeWhenGarbageThenMalformed() {
        for (Mode mode : Mode.values()) {
            if (!mode.hasDocument()) {
                continue;
            }
            assertThatThrownBy(() -> DocumentDecoder.decode(mode, "not a document!", Limits.defaults()))
                    .as(mode.pathSegment())
                    .isInstanceOfSatisfying(
                            AssertionException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED));
        }
    }

    @Test
    void decodeWhenOverSizeLimitThenLimitExceeded() {
        String huge = "A".repeat(Limits.defaults().maxEncodedSize() + 1);
        assertThatThrownBy(() -> DocumentDecoder.decode(Mode.ID_MODE, huge, Limits.defaults()))
                .isInstanceOfSatisfying(
                        AssertionException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.LIMIT_EXCEEDED));
    }

    @Test
    void decodeLenientlyWhenOneLayerTamperedThenTheOtherLayersStillShown() {
        String outer = b64("{\"iss\":\"" + SUBJECT + "\",\"aud\":\"" + MTIER + "\",\"iat\":101}");
        // the root's payload is base64url but not JSON; the outer signature is not base64url
        String token = outer + "." + b64("{\"iss\":") + "." + sig(64) + "." + "**";

        assertThatThrownBy(() -> DocumentDecoder.decode(Mode.ID_MODE, token, Limits.defaults()))
                .isInstanceOfSatisfying(
                        AssertionException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED));
        DecodedDocument doc = DocumentDecoder.decodeLeniently(Mode.ID_MODE, token, Limits.defaults());

        assertThat(doc.depth()).isEqualTo(2);
        DecodedLayer tampered = doc.layers().get(0);
        assertThat(tampered.payloadDecoded()).isFalse();
        assertThat(tampered.issuer()).isNull();
        assertThat(tampered.signatureBytes()).isEqualTo(64);
        DecodedLayer intact = doc.layers().get(1);
        assertThat(intact.payloadDecoded()).isTrue();
        assertThat(intact.issuer()).isEqualTo(SUBJECT);
        assertThat(intact.audience()).isEqualTo(MTIER);
        assertThat(intact.signatureBytes()).isEqualTo(-1);
    }

    @Test
    void decodeLenientlyWhenLayoutIsNotTheModesThenStillMalformed() {
        for (String text : new String[] {"a.b.c", "only-one-segment"}) {
            assertThatThrownBy(() -> DocumentDecoder.decodeLeniently(Mode.ID_MODE, text, Limits.defaults()))
                    .as(text)
                    .isInstanceOfSatisfying(
                            AssertionException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED));
        }
        assertThatThrownBy(() -> DocumentDecoder.decodeLeniently(Mode.LSVID, "e30", Limits.defaults()))
                .isInstanceOf(AssertionException.class);
    }

    @Test
    void decodeWhenStrictThenEveryLayerDecoded() {
        String token = b64("{\"iss\":\"" + ASSERTING + "\"}") + "." + sig(64);

        DecodedDocument doc = DocumentDecoder.decode(Mode.ID_MODE, token, Limits.defaults());

        assertThat(doc.layers()).allSatisfy(l -> assertThat(l.payloadDecoded()).isTrue());
        assertThat(doc.bundle()).isNull();
    }

    @Test
    void decodeWhenOriginalLsvidThenBundleAndEachLayersKeyFacts() {
        String lsvid = (String) ((java.util.Map<?, ?>) io.spiffeidt.core.internal.Json.parseObject(
                                GoldenVectors.text(GoldenVectors.Mode.LSVID, "004_extensions3"))
                        .get("outputs"))
                .get("lsvid");

        DecodedDocument doc = DocumentDecoder.decode(Mode.LSVID, lsvid, Limits.defaults());

        assertThat(doc.depth()).isEqualTo(4);
        assertThat(doc.bundle()).isNotNull();
        assertThat(doc.bundle().role()).isEqualTo("bundle");
        assertThat(doc.bundle().subject()).isEqualTo("spiffe://example.org");
        assertThat(doc.bundle().signatureBytes()).isPositive();
        DecodedLayer base = doc.layers().get(0);
        assertThat(base.role()).isEqualTo("base");
        assertThat(base.otherClaims()).containsEntry("ver", 1).containsKey("subjectKeyBytes");
        DecodedLayer outermost = doc.layers().get(3);
        assertThat(outermost.otherClaims().get("issuerBaseToken")).isEqualTo("base token of " + outermost.issuer());
        assertThat(outermost.otherClaims()).doesNotContainKey("subjectKeyBytes");
    }

    private static String jsonString(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
