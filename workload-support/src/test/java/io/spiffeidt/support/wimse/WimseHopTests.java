package io.spiffeidt.support.wimse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.memo.MemoSettings;
import io.spiffeidt.core.memo.Memos;
import io.spiffeidt.core.wimse.BoundedJtiReplayCache;
import io.spiffeidt.core.wimse.WimseHeaders;
import io.spiffeidt.core.wimse.WimseVerifier;
import io.spiffeidt.core.wimse.Wit;
import io.spiffeidt.core.wimse.WitIssuer;
import io.spiffeidt.core.wimse.WitKeyResolver;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.hop.HopServices;
import io.spiffeidt.support.hop.Received;
import io.spiffeidt.support.identity.IdentityProperties;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.memo.MemoProperties;
import io.spiffeidt.support.problem.ChallengedException;
import io.spiffeidt.support.testing.StaticX509Source;
import io.spiffeidt.support.testing.TestHops;
import io.spiffeidt.support.testing.TestIdentities;
import io.spiffeidt.support.txntoken.TxnTokenHop;
import io.spiffeidt.support.txntoken.TxnTokenProperties;
import io.spiffeidt.support.wire.DocumentRequest;
import java.net.URI;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.Security;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Duration;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * {@link WimseHop} on the wire and at the issuer (docs/formats/wimse.md): the three headers, each
 * exactly once, bound to the request's method and the target URI this workload computes itself; the
 * WIT it mints names the workload it is given; the replay cache is never switched off.
 */
class WimseHopTests {

    private static final String WIT = "eyJ3aXQi.eyJzdWIi.c2ln";
    private static final String WPT = "eyJ3cHQi.eyJhdWQi.c2ln";
    private static final String TXN = "eyJ0eG4i.eyJzdWIi.c2ln";

    private static WimseHop hop(Role role, URI baseUri, Memos memos) {
        var parts =
                TestHops.parts(role, TestIdentities.source(role), Clock.systemUTC(), memos, HopServices.standalone());
        return new WimseHop(
                parts,
                new WimseProperties(baseUri),
                IdentityProperties.defaults(TestIdentities.TRUST_DOMAIN, role),
                new TxnTokenHop(parts, new TxnTokenProperties("account", Duration.ofSeconds(120), true)));
    }

    private final WimseHop mTier = hop(Role.M_TIER, URI.create("https://m-tier:8443/"), Memos.none());

    private static void request(String method, String path) {
        MockHttpServletRequest request = new MockHttpServletRequest(method, path);
        request.setLocalAddr("10.0.0.7");
        request.setLocalPort(8443);
        request.setScheme("https");
        request.addHeader("Host", "attacker.example");
        RequestContextHolder.setRequestAttributes(new ServletRequestAttributes(request));
    }

    @AfterEach
    void clear() {
        RequestContextHolder.resetRequestAttributes();
    }

    private static HttpHeaders headers(String wit, String authorization, String txn) {
        HttpHeaders h = new HttpHeaders();
        if (wit != null) {
            h.add(WimseHeaders.WORKLOAD_IDENTITY_TOKEN, wit);
        }
        if (authorization != null) {
            h.add(WimseHeaders.AUTHORIZATION, authorization);
        }
        if (txn != null) {
            h.add(WimseHeaders.TXN_TOKEN, txn);
        }
        return h;
    }

    private static void assertCode(ThrowingCallable call, ErrorCode code) {
        assertThatThrownBy(call).isInstanceOfSatisfying(AssertionException.class, e -> assertThat(e.code())
                .isEqualTo(code));
    }

    @Test
    void receiveWhenThreeHeadersThenTheTxnTokenAndTheRequestOnTheConfiguredBaseNeverTheHost() {
        request("POST", "/wimse/deposit");

        Received received = mTier.receive(DocumentRequest.of(null), headers(WIT, "wpt  " + WPT, TXN));

        assertThat(received.token()).isEqualTo(TXN);
        assertThat(received.artifacts().split("\n"))
                .containsExactly(WIT, WPT, "POST", "https://m-tier:8443/wimse/deposit");
    }

    @Test
    void receiveWhenNoBaseConfiguredThenTheConnectionsLocalAddressNeverTheHost() {
        request("POST", "/wimse/balance");
        WimseHop unconfigured = hop(Role.M_TIER, null, Memos.none());

        Received received = unconfigured.receive(DocumentRequest.of(null), headers(WIT, "WPT " + WPT, TXN));

        assertThat(received.artifacts()).endsWith("\nhttps://10.0.0.7:8443/wimse/balance");
    }

    @Test
    void receiveWhenAHeaderMissingRepeatedEmptyOrAnotherSchemeThenMalformed() {
        request("POST", "/wimse/balance");
        HttpHeaders twice = headers(WIT, "WPT " + WPT, TXN);
        twice.add(WimseHeaders.WORKLOAD_IDENTITY_TOKEN, WIT);
        for (HttpHeaders h : new HttpHeaders[] {
            headers(null, "WPT " + WPT, TXN),
            headers(WIT, null, TXN),
            headers(WIT, "WPT " + WPT, null),
            headers(" ", "WPT " + WPT, TXN),
            headers(WIT, "Bearer " + WPT, TXN),
            headers(WIT, "WPT " + WPT + " extra", TXN),
            twice
        }) {
            assertCode(() -> mTier.receive(DocumentRequest.of(null), h), ErrorCode.MALFORMED);
        }
    }

    @Test
    void receiveWhenTokenInTheBodyThenMalformedAndNoTokenInTheMessage() {
        request("POST", "/wimse/balance");

        assertThatThrownBy(() -> mTier.receive(DocumentRequest.of(TXN), headers(WIT, "WPT " + WPT, TXN)))
                .isInstanceOfSatisfying(
                        AssertionException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED))
                .hasMessageNotContaining(TXN)
                .hasMessageNotContaining(WIT);
    }

    @Test
    void verifyWhenTheWitIsRefusedThenItsCodeWithTheWptChallenge() {
        request("POST", "/wimse/balance");
        Received received = mTier.receive(DocumentRequest.of(null), headers("not-a-jws", "WPT " + WPT, TXN));
        StaticX509Source source = TestIdentities.source(Role.SUBJECT_WL);
        Caller caller = new Caller(
                TestHops.identity(Role.SUBJECT_WL, source).self(),
                source.getX509Svid().getLeaf(),
                source.getX509Svid().getLeaf().getPublicKey());

        assertThatThrownBy(() -> mTier.verify(received, caller))
                .isInstanceOfSatisfying(ChallengedException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED);
                    assertThat(e.scheme()).isEqualTo("WPT");
                });
    }

    @Test
    void mintWhenIssuerGivenThenAWitForTheNamedWorkloadAndKeyThatVerifies() throws Exception {
        WimseHop asserting = hop(Role.ASSERTING_WL, null, Memos.none());
        KeyPairGenerator gen = KeyPairGenerator.getInstance("EC");
        gen.initialize(new ECGenParameterSpec("secp256r1"));
        KeyPair issuerKey = gen.generateKeyPair();
        KeyPair workloadKey = gen.generateKeyPair();
        var provider = Security.getProvider("SunEC");
        WitIssuer issuer = new WitIssuer(
                issuerKey.getPrivate(), issuerKey.getPublic(), provider, asserting.settings(), new SecureRandom());
        SpiffeId subject = SpiffeId.parse("spiffe://" + TestIdentities.TRUST_DOMAIN + "/subject-wl");

        Wit wit = asserting.issue(issuer, subject, workloadKey.getPublic());

        Wit verified = new WimseVerifier(
                        asserting.settings(),
                        provider,
                        WitKeyResolver.of(issuerKey.getPublic()),
                        new BoundedJtiReplayCache(1, Clock.systemUTC()))
                .verifyWit(wit.token());
        assertThat(verified.subject()).isEqualTo(subject);
        assertThat(verified.confirmationKey()).isEqualTo(workloadKey.getPublic());
        assertThat(verified.issuer())
                .isEqualTo(asserting.idOf(Role.ASSERTING_WL).toString());
    }

    @Test
    void replayCacheWhenMemosOffThenStillTheDefaultSizeAndWhenConfiguredThenItsSize() {
        WimseHop configured = hop(
                Role.M_TIER,
                null,
                Memos.of(
                        name -> name.equals(WimseHop.JTI_MEMO) ? MemoSettings.DEFAULTS.withSize(10) : MemoSettings.OFF,
                        Clock.systemUTC(),
                        io.spiffeidt.core.memo.MemoEvents.NONE));

        assertThat(mTier.replayCapacity())
                .isEqualTo(MemoProperties.defaults(WimseHop.JTI_MEMO).size())
                .isEqualTo(65_536);
        assertThat(configured.replayCapacity()).isEqualTo(10);
    }
}
