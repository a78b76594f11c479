package io.spiffeidt.core.anonmode;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.internal.Claims;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Extends an Anon-Mode token by one hop (docs/formats/anon-mode.md "Extension"): the hop's key is the
 * previous signature's {@code s}, the previous full signature is stripped to its {@code R}, and the
 * new layer {@code {exp, iat, iss}} ({@code iid} only when {@link AnonModeSettings#includeIid()})
 * is signed over {@code P(k) + "." + stripped}. {@code exp} is the earlier of now + lifetime and the
 * received token's outermost expiry.
 *
 * <p>Whoever holds a complete token can extend it, and two extensions of one token both verify (a
 * fork): both follow from the scheme. The extender checks the token's shape and expiry, not its
 * signatures: services verify with {@link AnonModeVerifier} before extending.
 *
 * <p>Thread safety: safe for concurrent use (given a thread-safe {@link NonceSource}).
 */
public final class AnonModeExtender {

    private final AnonModeSettings settings;
    private final NonceSource nonces;

    /**
     * An extended token and the times of the layer added to it.
     *
     * @param token the extended token
     * @param issuedAt the new layer's {@code iat}
     * @param expiresAt the new layer's {@code exp}
     */
    public record Extension(String token, Instant issuedAt, Instant expiresAt) {}

    /**
     * An extender.
     *
     * @param settings time rules, limits, and whether to write {@code iid}
     * @param nonces where the nonces come from ({@link NonceSource#secureRandom()})
     */
    public AnonModeExtender(AnonModeSettings settings, NonceSource nonces) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.nonces = Objects.requireNonNull(nonces, "nonces");
    }

    /**
     * Extends {@code token} by one anonymous layer.
     *
     * @param token the complete token as received
     * @param self the extending workload's own SPIFFE ID, written as {@code iid} only when the
     *     settings ask for it (may be {@code null} otherwise)
     * @return the extended token
     * @throws AssertionException {@link ErrorCode#MALFORMED} when the token is not a complete
     *     Anon-Mode token, {@link ErrorCode#EXPIRED} when it has expired, {@link
     *     ErrorCode#LIMIT_EXCEEDED} when the result would exceed a limit
     */
    public String extend(String token, SpiffeId self) {
        return extendLayer(token, self).token();
    }

    /**
     * {@link #extend(String, SpiffeId)}, with the times of the new layer.
     *
     * @throws AssertionException as {@link #extend(String, SpiffeId)}
     */
    public Extension extendLayer(String token, SpiffeId self) {
        return extendLayer(AnonModeToken.parse(token, settings.limits()), self);
    }

    /**
     * {@link #extendLayer(String, SpiffeId)} of a token this workload verified ({@link
     * AnonModeVerifier#verifyOnce}), over the verifier's parse instead of parsing the text again; the
     * size and depth limits of this extender are checked again, as a parse would.
     *
     * @throws AssertionException as {@link #extend(String, SpiffeId)}
     */
    public Extension extendLayer(VerifiedAnonMode verified, SpiffeId self) {
        AnonModeToken parsed = verified.parsed();
        // the shape checks of a parse hold under any limits; these two depend on them
        settings.limits().checkEncodedSize(verified.token().length());
        settings.limits().checkDepth(parsed.depth());
        return extendLayer(parsed, self);
    }

    private Extension extendLayer(AnonModeToken parsed, SpiffeId self) {
        if (settings.includeIid()) {
            Objects.requireNonNull(self, "self (written as iid)");
        }
        int outer = parsed.depth() - 1;
        Map<String, Object> outerClaims = parsed.claims(outer);
        TimeRules time = settings.timeRules();
        Instant now = time.now();
        Instant innerExp = Claims.optTime(outerClaims, "exp", outer);
        if (innerExp == null) {
            Instant iat = Claims.optTime(outerClaims, "iat", outer);
            innerExp = iat == null ? null : iat.plus(time.originalMaxAge());
        }
        if (innerExp != null && now.isAfter(innerExp.plus(time.skew()))) {
            throw new AssertionException(ErrorCode.EXPIRED, outer, "the token to extend has expired");
        }
        Instant exp = Instant.ofEpochSecond(
                Claims.min(now.plus(time.lifetime()), innerExp).getEpochSecond());
        Instant iat = Instant.ofEpochSecond(now.getEpochSecond());
        Map<String, Object> claims = new LinkedHashMap<>();
        claims.put("exp", exp.getEpochSecond());
        claims.put("iat", iat.getEpochSecond());
        if (settings.includeIid()) {
            claims.put("iid", self.toString());
        }
        return new Extension(
                AnonModeTokens.extend(parsed, claims, nonces, settings.limits()).token(), iat, exp);
    }
}
