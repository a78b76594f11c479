package io.spiffeidt.core.internal;

import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.ErrorCode;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class JsonTests {

    @Test
    @SuppressWarnings("unchecked")
    void parseWhenObjectThenDocumentOrderAndBigIntegers() {
        Map<String, Object> m = Json.parseObject("{\"b\":1,\"a\":[true,null,\"x\"],\"c\":{\"d\":-2}}");
        assertThat(m.keySet()).containsExactly("b", "a", "c");
        assertThat(m.get("b")).isEqualTo(BigInteger.ONE);
        assertThat((List<Object>) m.get("a")).containsExactly(true, null, "x");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{\"a\":1,\"a\":2}",
                "{\"a\":1} x",
                "{\"a\":01}",
                "{\"a\":1e9999999999}",
                "{\"a\":\"\\u12\"}",
                "{\"a\":\"\u0001\"}",
                "{'a':1}",
                "[1,]",
                "",
                "{\"a\":-}",
                "{\"a\":\"abc",
                "{\"a\":\"abc\\",
                "{\"a\":\"ab\\nc",
                "{\"a\":\"abc\u001fd\"}",
                "{\"a\":\"abc\\q\"}"
            })
    void parseWhenInvalidThenMalformed(String text) {
        assertThatAssertion(() -> Json.parse(text)).hasCode(ErrorCode.MALFORMED);
    }

    static Stream<String> strings() {
        return Stream.of(
                "",
                "abc",
                "a\"b",
                "\\",
                "ab\\",
                "ab\ncd\t",
                "\u0000x",
                "é€😀",
                "\u2028<>&",
                "a/b",
                "x".repeat(5000) + "\"y");
    }

    @ParameterizedTest
    @MethodSource("strings")
    void parseWhenStringWrittenThenSameStringWhereverItsEscapesAre(String value) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(value, value);
        m.put("after", 1);
        Map<String, Object> back = Json.parseObject(Json.write(m));
        assertThat(back.keySet()).containsExactly(value, "after");
        assertThat(back.get(value)).isEqualTo(value);
        assertThat(back.get("after")).isEqualTo(BigInteger.ONE);
    }

    @Test
    void parseWhenEscapesAfterAPlainPrefixThenDecoded() {
        assertThat(Json.parse("[\"plain\",\"pre\\u0041\\\"\\/post\"]")).isEqualTo(List.of("plain", "preA\"/post"));
    }

    @Test
    void parseWhenNestedTooDeepThenLimitExceeded() {
        String deep = "[".repeat(100) + "]".repeat(100);
        assertThatAssertion(() -> Json.parse(deep)).hasCode(ErrorCode.LIMIT_EXCEEDED);
    }

    @Test
    void writeWhenSpecialCharactersThenGoEscaping() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("k", "<a>&\"\\\n\t\b\f\u0001\u2028\u2029é\u007f");
        assertThat(Json.write(m))
                .isEqualTo("{\"k\":\"\\u003ca\\u003e\\u0026\\\"\\\\\\n\\t\\b\\f\\u0001\\u2028\\u2029é\u007f\"}");
    }

    @Test
    void writeWhenLoneSurrogateThenReplacementCharacter() {
        assertThat(Json.write("a\uD800b")).isEqualTo("\"a\\ufffdb\"");
    }

    @Test
    void claimsWhenHugeExponentTimeThenMalformedAtOnce() {
        Map<String, Object> claims = Json.parseObject("{\"iat\":1e999999999}");
        assertThatAssertion(() -> Claims.optTime(claims, "iat", 0)).hasCode(ErrorCode.MALFORMED);
    }
}
