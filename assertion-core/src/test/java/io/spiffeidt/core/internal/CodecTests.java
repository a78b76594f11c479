package io.spiffeidt.core.internal;

import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CodecTests {

    private static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

    /** The rule as first written: alphabet only, no length ≡ 1 (mod 4), and encoding back gives the same text. */
    private static boolean acceptedByDefinition(String text) {
        for (char c : text.toCharArray()) {
            if (ALPHABET.indexOf(c) < 0) {
                return false;
            }
        }
        if (text.length() % 4 == 1) {
            return false;
        }
        byte[] decoded = Base64.getUrlDecoder().decode(text);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(decoded).equals(text);
    }

    /** Whether {@code decoder} takes {@code text}; a refusal must be {@code MALFORMED}. */
    private static boolean accepted(Function<String, byte[]> decoder, String text) {
        try {
            decoder.apply(text);
            return true;
        } catch (AssertionException e) {
            assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED);
            return false;
        }
    }

    /**
     * {@code length} characters, mostly from {@code alphabet} (64 characters) so that both answers
     * occur often, one in ten from {@code chars}.
     */
    private static StringBuilder randomText(Random random, int length, String alphabet, String chars) {
        StringBuilder sb = new StringBuilder();
        for (int j = 0; j < length; j++) {
            sb.append(
                    random.nextInt(10) == 0
                            ? chars.charAt(random.nextInt(chars.length()))
                            : alphabet.charAt(random.nextInt(64)));
        }
        return sb;
    }

    @Test
    void fromB64urlWhenAnyShortTextThenAcceptsExactlyWhatTheDefinitionAccepts() {
        Random random = new Random(42);
        String chars = ALPHABET + "=+/ .\n\u00e9\u20ac";
        int acceptedCount = 0;
        for (int i = 0; i < 200_000; i++) {
            String text = randomText(random, random.nextInt(9), ALPHABET, chars).toString();
            boolean expected = acceptedByDefinition(text);
            assertThat(accepted(Codec::fromB64url, text)).as("'%s'", text).isEqualTo(expected);
            acceptedCount += expected ? 1 : 0;
        }
        assertThat(acceptedCount).isBetween(20_000, 180_000);
    }

    /** The std rule as first written: length ≡ 0 (mod 4), the decoder takes it, and encoding back gives the same text. */
    private static boolean stdAcceptedByDefinition(String text) {
        if (text.length() % 4 != 0) {
            return false;
        }
        try {
            return Base64.getEncoder()
                    .encodeToString(Base64.getDecoder().decode(text))
                    .equals(text);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    @Test
    void fromB64stdWhenAnyShortTextThenAcceptsExactlyWhatTheDefinitionAccepts() {
        Random random = new Random(43);
        String std = ALPHABET.substring(0, 62) + "+/";
        String chars = std + "-_ .\n\u00e9";
        int acceptedCount = 0;
        for (int i = 0; i < 200_000; i++) {
            StringBuilder sb = randomText(random, random.nextInt(13), std, chars);
            // padding where it may stand, and where it may not
            int pads = random.nextInt(4);
            for (int j = 0; j < pads && j < sb.length(); j++) {
                int at = random.nextInt(8) == 0 ? random.nextInt(sb.length()) : sb.length() - 1 - j;
                sb.setCharAt(at, '=');
            }
            String text = sb.toString();
            boolean expected = stdAcceptedByDefinition(text);
            assertThat(accepted(Codec::fromB64std, text)).as("'%s'", text).isEqualTo(expected);
            acceptedCount += expected ? 1 : 0;
        }
        assertThat(acceptedCount).isBetween(10_000, 190_000);
    }

    @Test
    void decodeWhenEncodedBytesThenSameBytesInBothAlphabets() {
        Random random = new Random(7);
        for (int length = 0; length < 70; length++) {
            byte[] data = new byte[length];
            random.nextBytes(data);
            assertThat(Codec.fromB64url(Codec.b64url(data))).isEqualTo(data);
            assertThat(Codec.fromB64std(Codec.b64std(data))).isEqualTo(data);
        }
    }

    @Test
    void utf8WhenAsciiOrValidUtf8ThenTextElseMalformed() {
        assertThat(Codec.utf8("{\"a\":1}".getBytes(StandardCharsets.UTF_8))).isEqualTo("{\"a\":1}");
        assertThat(Codec.utf8(new byte[0])).isEmpty();
        assertThat(Codec.utf8("caf\u00e9 \u20ac \ud83d\ude00".getBytes(StandardCharsets.UTF_8)))
                .isEqualTo("caf\u00e9 \u20ac \ud83d\ude00");
        // a lone continuation byte, a truncated sequence, an overlong '/', an encoded surrogate
        for (byte[] bad : new byte[][] {
            {'a', (byte) 0x80},
            {(byte) 0xE2, (byte) 0x82},
            {(byte) 0xC0, (byte) 0xAF},
            {(byte) 0xED, (byte) 0xA0, (byte) 0x80}
        }) {
            assertThatAssertion(() -> Codec.utf8(bad)).hasCode(ErrorCode.MALFORMED);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"QR", "QUF", "QQ==", "QQ", "Q", "QUJD+A", "QUJD/A", "QU JD", "QUJDé"})
    void fromB64urlWhenNonCanonicalPaddedOrOutsideTheAlphabetThenMalformed(String text) {
        // "QQ" is the one canonical spelling here: 'Q' then 'Q' = 0b010000 with its low 4 bits zero
        if (text.equals("QQ")) {
            assertThat(Codec.fromB64url(text)).containsExactly('A');
            return;
        }
        assertThatAssertion(() -> Codec.fromB64url(text)).hasCode(ErrorCode.MALFORMED);
    }
}
