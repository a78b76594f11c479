package io.spiffeidt.core.txntoken;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.internal.Codec;
import io.spiffeidt.core.internal.Es256;
import io.spiffeidt.core.internal.Json;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Mints Txn-Tokens as the Txn-Token Service (docs/formats/txn-token.md "Token exchange",
 * "Replacement"): a compact JWS, ES256 under the service's P-256 key, header {@code {"alg":"ES256",
 * "kid":<thumbprint>,"typ":"txntoken+jwt"}} (draft §9.1), claims {@code aud} (the trust domain),
 * {@code exp}, {@code iat}, {@code iss} (the service), {@code rctx.req_wls}, {@code req_wl}, {@code
 * scope}, {@code sub}, {@code tctx.dpa}, {@code txn} (draft §9.2, §11.3).
 *
 * <p>Thread safety: immutable and safe for concurrent use (a {@link java.security.Signature} is made
 * per call; the {@link SecureRandom} must be thread-safe, as the JDK's is).
 */
public final class TxnTokenMinter {

    /** The JWT {@code typ} of a Txn-Token (draft §9.1). */
    public static final String TYPE = "txntoken+jwt";

    private static final int TXN_BYTES = 16;

    private final PrivateKey privateKey;
    private final Provider provider;
    private final TxnTokenSettings settings;
    private final SecureRandom random;
    private final String keyId;

    /**
     * A minter for the service's key pair.
     *
     * @param privateKey the service's signing key (EC P-256)
     * @param publicKey its public key (for the {@code kid} and a self-check)
     * @param provider the JCA provider that signs
     * @param settings the trust domain, service, limits and lifetime
     * @param random the source of {@code txn}
     * @throws IllegalArgumentException when the key is not P-256 or the two keys are not a pair
     */
    public TxnTokenMinter(
            PrivateKey privateKey,
            PublicKey publicKey,
            Provider provider,
            TxnTokenSettings settings,
            SecureRandom random) {
        Objects.requireNonNull(privateKey, "privateKey");
        Objects.requireNonNull(publicKey, "publicKey");
        this.provider = Objects.requireNonNull(provider, "provider");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.random = Objects.requireNonNull(random, "random");
        this.privateKey = Es256.signingPair(privateKey, publicKey, provider, "Txn-Token Service");
        this.keyId = TxnTokenKeys.thumbprint(publicKey);
    }

    /** The {@code kid} this minter writes: the RFC 7638 thumbprint of its key. */
    public String keyId() {
        return keyId;
    }

    /** The settings this minter runs with. */
    public TxnTokenSettings settings() {
        return settings;
    }

    /**
     * Mints a token for {@code request} (draft §11.3): a fresh {@code txn}, {@code iat} = now, {@code
     * exp} = now + the lifetime, never past the subject token's {@code exp}.
     *
     * @throws AssertionException {@link ErrorCode#EXPIRED} when the subject token has expired (draft
     *     §6), {@link ErrorCode#MALFORMED} for an empty user or scope, {@link
     *     ErrorCode#LIMIT_EXCEEDED} for a claim or the token over its limit
     */
    public TxnToken mint(TxnTokenRequest request) {
        Objects.requireNonNull(request, "request");
        if (request.userIssuer().isEmpty()
                || request.subject().isEmpty()
                || request.scope().isBlank()) {
            throw new AssertionException(ErrorCode.MALFORMED, "empty user issuer, subject or scope");
        }
        Instant now = settings.timeRules().now();
        Instant subjectExp =
                Instant.ofEpochSecond(request.subjectTokenExpiresAt().getEpochSecond());
        if (!subjectExp.isAfter(now)) {
            throw new AssertionException(ErrorCode.EXPIRED, "the subject token has expired");
        }
        Instant lifetimeEnd = now.plusSeconds(settings.timeRules().lifetime().toSeconds());
        Instant exp = lifetimeEnd.isBefore(subjectExp) ? lifetimeEnd : subjectExp;
        String requester = request.requestingWorkload().toString();
        return sign(
                Codec.b64url(randomBytes()),
                request.subject(),
                request.userIssuer(),
                request.scope(),
                List.of(requester),
                now,
                exp);
    }

    /**
     * A replacement of {@code verified} requested by {@code requester} (draft §13.15): {@code txn},
     * {@code sub}, {@code aud}, {@code scope} and {@code tctx} unchanged, {@code requester} appended
     * to the chain of requesting workloads and made {@code req_wl}, a new {@code iat}, and an {@code
     * exp} that never passes the replaced token's (so a replacement never extends a lifetime, and
     * needs no count of replacements).
     *
     * @param verified a token {@link TxnTokenVerifier} verified (so not expired)
     * @throws AssertionException {@link ErrorCode#EXPIRED} when it has expired since, {@link
     *     ErrorCode#LIMIT_EXCEEDED} when the chain would be longer than the limits' depth
     */
    public TxnToken replace(TxnToken verified, SpiffeId requester) {
        Objects.requireNonNull(verified, "verified");
        Objects.requireNonNull(requester, "requester");
        Instant now = settings.timeRules().now();
        if (!verified.expiresAt().isAfter(now)) {
            throw new AssertionException(ErrorCode.EXPIRED, "the Txn-Token to replace has expired");
        }
        List<String> chain = new ArrayList<>(verified.requestChain());
        chain.add(requester.toString());
        settings.limits().checkDepth(chain.size());
        Instant lifetimeEnd = now.plusSeconds(settings.timeRules().lifetime().toSeconds());
        Instant exp = lifetimeEnd.isBefore(verified.expiresAt()) ? lifetimeEnd : verified.expiresAt();
        return sign(verified.txn(), verified.subject(), verified.userIssuer(), verified.scope(), chain, now, exp);
    }

    private TxnToken sign(
            String txn, String subject, String userIssuer, String scope, List<String> chain, Instant iat, Instant exp) {
        Limits limits = settings.limits();
        limits.checkClaim("sub", subject);
        limits.checkClaim("tctx.dpa", userIssuer);
        limits.checkClaim("scope", scope);
        Map<String, Object> header = new TreeMap<>();
        header.put("alg", "ES256");
        header.put("kid", keyId);
        header.put("typ", TYPE);

        Map<String, Object> claims = new TreeMap<>();
        claims.put("aud", settings.trustDomain());
        claims.put("exp", exp.getEpochSecond());
        claims.put("iat", iat.getEpochSecond());
        claims.put("iss", settings.service().toString());
        claims.put("rctx", Map.of("req_wls", List.copyOf(chain)));
        claims.put("req_wl", chain.get(chain.size() - 1));
        claims.put("scope", scope);
        claims.put("sub", subject);
        claims.put("tctx", Map.of("dpa", userIssuer));
        claims.put("txn", txn);

        String signingInput = Codec.b64url(Json.write(header)) + "." + Codec.b64url(Json.write(claims));
        byte[] der = Es256.sign(privateKey, signingInput.getBytes(StandardCharsets.US_ASCII), provider);
        String token = signingInput + "." + Codec.b64url(Es256.derToConcat(der));
        if (token.length() > settings.maxTokenLength()) {
            throw new AssertionException(
                    ErrorCode.LIMIT_EXCEEDED, "Txn-Token of " + token.length() + " characters over the limit");
        }
        return new TxnToken(
                token,
                keyId,
                txn,
                subject,
                userIssuer,
                scope,
                chain.get(chain.size() - 1),
                chain,
                settings.service().toString(),
                settings.trustDomain(),
                iat,
                exp);
    }

    private byte[] randomBytes() {
        byte[] b = new byte[TXN_BYTES];
        random.nextBytes(b);
        return b;
    }
}
