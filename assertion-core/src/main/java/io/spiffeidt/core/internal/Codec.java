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
        // the URL decoder refuses every character outside the alphabet except the padding '='
        if (text.indexOf('=') >= 0) {
            throw new AssertionException(ErrorCode.MALFORMED, "invalid base64url character");
        }
        if (n % 4 == 1) {
            throw new AssertionException(ErrorCode.MALFORMED, "invalid base64url length");
        }
        byte[] out;
        try {
            out = URL_DECODER.decode(text);
        } catch (IllegalArgumentException e) {
            throw new AssertionException(ErrorCode.MALFORMED, "invalid base64url character");
        }
        // canonical: the bits of the last character below the last whole byte are zero (the decoder
        // ignores them, so two spellings would decode alike); checked here instead of encoding again
        int unusedBits = n % 4 == 2 ? 0x0F : n % 4 == 3 ? 0x03 : 0;
        if (unusedBits != 0 && (b64Value(text.charAt(n - 1)) & unusedBits) != 0) {
            throw new AssertionException(ErrorCode.MALFORMED, "non-canonical base64url");
        }
        return out;
    }

    /**
     * The 6-bit value of a base64 or base64url alphabet character (the caller has checked it is one
     * of the alphabet it decodes).
     */
    private static int b64Value(char c) {
        if (c >= 'A' && c <= 'Z') {
            return c - 'A';
        }
        if (c >= 'a' && c <= 'z') {
            return c - 'a' + 26;
        }
        if (c >= '0' && c <= '9') {
            return c - '0' + 52;
        }
        return c == '-' || c == '+' ? 62 : 63;
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
        // canonical: the padded quantum's last character has zero bits below its last whole byte (the
        // decoder accepts only "xx==", "xxx=" or no padding, and ignores those bits)
        int n = text.length();
        int pad = n == 0 || text.charAt(n - 1) != '=' ? 0 : text.charAt(n - 2) == '=' ? 2 : 1;
        int unusedBits = pad == 2 ? 0x0F : pad == 1 ? 0x03 : 0;
        if (unusedBits != 0 && (b64Value(text.charAt(n - 1 - pad)) & unusedBits) != 0) {
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
        // ASCII, the usual case for documents, is valid UTF-8 as it is: one compact String, where the
        // strict decoder builds a char buffer twice the size and copies it again (the largest share of
        // an LSVID hop's allocation)
        if (isAscii(data)) {
            return new String(data, StandardCharsets.US_ASCII);
        }
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

    private static boolean isAscii(byte[] data) {
        for (byte b : data) {
            if (b < 0) {
                return false;
            }
        }
        return true;
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
