package io.spiffeidt.core.dvid;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.internal.Claims;
import io.spiffeidt.core.internal.Codec;
import io.spiffeidt.core.internal.Json;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The public part of an OAuth RS256 JWT, {@code header.payload} (the {@code msg} of a proof), read
 * strictly. Package-private helper.
 *
 * @param kid the header's {@code kid}, {@code ""} when absent
 * @param issuer the payload's {@code iss}
 * @param subject the payload's {@code sub}
 *     <p>Thread safety: immutable.
 */
record OAuthMessage(String kid, String issuer, String subject) {

    /**
     * Parses {@code msg}.
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED}, {@link ErrorCode#UNSUPPORTED} (not
     *     RS256) or {@link ErrorCode#LIMIT_EXCEEDED}
     */
    static OAuthMessage parse(String msg, Limits limits) {
        if (msg == null) {
            throw new AssertionException(ErrorCode.MALFORMED, "missing OAuth msg");
        }
        limits.checkEncodedSize(msg.length());
        int dot = msg.indexOf('.');
        if (dot <= 0 || dot == msg.length() - 1 || msg.indexOf('.', dot + 1) >= 0) {
            throw new AssertionException(ErrorCode.MALFORMED, "OAuth msg is not header.payload");
        }
        Map<String, Object> header = Json.parseObject(Codec.utf8(Codec.fromB64url(msg.substring(0, dot))));
        Map<String, Object> payload = Json.parseObject(Codec.utf8(Codec.fromB64url(msg.substring(dot + 1))));
        if (!"RS256".equals(header.get("alg"))) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, "OAuth token is not RS256");
        }
        String kid = Claims.optString(header, "kid", limits, -1);
        return new OAuthMessage(
                kid == null ? "" : kid,
                Claims.string(payload, "iss", limits, -1),
                Claims.string(payload, "sub", limits, -1));
    }

    /** The bytes the IdP signed: the ASCII of {@code msg}. */
    static byte[] signingInput(String msg) {
        return msg.getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Requires {@code iss == dpa} and {@code sub == dpr}.
     *
     * @throws AssertionException {@link ErrorCode#DELEGATION_INVALID} otherwise
     */
    void requireDelegation(String dpa, String dpr) {
        if (!issuer.equals(dpa) || !subject.equals(dpr)) {
            throw new AssertionException(
                    ErrorCode.DELEGATION_INVALID, "the OAuth token of the proof is not the one of dpa / dpr");
        }
    }
}
