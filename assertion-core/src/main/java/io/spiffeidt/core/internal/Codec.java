package io.spiffeidt.core.internal;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Strict encodings of docs/formats/common.md "Encodings". Not API.
 *
 * <p>Thread safety: stateless.
 */
public final class Codec {

    private static final Base64.Encoder URL_ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder URL_DECODER = Base64.getUrlDecoder();
    private static final Base64.Encoder STD_ENCODER = Base64.getEncoder();
    private static final Base64.Decoder STD_DECODER = Base64.getDecoder();

    private Codec() {}

    /** base64url without padding. */
    public static String b64url(byte[] data) {
        return URL_ENCODER.encodeToString(data);
    }

    /** base64url of the UTF-8 bytes of {@code text}. */
    public static String b64url(String text) {
        return b64url(text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Decodes base64url strictly: no padding, no {@code + / =}, no whitespace, no non-zero
     * trailing bits.
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED}
     */
    public static byte[] fromB64url(String text) {
        if (text == null) {
            throw new AssertionException(ErrorCode.MALFORMED, "missing base64url value");
        }
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            boolean ok =
                    (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
            if (!ok) {
                throw new AssertionException(ErrorCode.MALFORMED, "invalid base64url character");
            }
        }
        if (n % 4 == 1) {
            throw new AssertionException(ErrorCode.MALFORMED, "invalid base64url length");
        }
        byte[] out = URL_DECODER.decode(text);
        if (!URL_ENCODER.encodeToString(out).equals(text)) {
            throw new AssertionException(ErrorCode.MALFORMED, "non-canonical base64url");
        }
        return out;
    }

    /** std base64 with padding. */
    public static String b64std(byte[] data) {
        return STD_ENCODER.encodeToString(data);
    }

    /**
     * Decodes std base64 strictly (padding required, canonical trailing bits).
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED}
     */
    public static byte[] fromB64std(String text) {
        if (text == null || text.length() % 4 != 0) {
            throw new AssertionException(ErrorCode.MALFORMED, "invalid base64 length");
        }
        byte[] out;
        try {
            out = STD_DECODER.decode(text);
        } catch (IllegalArgumentException e) {
            throw new AssertionException(ErrorCode.MALFORMED, "invalid base64");
        }
        if (!STD_ENCODER.encodeToString(out).equals(text)) {
            throw new AssertionException(ErrorCode.MALFORMED, "non-canonical base64");
        }
        return out;
    }

    /**
     * Decodes UTF-8 strictly (malformed input is an error, not a replacement character).
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED}
     */
    public static String utf8(byte[] data) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(data))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new AssertionException(ErrorCode.MALFORMED, "invalid UTF-8");
        }
    }

    /** Lower-case hex. */
    public static String hex(byte[] data) {
        StringBuilder sb = new StringBuilder(data.length * 2);
        for (byte b : data) {
            sb.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
        }
        return sb.toString();
    }

    /** Parses hex (either case). @throws IllegalArgumentException on bad input */
    public static byte[] fromHex(String hex) {
        if (hex.length() % 2 != 0) {
            throw new IllegalArgumentException("odd hex length");
        }
        byte[] out = new byte[hex.length() / 2];
        for (int i = 0; i < out.length; i++) {
            int hi = Character.digit(hex.charAt(2 * i), 16);
            int lo = Character.digit(hex.charAt(2 * i + 1), 16);
            if (hi < 0 || lo < 0) {
                throw new IllegalArgumentException("invalid hex digit");
            }
            out[i] = (byte) ((hi << 4) | lo);
        }
        return out;
    }
}
