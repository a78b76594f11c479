package io.spiffeidt.core.anonmode;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TimeRules;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Mints Anon-Mode root tokens for the asserting workload (docs/formats/anon-mode.md "Minting"): a fresh
 * random root key {@code x0} per token, claims {@code aud} (the caller's SPIFFE ID), {@code dpa},
 * {@code dpr}, {@code exp}, {@code iat}, {@code iss = base64url(enc(Y_0))}, signed with {@code x0}.
 * The root key is forgotten after signing; its link to the asserting workload is the
 * introspection record of {@link MintedAnonMode#rootIdentifier()}.
 *
 * <p>Thread safety: safe for concurrent use (given a thread-safe {@link NonceSource}).
 */
public final class AnonModeMinter {

    private final AnonModeSettings settings;
    private final NonceSource nonces;

    /**
     * A minter.
     *
     * @param settings the time rules and limits
     * @param nonces where the root keys and nonces come from ({@link NonceSource#secureRandom()})
     */
    public AnonModeMinter(AnonModeSettings settings, NonceSource nonces) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.nonces = Objects.requireNonNull(nonces, "nonces");
    }

    /**
     * Mints a root valid for the configured lifetime.
     *
     * @see #mint(SpiffeId, String, String, Instant)
     */
    public MintedAnonMode mint(SpiffeId audience, String dpa, String dpr) {
        return mint(audience, dpa, dpr, null);
    }

    /**
     * Mints a root.
     *
     * @param audience the caller's SPIFFE ID (the subject workload)
     * @param dpa the OAuth token's {@code iss}
     * @param dpr the OAuth token's {@code sub}
     * @param notAfter the latest allowed {@code exp} (the OAuth token's expiry), or {@code null}
     * @return the token and its root identifier
     * @throws AssertionException {@link ErrorCode#MALFORMED} for a missing {@code dpa}/{@code dpr},
     *     {@link ErrorCode#LIMIT_EXCEEDED} for an over-long one, {@link ErrorCode#EXPIRED} when
     *     {@code notAfter} has passed
     */
    public MintedAnonMode mint(SpiffeId audience, String dpa, String dpr, Instant notAfter) {
        Objects.requireNonNull(audience, "audience");
        if (dpa == null || dpa.isEmpty() || dpr == null || dpr.isEmpty()) {
            throw new AssertionException(ErrorCode.MALFORMED, "dpa and dpr are required");
        }
        settings.limits().checkClaim("dpa", dpa);
        settings.limits().checkClaim("dpr", dpr);
        TimeRules time = settings.timeRules();
        Instant now = time.now();
        Instant exp = now.plus(time.lifetime());
        if (notAfter != null) {
            if (!notAfter.isAfter(now)) {
                throw new AssertionException(ErrorCode.EXPIRED, "the delegation source has expired");
            }
            if (notAfter.isBefore(exp)) {
                exp = Instant.ofEpochSecond(notAfter.getEpochSecond());
            }
        }
        Map<String, Object> claims = new LinkedHashMap<>();
        claims.put("aud", audience.toString());
        claims.put("dpa", dpa);
        claims.put("dpr", dpr);
        claims.put("exp", exp.getEpochSecond());
        claims.put("iat", now.getEpochSecond());
        AnonModeLayer root = AnonModeTokens.signRoot(claims, SchnorrKeyPair.generate(nonces), nonces);
        settings.limits().checkEncodedSize(root.token().length());
        return new MintedAnonMode(
                root.token(),
                AnonModeTokens.rootIdentifier(root.token(), settings.limits()),
                root.publicKey().toBase64Url(),
                now,
                exp);
    }
}
