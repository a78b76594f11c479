package io.spiffeidt.core.internal;

import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.ErrorCode;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
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
                "{\"a\":-}"
            })
    void parseWhenInvalidThenMalformed(String text) {
        assertThatAssertion(() -> Json.parse(text)).hasCode(ErrorCode.MALFORMED);
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
