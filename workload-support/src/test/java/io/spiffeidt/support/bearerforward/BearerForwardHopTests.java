package io.spiffeidt.support.bearerforward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.memo.Memos;
import io.spiffeidt.support.crypto.CryptoProviderChoice;
import io.spiffeidt.support.crypto.SignatureProvider;
import io.spiffeidt.support.hop.Received;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.metrics.OperationMetrics;
import io.spiffeidt.support.oauth.InvalidAccessTokenException;
import io.spiffeidt.support.oauth.JwksCacheMode;
import io.spiffeidt.support.oauth.MissingAccessTokenException;
import io.spiffeidt.support.oauth.OAuthProperties;
import io.spiffeidt.support.oauth.OAuthTokenVerifier;
import io.spiffeidt.support.testing.TestHops;
import io.spiffeidt.support.testing.TestIdentities;
import io.spiffeidt.support.wire.DocumentRequest;
import java.time.Clock;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;

/**
 * How the bearer-forward hop reads the wire (the verification itself is the {@link
 * OAuthTokenVerifier}'s, tested against a real issuer in {@code OAuthTokenVerifierIT} and through
 * the tiers in devstack's {@code BearerForwardAttackIT}).
 */
class BearerForwardHopTests {

    private final OAuthTokenVerifier oauth = new OAuthTokenVerifier(
            OAuthProperties.of(List.of(), JwksCacheMode.NONE),
            TimeRules.defaults(Clock.systemUTC()),
            new SignatureProvider(CryptoProviderChoice.BC),
            new OperationMetrics(new SimpleMeterRegistry()),
            Memos.none());

    private final BearerForwardHop hop =
            new BearerForwardHop(TestHops.parts(Role.M_TIER, TestIdentities.source(Role.M_TIER)), oauth);

    @AfterEach
    void close() {
        oauth.close();
    }

    private static HttpHeaders authorization(String... values) {
        HttpHeaders headers = new HttpHeaders();
        for (String v : values) {
            headers.add(HttpHeaders.AUTHORIZATION, v);
        }
        return headers;
    }

    @Test
    void receiveWhenOneBearerHeaderThenItsTokenAndForwardSendsItUnchanged() {
        Received received = hop.receive(DocumentRequest.of(null), authorization("Bearer aaa.bbb.ccc"));

        assertThat(received.token()).isEqualTo("aaa.bbb.ccc");
        assertThat(hop.receive(DocumentRequest.of(null), authorization("bearer  aaa.bbb.ccc"))
                        .token())
                .isEqualTo("aaa.bbb.ccc");
        assertThat(hop.forward("aaa.bbb.ccc", Role.M_TIER).headers())
                .containsEntry(HttpHeaders.AUTHORIZATION, "Bearer aaa.bbb.ccc")
                .hasSize(1);
        assertThat(hop.forward("aaa.bbb.ccc", Role.M_TIER).request(3L).token()).isNull();
        // the access token is the document of the hop, its scheme is not
        assertThat(hop.forward("aaa.bbb.ccc", Role.M_TIER).headerDocumentCharacters())
                .isEqualTo("aaa.bbb.ccc".length());
    }

    @Test
    void receiveWhenNoneOrAnotherSchemeThenTokenRequired() {
        for (HttpHeaders headers :
                List.of(new HttpHeaders(), authorization("Basic dXNlcjpwYXNz"), authorization("Bearerish a.b.c"))) {
            assertThatThrownBy(() -> hop.receive(DocumentRequest.of(null), headers))
                    .as(headers.toString())
                    .isInstanceOf(MissingAccessTokenException.class);
        }
    }

    @Test
    void receiveWhenTwoOrNotAB64TokenThenInvalidTokenMalformed() {
        for (HttpHeaders headers : List.of(
                authorization("Bearer a.b.c", "Bearer a.b.c"),
                authorization("Basic dXNlcjpwYXNz", "Bearer a.b.c"),
                authorization("Bearer"),
                authorization("Bearer a b"))) {
            assertThatThrownBy(() -> hop.receive(DocumentRequest.of(null), headers))
                    .as(headers.toString())
                    .isInstanceOfSatisfying(InvalidAccessTokenException.class, e -> assertThat(e.code())
                            .isEqualTo(ErrorCode.MALFORMED));
        }
    }

    @Test
    void receiveWhenTokenInTheBodyThenMalformed() {
        ThrowingCallable call = () -> hop.receive(DocumentRequest.of("e30"), authorization("Bearer a.b.c"));

        assertThatThrownBy(call).isInstanceOfSatisfying(AssertionException.class, e -> assertThat(e.code())
                .isEqualTo(ErrorCode.MALFORMED));
    }

    @Test
    void verifyWhenIssuerNotAllowedThenInvalidTokenBeforeAnyNetworkCall() {
        // a syntactically valid RS256 JWT of an issuer this workload does not allow
        String header =
                java.util.Base64.getUrlEncoder().withoutPadding().encodeToString("{\"alg\":\"RS256\"}".getBytes());
        String claims = java.util.Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString("{\"iss\":\"https://idp.attacker.example\",\"sub\":\"u\"}".getBytes());
        Received token = Received.of(header + "." + claims + ".c2ln");

        assertThatThrownBy(() -> hop.verify(token, null))
                .isInstanceOfSatisfying(InvalidAccessTokenException.class, e -> assertThat(e.code())
                        .isEqualTo(ErrorCode.UNKNOWN_ISSUER));
    }
}
