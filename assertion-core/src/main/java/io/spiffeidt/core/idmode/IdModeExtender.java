package io.spiffeidt.core.idmode;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.LayerInfo;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.internal.Claims;
import io.spiffeidt.core.internal.ProviderKeys;
import java.security.PrivateKey;
import java.security.Provider;
import java.time.Instant;
import java.util.Objects;

/**
 * Adds a hop's layer to an ID-Mode token (docs/formats/id-mode.md "Extension"): builds {@code P = {aud:
 * next, exp: min(now + lifetime, exp of the outermost layer, own certificate expiry), iat: now,
 * iss: self}}, signs {@code base64url(P) "." T} over the received text {@code T}, and returns
 * {@code base64url(P) "." T "." base64url(sig)} with the artifacts plus the own chain.
 *
 * <p>The hop's own ID must be the audience of the token it wraps, otherwise the result could
 * never verify ({@link ErrorCode#BROKEN_LINK}).
 *
 * <p>Thread safety: immutable and safe for concurrent use. Rotate credentials by making a new
 * extender.
 */
public final class IdModeExtender {

    private final IdModeCredentials self;
    private final TimeRules timeRules;
    private final Limits limits;
    private final Provider provider;
    private final PrivateKey signingKey;

    /**
     * An extended token and the times of the layer added to it (so that no caller parses the
     * extension to read them).
     *
     * @param presentation the extended token and artifacts
     * @param issuedAt the new layer's {@code iat}
     * @param expiresAt the new layer's {@code exp}
     */
    public record Extension(IdModePresentation presentation, Instant issuedAt, Instant expiresAt) {

        /** Requires every part. */
        public Extension {
            Objects.requireNonNull(presentation, "presentation");
            Objects.requireNonNull(issuedAt, "issuedAt");
            Objects.requireNonNull(expiresAt, "expiresAt");
        }
    }

    /** An extender for {@code self} with default limits. */
    public IdModeExtender(IdModeCredentials self, TimeRules timeRules, Provider provider) {
        this(self, timeRules, Limits.defaults(), provider);
    }

    /**
     * An extender.
     *
     * @param self the hop's own SVID key and chain
     * @param timeRules clock, lifetime, and the original-compatible max age (for inner tokens
     *     without {@code exp})
     * @param limits size and depth limits of the result
     * @param provider the JCA provider for ECDSA
     */
    public IdModeExtender(IdModeCredentials self, TimeRules timeRules, Limits limits, Provider provider) {
        this.self = Objects.requireNonNull(self, "self");
        this.timeRules = Objects.requireNonNull(timeRules, "timeRules");
        this.limits = Objects.requireNonNull(limits, "limits");
        this.provider = Objects.requireNonNull(provider, "provider");
        this.signingKey = ProviderKeys.forSigning(self.privateKey(), provider);
    }

    /**
     * Extends a token this hop has verified, addressed to {@code nextHop}.
     *
     * @throws AssertionException {@link ErrorCode#BROKEN_LINK} when the token was not addressed to
     *     this hop, {@link ErrorCode#LIMIT_EXCEEDED} when the result is too deep or too large,
     *     {@link ErrorCode#EXPIRED} when nothing of the lifetime is left
     */
    public IdModePresentation extend(VerifiedIdMode verified, SpiffeId nextHop) {
        return extendLayer(verified, nextHop).presentation();
    }

    /**
     * {@link #extend(VerifiedIdMode, SpiffeId)}, with the times of the new layer.
     *
     * @throws AssertionException as {@link #extend(VerifiedIdMode, SpiffeId)}
     */
    public Extension extendLayer(VerifiedIdMode verified, SpiffeId nextHop) {
        Objects.requireNonNull(verified, "verified");
        LayerInfo outer = verified.result().outermost();
        return extend(verified.presentation(), verified.depth(), verified.audience(), outer.expiresAt(), nextHop);
    }

    /**
     * Extends a received token without verifying it (the caller must have verified it with an
     * {@link IdModeVerifier}); only parses it to find the outermost audience and expiry. An
     * outermost layer without {@code exp} (an original token) counts as expiring at {@code iat}
     * plus the original-compatible max age.
     *
     * @throws AssertionException as {@link #extend(VerifiedIdMode, SpiffeId)}, and {@link
     *     ErrorCode#MALFORMED} when the token does not parse or the artifacts do not match it
     */
    public IdModePresentation extend(IdModePresentation received, SpiffeId nextHop) {
        Objects.requireNonNull(received, "received");
        IdModeToken.Outermost token = IdModeToken.outermost(received.token(), limits);
        if (received.artifacts().size() != token.depth()) {
            throw new AssertionException(ErrorCode.MALFORMED, "artifacts do not match the token's layers");
        }
        IdModeClaims outer = token.claims();
        Instant innerExp =
                outer.expiresAt() != null ? outer.expiresAt() : outer.issuedAt().plus(timeRules.originalMaxAge());
        return extend(received, token.depth(), outer.audience(), innerExp, nextHop)
                .presentation();
    }

    private Extension extend(
            IdModePresentation received, int depth, SpiffeId audience, Instant innerExp, SpiffeId nextHop) {
        Objects.requireNonNull(nextHop, "nextHop");
        if (!self.spiffeId().equals(audience)) {
            throw new AssertionException(
                    ErrorCode.BROKEN_LINK, depth, "token is addressed to " + audience + ", not to " + self.spiffeId());
        }
        limits.checkDepth(depth + 1);
        Instant now = timeRules.now();
        Instant exp = Claims.min(Claims.min(now.plus(timeRules.lifetime()), innerExp), self.notAfter());
        exp = Instant.ofEpochSecond(exp.getEpochSecond());
        if (!exp.isAfter(now)) {
            throw new AssertionException(ErrorCode.EXPIRED, depth, "inner token or own certificate already expired");
        }
        IdModeClaims claims = IdModeClaims.hop(self.spiffeId(), nextHop, now, exp);
        String token = IdModeSigning.wrap(received.token(), claims, signingKey, provider);
        limits.checkEncodedSize(token.length());
        return new Extension(
                new IdModePresentation(token, received.artifacts().append(self.chain())),
                Instant.ofEpochSecond(now.getEpochSecond()),
                exp);
    }

    /** The extending workload's SPIFFE ID. */
    public SpiffeId spiffeId() {
        return self.spiffeId();
    }
}
