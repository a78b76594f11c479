package io.spiffeidt.core.lsvid;

import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.internal.Codec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The canonical LSVID codec: round trip, Go-style escaping, and every non-canonical spelling. */
class LsvidCodecTests {

    private static final LsvidFixture F = new LsvidFixture();
    private static final Lsvid MINTED = F.now().minted();

    /** A small unsigned document exercising every member (not meant to verify). */
    static Lsvid sample() {
        Map<String, String> data = new LinkedHashMap<>();
        data.put("b", "2");
        data.put("a", "1");
        LsvidToken base = new LsvidToken(
                null,
                new LsvidPayload(
                        2,
                        "ES256",
                        1700000000,
                        1700000120,
                        IdClaim.of("spiffe://example.org"),
                        new IdClaim(
                                "spiffe://example.org/subject-wl",
                                new byte[] {1, 2, 3},
                                List.of(new byte[] {4, 5}, new byte[] {6}),
                                null),
                        null,
                        null,
                        null),
                new byte[] {7, 8, 9});
        LsvidToken layer = new LsvidToken(
                base,
                new LsvidPayload(
                        2,
                        "ES256",
                        1700000001,
                        1700000100,
                        new IdClaim("spiffe://example.org/subject-wl", null, null, base),
                        null,
                        IdClaim.of("spiffe://example.org/asserting-wl"),
                        "https://idp.example.test/a?b=c&d=e",
                        "alice@example.test",
                        null,
                        data),
                null);
        return Lsvid.of(layer);
    }

    @Test
    void encodeWhenSampleThenExactCanonicalJson() {
        String json = LsvidCodec.json(sample());

        assertThat(json)
                .isEqualTo("{\"token\":{\"nested\":{\"payload\":{\"ver\":2,\"alg\":\"ES256\",\"iat\":1700000000,"
                        + "\"exp\":1700000120,\"iss\":{\"cn\":\"spiffe://example.org\"},\"sub\":{\"cn\":"
                        + "\"spiffe://example.org/subject-wl\",\"pk\":\"AQID\",\"x5c\":[\"BAU=\",\"Bg==\"]}},"
                        + "\"signature\":\"BwgJ\"},\"payload\":{\"ver\":2,\"alg\":\"ES256\",\"iat\":1700000001,"
                        + "\"exp\":1700000100,\"iss\":{\"cn\":\"spiffe://example.org/subject-wl\",\"id\":{\"payload\":"
                        + "{\"ver\":2,\"alg\":\"ES256\",\"iat\":1700000000,\"exp\":1700000120,\"iss\":{\"cn\":"
                        + "\"spiffe://example.org\"},\"sub\":{\"cn\":\"spiffe://example.org/subject-wl\",\"pk\":"
                        + "\"AQID\",\"x5c\":[\"BAU=\",\"Bg==\"]}},\"signature\":\"BwgJ\"}},\"aud\":{\"cn\":"
                        + "\"spiffe://example.org/asserting-wl\"},\"dpa\":\"https://idp.example.test/a?b=c\\u0026d=e\","
                        + "\"dpr\":\"alice@example.test\",\"data\":{\"a\":\"1\",\"b\":\"2\"}},\"signature\":null},"
                        + "\"bundle\":null}");
    }

    @Test
    void decodeWhenEncodedThenRoundTripsToEqualRecords() {
        for (Lsvid doc : List.of(sample(), MINTED, F.now().standard())) {
            String encoded = LsvidCodec.encode(doc);

            Lsvid decoded = LsvidCodec.decode(encoded);

            assertThat(decoded).isEqualTo(doc);
            assertThat(decoded.hashCode()).isEqualTo(doc.hashCode());
            assertThat(LsvidCodec.encode(decoded)).isEqualTo(encoded);
        }
    }

    @Test
    void encodeWhenTokensRememberTheirTextThenSameTextAsFreshCopies() {
        LsvidFixture.Builder now = F.now();
        Lsvid extended = now.standard(); // its outermost layer remembers the text it was signed as
        Lsvid decoded = LsvidCodec.decode(LsvidCodec.encode(extended)); // remembers the decoded text
        Lsvid extendedAgain = now.extend(decoded, F.target, F.mtier); // appended to the decoded text

        for (Lsvid doc : List.of(extended, decoded, extendedAgain)) {
            assertThat(doc.token().knownJson()).isNotNull();
            Lsvid copy = new Lsvid(fresh(doc.token()), fresh(doc.bundle()));
            assertThat(copy.token().knownJson()).isNull();

            assertThat(LsvidCodec.encode(doc)).isEqualTo(LsvidCodec.encode(copy));
            assertThat(LsvidCodec.json(doc.token())).isEqualTo(LsvidCodec.json(fresh(doc.token())));
            assertThat(LsvidCodec.signingInput(doc.token())).isEqualTo(LsvidCodec.signingInput(fresh(doc.token())));
        }
        assertThat(LsvidCodec.decode(LsvidCodec.encode(extendedAgain)).depth()).isEqualTo(6);
    }

    /** A copy made of new tokens throughout (nested and {@code iss.id}), none remembering a text. */
    private static LsvidToken fresh(LsvidToken t) {
        if (t == null) {
            return null;
        }
        LsvidPayload p = t.payload();
        LsvidPayload copy = new LsvidPayload(
                p.ver(),
                p.alg(),
                p.iat(),
                p.exp(),
                fresh(p.iss()),
                fresh(p.sub()),
                fresh(p.aud()),
                p.dpa(),
                p.dpr(),
                p.sel(),
                p.data());
        return new LsvidToken(fresh(t.nested()), copy, t.signature());
    }

    private static IdClaim fresh(IdClaim c) {
        return c == null ? null : new IdClaim(c.cn(), c.pk(), c.x5c(), fresh(c.id()));
    }

    @Test
    void encodeWhenSpecialCharactersThenGoEscapingAndRoundTrip() {
        String tricky = "<a&b>\u2028\u2029\"q\"\\ \n\r\t\b\f\u0001\u007f é 😀";
        Map<String, String> data = Map.of("k", tricky);
        LsvidToken t = new LsvidToken(
                null,
                new LsvidPayload(2, "ES256", 1, 2, IdClaim.of(tricky), null, null, null, tricky, null, data),
                null);

        String json = LsvidCodec.json(Lsvid.of(t));

        String escaped = "\\u003ca\\u0026b\\u003e\\u2028\\u2029\\\"q\\\"\\\\ \\n\\r\\t\\b\\f\\u0001\u007f é 😀";
        assertThat(json).contains("\"cn\":\"" + escaped + "\"", "\"dpr\":\"" + escaped + "\"");
        assertThat(LsvidCodec.decode(LsvidCodec.encode(Lsvid.of(t)))).isEqualTo(Lsvid.of(t));
    }

    @Test
    void encodeWhenMapKeysThenSortedByCodePoint() {
        Map<String, String> data = new LinkedHashMap<>();
        for (String k : List.of("😀", "\uffff", "é", "b", "a", "Z", "")) {
            data.put(k, "v");
        }
        LsvidToken t =
                new LsvidToken(null, new LsvidPayload(2, null, 0, 0, null, null, null, null, null, null, data), null);

        String json = LsvidCodec.json(t.payload());

        // UTF-8 byte order: U+FFFF (EF BF BF) sorts before U+1F600 (F0 9F 98 80)
        assertThat(json)
                .isEqualTo("{\"ver\":2,\"data\":{\"\":\"v\",\"Z\":\"v\",\"a\":\"v\",\"b\":\"v\",\"é\":\"v\","
                        + "\"\uffff\":\"v\",\"😀\":\"v\"}}");
        assertThat(LsvidCodec.decode(LsvidCodec.encode(Lsvid.of(t)))).isEqualTo(Lsvid.of(t));
    }

    @Test
    void encodeWhenEverythingEmptyThenOmittedExceptSignatureAndBundle() {
        LsvidToken t = new LsvidToken(
                null,
                new LsvidPayload(0, "", 0, 0, null, new IdClaim(null, new byte[0], List.of(), null), null, "", null),
                null);

        assertThat(LsvidCodec.json(Lsvid.of(t)))
                .isEqualTo("{\"token\":{\"payload\":{\"sub\":{}},\"signature\":null},\"bundle\":null}");
    }

    @Test
    void signingInputWhenExtensionThenNestedPayloadAndNullSignature() {
        LsvidToken outer = MINTED.token();

        String input = LsvidFixture.utf8(LsvidCodec.signingInput(outer));

        assertThat(input)
                .isEqualTo("{\"nested\":" + LsvidCodec.json(outer.nested()) + ",\"payload\":"
                        + LsvidCodec.json(outer.payload()) + ",\"signature\":null}");
        assertThat(LsvidFixture.utf8(LsvidCodec.signingInput(outer.innermost())))
                .isEqualTo(LsvidCodec.json(outer.innermost().payload()));
    }

    @Test
    void recordsWhenArraysThenCopiedInAndOut() {
        byte[] sig = {1, 2, 3};
        byte[] pk = {4, 5};
        List<byte[]> x5c = new ArrayList<>(List.of(new byte[] {6}));
        IdClaim claim = new IdClaim("spiffe://example.org/a", pk, x5c, null);
        LsvidToken t = new LsvidToken(null, new LsvidPayload(2, "ES256", 1, 2, null, claim, null, null, null), sig);

        sig[0] = 9;
        pk[0] = 9;
        x5c.get(0)[0] = 9;
        t.signature()[1] = 9;
        claim.pk()[1] = 9;
        claim.x5c().get(0)[0] = 8;

        assertThat(t.signature()).containsExactly(1, 2, 3);
        assertThat(claim.pk()).containsExactly(4, 5);
        assertThat(claim.x5c().get(0)).containsExactly(6);
        assertThat(t.toString()).doesNotContain("AQID");
    }

    static Stream<Arguments> nonCanonical() {
        String c = LsvidCodec.json(sample());
        List<Arguments> cases = new ArrayList<>();
        cases.add(Arguments.of("space after colon", c.replaceFirst("\"token\":", "\"token\": ")));
        cases.add(Arguments.of("leading space", " " + c));
        cases.add(Arguments.of("trailing newline", c + "\n"));
        cases.add(Arguments.of(
                "members reordered",
                "{\"bundle\":null,\"token\":"
                        + c.substring("{\"token\":".length(), c.length() - ",\"bundle\":null}".length()) + "}"));
        cases.add(Arguments.of("bundle omitted", c.replace(",\"bundle\":null}", "}")));
        cases.add(Arguments.of("signature omitted", c.replace(",\"signature\":null}", "}")));
        cases.add(Arguments.of("nested null", c.replaceFirst("\\{\"payload\":", "{\"nested\":null,\"payload\":")));
        cases.add(Arguments.of(
                "escaped slash",
                c.replace("spiffe://example.org/asserting-wl", "spiffe:\\/\\/example.org/asserting-wl")));
        cases.add(Arguments.of("escaped letter", c.replaceFirst("ES256", "\\\\u0045S256")));
        cases.add(Arguments.of("raw ampersand", c.replace("\\u0026", "&")));
        cases.add(Arguments.of("upper-case hex escape", c.replace("alice@", "alice\\u003Cx@")));
        cases.add(Arguments.of("duplicate member", c.replaceFirst("\"ver\":2,", "\"ver\":2,\"ver\":2,")));
        cases.add(Arguments.of("case-variant member", c.replaceFirst("\"token\"", "\"Token\"")));
        cases.add(Arguments.of("unknown member", c.replaceFirst("\"ver\":2,", "\"ver\":2,\"kid\":\"x\",")));
        cases.add(Arguments.of(
                "zero iat",
                c.replaceFirst("\"ver\":2,", "\"ver\":2,\"iat\":0,").replaceFirst(",\"iat\":1700000000", "")));
        cases.add(Arguments.of("fraction", c.replaceFirst("1700000000", "1700000000.0")));
        cases.add(Arguments.of("exponent", c.replaceFirst("1700000000", "17e8")));
        cases.add(Arguments.of("empty pk", c.replaceFirst("\"pk\":\"AQID\"", "\"pk\":\"\"")));
        cases.add(Arguments.of("empty x5c", c.replaceFirst("\"x5c\":\\[\"BAU=\",\"Bg==\"\\]", "\"x5c\":[]")));
        cases.add(Arguments.of("empty dpr", c.replace("\"dpr\":\"alice@example.test\"", "\"dpr\":\"\"")));
        cases.add(Arguments.of(
                "aud null", c.replace("\"aud\":{\"cn\":\"spiffe://example.org/asserting-wl\"}", "\"aud\":null")));
        cases.add(Arguments.of("empty data", c.replace("\"data\":{\"a\":\"1\",\"b\":\"2\"}", "\"data\":{}")));
        cases.add(Arguments.of(
                "data unsorted",
                c.replace("\"data\":{\"a\":\"1\",\"b\":\"2\"}", "\"data\":{\"b\":\"2\",\"a\":\"1\"}")));
        cases.add(Arguments.of("signature unpadded", c.replace("\"Bg==\"", "\"Bg\"")));
        cases.add(Arguments.of("signature url alphabet", c.replace("\"BAU=\"", "\"BA_=\"")));
        cases.add(Arguments.of(
                "unicode escape of non-ASCII",
                c.replace("alice@", "\\u00e9lice@").replace("\\\\u00e9", "\\u00e9")));
        cases.add(Arguments.of(
                "sel with a fraction",
                c.replace(",\"dpr\":\"alice@example.test\"", ",\"dpr\":\"alice@example.test\",\"sel\":{\"a\":1.5}")));
        cases.add(Arguments.of("token is an array", "{\"token\":[],\"bundle\":null}"));
        cases.add(Arguments.of("token without payload", "{\"token\":{\"signature\":null},\"bundle\":null}"));
        cases.add(Arguments.of("ver out of int8", c.replaceFirst("\"ver\":2", "\"ver\":300")));
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("nonCanonical")
    void decodeWhenNonCanonicalThenMalformed(String what, String json) {
        assertThat(json).isNotEqualTo(LsvidCodec.json(sample()));

        assertThatAssertion(() -> LsvidCodec.decode(Codec.b64url(json))).hasCode(ErrorCode.MALFORMED);
    }

    @Test
    void decodeWhenEncodingIsNotStrictBase64UrlOrUtf8ThenMalformed() {
        String encoded = LsvidCodec.encode(sample());
        byte[] json = LsvidCodec.json(sample()).getBytes(StandardCharsets.UTF_8);
        byte[] bom = new byte[json.length + 3];
        bom[0] = (byte) 0xEF;
        bom[1] = (byte) 0xBB;
        bom[2] = (byte) 0xBF;
        System.arraycopy(json, 0, bom, 3, json.length);
        byte[] badUtf8 = json.clone();
        badUtf8[json.length - 3] = (byte) 0xC3;

        for (String bad : List.of(
                encoded + "=",
                Base64.getEncoder().encodeToString(json),
                encoded.substring(0, 10) + " " + encoded.substring(10),
                Codec.b64url(bom),
                Codec.b64url(badUtf8))) {
            assertThatAssertion(() -> LsvidCodec.decode(bad)).hasCode(ErrorCode.MALFORMED);
        }
    }

    @Test
    void decodeWhenNestedThousandDeepThenLimitExceededWithoutRecursion() {
        String deep = Codec.b64url(nestedJson(1000));

        assertThatAssertion(() -> LsvidCodec.decode(deep)).hasCode(ErrorCode.LIMIT_EXCEEDED);
    }

    @Test
    void decodeWhenOneTokenOverMaxDepthThenLimitExceeded() {
        Limits limits = new Limits(256 * 1024, 32, 2048, 80, 256);

        assertThat(LsvidCodec.decode(Codec.b64url(nestedJson(32)), limits).depth())
                .isEqualTo(32);
        assertThatAssertion(() -> LsvidCodec.decode(Codec.b64url(nestedJson(33)), limits))
                .hasCode(ErrorCode.LIMIT_EXCEEDED);
    }

    @Test
    void decodeWhenClaimOverTheLengthLimitThenLimitExceeded() {
        LsvidToken t = new LsvidToken(
                null, new LsvidPayload(2, "ES256", 1, 2, null, null, null, null, "x".repeat(2049)), null);

        assertThatAssertion(() -> LsvidCodec.decode(LsvidCodec.encode(Lsvid.of(t))))
                .hasCode(ErrorCode.LIMIT_EXCEEDED);
    }

    @Test
    void encodeWhenVeryLongChainThenNoRecursionInTheWriter() {
        LsvidToken t = null;
        for (int i = 0; i < 50_000; i++) {
            t = new LsvidToken(t, new LsvidPayload(2, null, 0, 0, null, null, null, null, null), null);
        }
        Lsvid doc = Lsvid.of(t);

        assertThat(doc.depth()).isEqualTo(50_000);
        assertThat(LsvidCodec.json(doc)).isEqualTo(nestedJson(50_000));
    }

    /** Canonical JSON of a chain of {@code depth} tokens, each payload {@code {"ver":2}}. */
    static String nestedJson(int depth) {
        StringBuilder sb = new StringBuilder(depth * 48);
        sb.append("{\"token\":");
        sb.append("{\"nested\":".repeat(depth - 1));
        sb.append("{\"payload\":{\"ver\":2},\"signature\":null}");
        sb.append(",\"payload\":{\"ver\":2},\"signature\":null}".repeat(depth - 1));
        sb.append(",\"bundle\":null}");
        return sb.toString();
    }
}
