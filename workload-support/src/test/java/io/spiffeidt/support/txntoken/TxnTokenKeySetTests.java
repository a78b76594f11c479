package io.spiffeidt.support.txntoken;

import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.txntoken.TxnTokenKeys;
import io.spiffeidt.support.crypto.CryptoProviderChoice;
import io.spiffeidt.support.crypto.SignatureProvider;
import io.spiffeidt.testkit.MutableClock;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * {@link TxnTokenKeySet}: the Txn-Token Service's keys through the shared {@link
 * io.spiffeidt.support.keys.FetchedKeySet} (whose TTL, failure and rate-limit rules {@code DvidKeySetTests}
 * covers): a key served by {@code kid}, a rotated one fetched, a set breaking the Txn-Token JWKS rules refused.
 */
class TxnTokenKeySetTests {

    private static final PublicKey FIRST = ecKey();
    private static final PublicKey SECOND = ecKey();
    private static final String FIRST_KID = TxnTokenKeys.thumbprint(FIRST);
    private static final String SECOND_KID = TxnTokenKeys.thumbprint(SECOND);

    private final MutableClock clock = MutableClock.at(Instant.parse("2026-11-26T12:00:00Z"));
    private final AtomicInteger fetches = new AtomicInteger();
    /** What the Txn-Token Service publishes now. */
    private Supplier<String> published = () -> TxnTokenKeys.jwks(FIRST);

    private final TxnTokenKeySet keys = new TxnTokenKeySet(
            () -> {
                fetches.incrementAndGet();
                return published.get();
            },
            new SignatureProvider(CryptoProviderChoice.SUN).provider(),
            clock);

    private static PublicKey ecKey() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            return generator.generateKeyPair().getPublic();
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void resolveWhenKnownKidThenOneFetchServesEveryUseWhileYoung() {
        assertThat(keys.resolve(FIRST_KID)).isEqualTo(FIRST);
        clock.advance(TxnTokenKeySet.MAX_AGE.minusSeconds(1));
        assertThat(keys.resolve(FIRST_KID)).isEqualTo(FIRST);
        assertThat(fetches).hasValue(1);
    }

    @Test
    void resolveWhenUnknownKidThenFetchesAgainAtMostTwicePerInterval() {
        assertThat(keys.resolve(FIRST_KID)).isEqualTo(FIRST);
        clock.advance(Duration.ofSeconds(1));
        published = () -> TxnTokenKeys.jwks(FIRST, SECOND);

        // a rotated key is found at once
        assertThat(keys.resolve(SECOND_KID)).isEqualTo(SECOND);
        assertThat(fetches).hasValue(2);
        // a flood of unknown kids costs no more fetch in this interval
        for (int i = 0; i < 10; i++) {
            assertThatAssertion(() -> keys.resolve("nope")).hasCode(ErrorCode.UNTRUSTED_KEY);
        }
        assertThat(fetches).hasValue(2);

        // and two in the next
        clock.advance(TxnTokenKeySet.UNKNOWN_KID_INTERVAL);
        for (int i = 0; i < 10; i++) {
            assertThatAssertion(() -> keys.resolve("nope")).hasCode(ErrorCode.UNTRUSTED_KEY);
        }
        assertThat(fetches).hasValue(4);
        assertThat(keys.resolve(FIRST_KID)).isEqualTo(FIRST);
    }

    @Test
    void resolveWhenKeySetUnreadableThenUpstreamUnavailableNamingWhy() {
        published = () -> "{\"keys\":[{\"kty\":\"oct\",\"k\":\"c2VjcmV0\"}]}";
        assertThatAssertion(() -> keys.resolve(FIRST_KID))
                .hasCode(ErrorCode.UPSTREAM_UNAVAILABLE)
                .hasMessageContaining("MALFORMED")
                .hasMessageNotContaining("c2VjcmV0");
        published = () -> "not json";
        assertThatAssertion(() -> keys.resolve(FIRST_KID)).hasCode(ErrorCode.UPSTREAM_UNAVAILABLE);
    }
}
