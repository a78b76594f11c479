package io.spiffeidt.core.internal;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The public part of an OAuth RS256 JWT, {@code header.payload} (the {@code msg} of a proof of
 * docs/formats/dvid.md "The zero-knowledge proof"), read strictly; and the split of a whole token into that
 * part and its signature (the prover's witness). Shared by DVID's embedded proof and the
 * introspection answer of every mode. Not API.
 *
 * <p>Thread safety: immutable.
 *
 * @param kid the header's {@code kid}, {@code ""} when absent
 * @param issuer the payload's {@code iss}
 * @param subject the payload's {@code sub}
 */
public record OAuthMessage(String kid, String issuer, String subject) {

    /**
     * Parses {@code msg}.
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED}, {@link ErrorCode#UNSUPPORTED} (not
     *     RS256) or {@link ErrorCode#LIMIT_EXCEEDED}
     */
    public static OAuthMessage parse(String msg, Limits limits) {
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

    /**
     * The {@code header.payload} of a compact JWS OAuth token: everything before its last dot.
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED} for a token that is not a compact JWS
     */
    public static String msgOf(String oauthToken) {
        if (oauthToken == null) {
            throw new AssertionException(ErrorCode.MALFORMED, "missing OAuth token");
        }
        int last = oauthToken.lastIndexOf('.');
        if (last <= 0) {
            throw new AssertionException(ErrorCode.MALFORMED, "OAuth token is not a compact JWS");
        }
        String msg = oauthToken.substring(0, last);
        if (msg.indexOf('.') <= 0 || msg.indexOf('.') != msg.lastIndexOf('.')) {
            throw new AssertionException(ErrorCode.MALFORMED, "OAuth token is not a compact JWS");
        }
        return msg;
    }

    /**
     * The decoded signature of a compact JWS OAuth token (the prover's witness; a fresh array).
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED} for a token that is not a compact JWS
     */
    public static byte[] signatureOf(String oauthToken) {
        String msg = msgOf(oauthToken);
        return Codec.fromB64url(oauthToken.substring(msg.length() + 1));
    }

    /** The bytes the IdP signed: the ASCII of {@code msg}. */
    public static byte[] signingInput(String msg) {
        return msg.getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Requires {@code iss == dpa} and {@code sub == dpr}.
     *
     * @throws AssertionException {@link ErrorCode#DELEGATION_INVALID} otherwise
     */
    public void requireDelegation(String dpa, String dpr) {
        if (!issuer.equals(dpa) || !subject.equals(dpr)) {
            throw new AssertionException(
                    ErrorCode.DELEGATION_INVALID, "the OAuth token of the proof is not the one of dpa / dpr");
        }
    }
}
