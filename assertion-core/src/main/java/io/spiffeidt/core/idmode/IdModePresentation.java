package io.spiffeidt.core.idmode;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.internal.Json;
import java.util.Map;
import java.util.Objects;

/**
 * What a hop hands to the next: the token text and its identity artifacts (docs/formats/id-mode.md
 * "Endpoints": {@code {"token","artifacts"}}). The minter and the extender return it; the verifier
 * accepts it.
 *
 * <p>JSON form ({@link #toJson()}): {@code {"token":"<dot token>","artifacts":<artifacts JSON
 * form>}}; {@link #parse} also accepts {@code artifacts} as the original concatenated-PEM string.
 * Other members are ignored.
 *
 * <p>Thread safety: immutable.
 *
 * @param token the dot-format token text
 * @param artifacts one certificate chain per layer, root first
 */
public record IdModePresentation(String token, IdModeArtifacts artifacts) {

    /** Requires both parts. */
    public IdModePresentation {
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(artifacts, "artifacts");
    }

    /** {@code {"token":…,"artifacts":[[…],…]}}, compact. */
    public String toJson() {
        StringBuilder sb = new StringBuilder(token.length() + artifacts.encodedSize() + 32);
        sb.append("{\"token\":");
        Json.writeString(sb, token);
        sb.append(",\"artifacts\":").append(artifacts.toJson()).append('}');
        return sb.toString();
    }

    /**
     * Parses the JSON form. The whole text is bounded by {@link Limits#maxEncodedSize()} before
     * it is read.
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED} or {@link ErrorCode#LIMIT_EXCEEDED}
     */
    public static IdModePresentation parse(String json, Limits limits) {
        Objects.requireNonNull(limits, "limits");
        if (json == null) {
            throw new AssertionException(ErrorCode.MALFORMED, "missing presentation");
        }
        limits.checkEncodedSize(json.length());
        Map<String, Object> body = IdModeJson.parseObject(json, -1);
        if (!(body.get("token") instanceof String token)) {
            throw new AssertionException(ErrorCode.MALFORMED, "presentation without a token string");
        }
        Object artifacts = body.get("artifacts");
        IdModeArtifacts parsed;
        if (artifacts instanceof String pem) {
            parsed = IdModeArtifacts.parsePem(pem, limits);
        } else if (artifacts != null) {
            parsed = IdModeArtifacts.fromJsonValue(artifacts, limits);
        } else {
            throw new AssertionException(ErrorCode.MALFORMED, "presentation without artifacts");
        }
        return new IdModePresentation(token, parsed);
    }

    /** Token and artifacts sizes. */
    public IdModeSize size() {
        return IdModeSize.of(this);
    }

    @Override
    public String toString() {
        return "IdModePresentation[tokenBytes=" + token.length() + ", layers=" + artifacts.size() + "]";
    }
}
