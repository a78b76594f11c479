package io.spiffeidt.core.wimse;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.internal.Codec;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The token hash of a WPT's {@code wth} and {@code tth} claims (draft-ietf-wimse-wpt-02 §2;
 * docs/formats/wimse.md "Hashes"): the base64url encoding, without padding, of the SHA-256 of the
 * bytes of the token's ASCII representation.
 *
 * <p>Thread safety: stateless.
 */
public final class TokenHash {

    private TokenHash() {}

    /**
     * The hash of {@code token}.
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED} when the token is missing, empty or not
     *     printable ASCII (no JWS is: a non-ASCII token would hash as something else)
     */
    public static String of(String token) {
        if (token == null || token.isEmpty()) {
            throw new AssertionException(ErrorCode.MALFORMED, "missing token to hash");
        }
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            if (c < 0x21 || c > 0x7E) {
                throw new AssertionException(ErrorCode.MALFORMED, "token is not printable ASCII");
            }
        }
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            return Codec.b64url(sha256.digest(token.getBytes(StandardCharsets.US_ASCII)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JDK", e);
        }
    }

    /** Whether {@code hash} is the hash of {@code token}, compared in constant time. */
    static boolean matches(String hash, String token) {
        return MessageDigest.isEqual(
                of(token).getBytes(StandardCharsets.US_ASCII), hash.getBytes(StandardCharsets.US_ASCII));
    }
}
