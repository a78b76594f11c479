package io.spiffeidt.core.txntoken;

import io.spiffeidt.core.Limits;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TimeRules;
import java.time.Clock;
import java.util.Locale;
import java.util.Objects;

/**
 * Settings of the Txn-Token minter and verifier (docs/formats/txn-token.md "Claims", "Verification").
 *
 * <p>Thread safety: immutable.
 *
 * @param trustDomain the trust domain the tokens are valid in: the {@code aud} of every token minted
 *     and the only {@code aud} accepted (draft §9.2)
 * @param service the SPIFFE ID of the Txn-Token Service: the {@code iss} it writes, and the only
 *     {@code iss} accepted when a token carries one
 * @param limits claim and chain limits ({@link Limits#maxClaimLength()}, {@link Limits#maxDepth()}
 *     for the chain of requesting workloads)
 * @param timeRules clock, skew and the lifetime of a minted token
 * @param maxTokenLength the longest token accepted or minted, characters (default {@value
 *     #DEFAULT_MAX_TOKEN_LENGTH})
 */
public record TxnTokenSettings(
        String trustDomain, SpiffeId service, Limits limits, TimeRules timeRules, int maxTokenLength) {

    /** The longest token by default: a Txn-Token is a few hundred bytes; 16 KiB leaves room for context. */
    public static final int DEFAULT_MAX_TOKEN_LENGTH = 16 * 1024;

    /** Validates the values and lower-cases the trust domain. */
    public TxnTokenSettings {
        Objects.requireNonNull(trustDomain, "trustDomain");
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(timeRules, "timeRules");
        trustDomain = trustDomain.toLowerCase(Locale.ROOT);
        if (trustDomain.isEmpty()) {
            throw new IllegalArgumentException("trust domain must not be empty");
        }
        if (maxTokenLength < 256 || maxTokenLength > limits.maxEncodedSize()) {
            throw new IllegalArgumentException("maxTokenLength must be between 256 and " + limits.maxEncodedSize());
        }
    }

    /** The defaults: the service's own trust domain, default limits and time rules on {@code clock}. */
    public static TxnTokenSettings defaults(SpiffeId service, Clock clock) {
        return new TxnTokenSettings(
                service.trustDomain(), service, Limits.defaults(), TimeRules.defaults(clock), DEFAULT_MAX_TOKEN_LENGTH);
    }

    /** A copy with other time rules. */
    public TxnTokenSettings withTimeRules(TimeRules newTimeRules) {
        return new TxnTokenSettings(trustDomain, service, limits, newTimeRules, maxTokenLength);
    }

    /** A copy with another longest token. */
    public TxnTokenSettings withMaxTokenLength(int newMaxTokenLength) {
        return new TxnTokenSettings(trustDomain, service, limits, timeRules, newMaxTokenLength);
    }

    /** A copy with another trust domain (the {@code aud} minted and accepted). */
    public TxnTokenSettings withTrustDomain(String newTrustDomain) {
        return new TxnTokenSettings(newTrustDomain, service, limits, timeRules, maxTokenLength);
    }
}
