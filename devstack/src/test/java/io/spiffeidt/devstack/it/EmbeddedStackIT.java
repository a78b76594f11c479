package io.spiffeidt.devstack.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.spiffeidt.devstack.DevStack;
import io.spiffeidt.devstack.DevStackSettings;
import io.spiffeidt.devstack.it.SystemClient.Answer;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;

/**
 * Base of the system ITs: one embedded stack per test class, started by the class's
 * {@code @BeforeAll} through {@link #startStack(DevStackSettings)} and stopped after the class.
 * Test classes run one after the other, so the stack fields are never shared by two running classes.
 */
abstract class EmbeddedStackIT {

    static DevStack stack;
    static SystemClient client;

    static void startStack(DevStackSettings settings) {
        stack = DevStack.start(settings);
        client = new SystemClient(stack);
    }

    /** A body whose token is far over the size limit (300,000 characters). */
    static final String HUGE_TOKEN_BODY = "{\"token\":\"" + "A".repeat(300_000) + "\"}";

    /**
     * {@code jws} (a compact JWS) with the payload character at {@code index} changed ('A' to 'B',
     * anything else to 'A'): without the key it cannot be signed again, so its signature breaks.
     */
    static String withPayloadCharChanged(String jws, int index) {
        String[] parts = jws.split("\\.");
        char[] payload = parts[1].toCharArray();
        payload[index] = payload[index] == 'A' ? 'B' : 'A';
        return parts[0] + "." + new String(payload) + "." + parts[2];
    }

    /** A fresh RSA key named {@code kid}, which no key set of the stack holds. */
    static RSAKey randomRsaKey(String kid) throws Exception {
        return new RSAKeyGenerator(2048).keyID(kid).generate();
    }

    /** {@code claims} as an RFC 9068 access token: RS256, {@code typ} at+jwt, signed by {@code key} (its kid). */
    static String signedAccessToken(JWTClaimsSet claims, RSAKey key) throws Exception {
        SignedJWT jwt = new SignedJWT(
                new JWSHeader.Builder(JWSAlgorithm.RS256)
                        .keyID(key.getKeyID())
                        .type(new JOSEObjectType("at+jwt"))
                        .build(),
                claims);
        jwt.sign(new RSASSASigner(key));
        return jwt.serialize();
    }

    /** The development IdP's answer to {@code user}'s login: its {@code access_token} and OIDC {@code id_token}. */
    static Answer idpTokens(String user) {
        return client.idpTokens(user);
    }

    /** Each body, sent by subject-wl to m-tier at {@code path}, gets a 4xx answer. */
    static void assertMiddleTierRejects(String path, List<String> bodies) {
        for (String body : bodies) {
            Answer a = client.asWorkload("subject-wl", "m-tier", path, body);
            assertThat(a.status())
                    .as("%s -> %s", body.length() > 100 ? body.substring(0, 100) + "..." : body, a.body())
                    .isBetween(400, 499);
        }
    }

    /** One user's walk-through of a mode: mint, balance, deposits; returns the final balance. */
    interface WalkThrough {
        long run(String user, long amount) throws Exception;
    }

    /**
     * Two users walk through at the same time, depositing {@code amount} twice and 1 once: each
     * ends with exactly their own deposits (no document or balance crosses between them).
     */
    static void twoUsersInParallel(WalkThrough walk, String first, String second) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<Long> a = pool.submit(() -> walk.run(first, 25));
            Future<Long> b = pool.submit(() -> walk.run(second, 40));
            assertThat(a.get()).as(first).isEqualTo(25 + 25 + 1);
            assertThat(b.get()).as(second).isEqualTo(40 + 40 + 1);
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * After one {@code balance} of a nested-token mode (ID-Mode, Anon-Mode) for {@code user}: every
     * tier's operation timers, and the document size at each depth where the token grows.
     */
    static void assertNestedTokenMetrics(String mode, String user) {
        String token = client.userToken(user);
        assertThat(client.user(mode, "balance", token, null).status()).isEqualTo(200);

        assertThat(client.prometheus("asserting-wl").body())
                .contains("operation=\"mint\"")
                .contains("operation=\"zkp_generation\"")
                .containsPattern(documentSize(mode, 1));
        assertThat(client.prometheus("subject-wl").body())
                .contains("operation=\"validate\"")
                .contains("operation=\"extend\"")
                .contains("operation=\"mint_call\"")
                .contains("operation=\"mtier_call\"")
                .containsPattern(documentSize(mode, 2));
        assertThat(client.prometheus("m-tier").body())
                .contains("operation=\"validate\"")
                .contains("operation=\"extend\"")
                .contains("operation=\"target_call\"")
                .containsPattern(documentSize(mode, 3));
        assertThat(client.prometheus("target-wl").body())
                .contains("operation=\"validate\"")
                .contains("operation=\"introspect_call\"")
                .contains("operation=\"zkp_verification\"")
                .contains("operation=\"db_query\"");
    }

    /** A recorded {@code spiffeidt_document_size} series of {@code mode} at {@code depth}, whatever the tag order. */
    static Pattern documentSize(String mode, int depth) {
        return Pattern.compile("spiffeidt_document_size_bytes_count\\{(?=[^}]*depth=\"" + depth + "\")(?=[^}]*mode=\""
                + mode + "\")[^}]*} [1-9]");
    }

    @AfterAll
    static void stopStack() {
        if (stack != null) {
            stack.close();
            stack = null;
            client = null;
        }
    }
}
