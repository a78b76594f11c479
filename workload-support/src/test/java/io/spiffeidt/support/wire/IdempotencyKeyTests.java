package io.spiffeidt.support.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The {@code Idempotency-Key} header: one RFC 8941 string of 1 to 255 characters, or absent. */
class IdempotencyKeyTests {

    @Test
    void parseWhenAbsentThenNoKey() {
        assertThat(IdempotencyKey.parse(null)).isEmpty();
    }

    @Test
    void parseWhenQuotedStringThenTheUnquotedKey() {
        assertThat(IdempotencyKey.parse("\"8e03978e-40d5-43e8-bc93-6894a57f9324\""))
                .contains(new IdempotencyKey("8e03978e-40d5-43e8-bc93-6894a57f9324"));
    }

    @Test
    void parseWhenSurroundingSpacesThenTheyAreDiscarded() {
        assertThat(IdempotencyKey.parse("  \"a b\" ")).contains(new IdempotencyKey("a b"));
    }

    @Test
    void parseWhenEscapedQuoteAndBackslashThenUnescapedAndWrittenBackTheSame() {
        String header = "\"say \\\"hi\\\" \\\\o/\"";

        IdempotencyKey key = IdempotencyKey.parse(header).orElseThrow();

        assertThat(key.value()).isEqualTo("say \"hi\" \\o/");
        assertThat(key.headerValue()).isEqualTo(header);
        assertThat(IdempotencyKey.parse(key.headerValue())).contains(key);
    }

    @Test
    void parseWhenLongestKeyThenAccepted() {
        String longest = "k".repeat(IdempotencyKey.MAX_LENGTH);

        assertThat(IdempotencyKey.parse("\"" + longest + "\"")).contains(new IdempotencyKey(longest));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "   ",
                "\"\"",
                "abc",
                "\"abc",
                "abc\"",
                "\"abc\";p=1",
                "\"a\", \"b\"",
                "\"a\\b\"",
                "\"a\\\"",
                "\"caf\u00e9\"",
                "\"tab\there\"",
                ":YWJj:",
                "42"
            })
    void parseWhenNotOneShortStringThenIdempotencyKeyInvalid(String header) {
        assertThatThrownBy(() -> IdempotencyKey.parse(header))
                .isInstanceOfSatisfying(AssertionException.class, e -> assertThat(e.code())
                        .isEqualTo(ErrorCode.IDEMPOTENCY_KEY_INVALID))
                .hasMessageStartingWith("IDEMPOTENCY_KEY_INVALID: Idempotency-Key ");
    }

    @Test
    void parseWhenLongerThanTheBoundThenIdempotencyKeyInvalid() {
        String header = "\"" + "k".repeat(IdempotencyKey.MAX_LENGTH + 1) + "\"";

        assertThatThrownBy(() -> IdempotencyKey.parse(header))
                .isInstanceOf(AssertionException.class)
                .hasMessage("IDEMPOTENCY_KEY_INVALID: Idempotency-Key is longer than 255 characters");
    }

    @Test
    void toStringWhenLoggedThenTheKeyIsNotShown() {
        assertThat(new IdempotencyKey("secret-ish")).hasToString("IdempotencyKey[10 characters]");
    }
}
