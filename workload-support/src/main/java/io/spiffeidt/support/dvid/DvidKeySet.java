package io.spiffeidt.support.dvid;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.dvid.DvidKeyResolver;
import io.spiffeidt.core.dvid.DvidKeys;
import java.security.Provider;
import java.security.PublicKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The asserting workload's DVID keys as a workload that verifies DVIDs itself holds them
 * (docs/formats/dvid.md §3 step 2): its JWKS ({@code GET /dvid/keys}), fetched at the first use and
 * again at the first use after {@link #MAX_AGE}; a {@code kid} it does not hold makes it fetch again,
 * at most once per {@link #UNKNOWN_KID_INTERVAL}.
 *
 * <p>Fails closed: a key set that could not be fetched or read, or is older than {@link #MAX_AGE}
 * and could not be fetched again, serves no key ({@link ErrorCode#UPSTREAM_UNAVAILABLE}); a key that
 * left the asserting workload's set is gone here at the latest {@link #MAX_AGE} later.
 *
 * <p>Thread safety: thread safe; one fetch at a time, the others wait for its result.
 */
public final class DvidKeySet implements DvidKeyResolver {

    /** The longest a fetched key set serves. */
    public static final Duration MAX_AGE = Duration.ofMinutes(5);

    /** The shortest time between two fetches made for an unknown {@code kid}. */
    public static final Duration UNKNOWN_KID_INTERVAL = Duration.ofSeconds(30);

    private record Fetched(Map<String, PublicKey> keys, Instant at) {}

    private final Supplier<String> fetch;
    private final Provider provider;
    private final Clock clock;

    private volatile Fetched current;
    /** When the last fetch was tried; guarded by {@code this}. */
    private Instant lastAttempt;

    /**
     * @param fetch returns the asserting workload's JWKS text; throws {@link AssertionException}
     *     (or another runtime exception) when it cannot
     * @param provider builds the keys
     * @param clock the time the ages are measured in
     */
    public DvidKeySet(Supplier<String> fetch, Provider provider, Clock clock) {
        this.fetch = Objects.requireNonNull(fetch, "fetch");
        this.provider = Objects.requireNonNull(provider, "provider");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public PublicKey resolve(String kid) {
        Instant now = clock.instant();
        Fetched seen = current;
        if (seen == null || !now.isBefore(seen.at().plus(MAX_AGE))) {
            seen = refresh(seen, now, false);
        }
        PublicKey key = seen.keys().get(kid);
        if (key == null) {
            key = refresh(seen, now, true).keys().get(kid);
        }
        if (key == null) {
            throw new AssertionException(ErrorCode.UNTRUSTED_KEY, "unknown DVID key id");
        }
        return key;
    }

    private synchronized Fetched refresh(Fetched seen, Instant now, boolean forUnknownKid) {
        Fetched held = current;
        if (held != seen && held != null && now.isBefore(held.at().plus(MAX_AGE))) {
            // another thread fetched meanwhile
            return held;
        }
        if (forUnknownKid && lastAttempt != null && now.isBefore(lastAttempt.plus(UNKNOWN_KID_INTERVAL))) {
            return held;
        }
        lastAttempt = now;
        Map<String, PublicKey> keys;
        try {
            keys = DvidKeys.parse(fetch.get(), provider);
        } catch (RuntimeException e) {
            ErrorCode code = e instanceof AssertionException a ? a.code() : null;
            throw new AssertionException(
                    ErrorCode.UPSTREAM_UNAVAILABLE,
                    "the asserting workload's DVID keys could not be fetched" + (code == null ? "" : " (" + code + ")"),
                    e);
        }
        Fetched fetched = new Fetched(keys, now);
        current = fetched;
        return fetched;
    }
}
