package io.spiffeidt.core.txntoken;

import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.VerifiedResult;
import io.spiffeidt.core.VerifierContractTests;
import io.spiffeidt.core.internal.Codec;
import io.spiffeidt.core.internal.Es256;
import io.spiffeidt.core.internal.Json;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.Security;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.junit.jupiter.api.Test;

/**
 * {@link TxnTokenVerifier} against the shared contract suite and each rule of
 * docs/formats/txn-token.md "Verification", one test per code.
 */
class TxnTokenVerifierTests extends VerifierContractTests {

    static final Provider BC = new BouncyCastleProvider();
    static final SpiffeId SERVICE = SpiffeId.parse("spiffe://example.org/asserting-wl");
    static final SpiffeId SUBJECT_WL = SpiffeId.parse("spiffe://example.org/subject-wl");
    static final SpiffeId M_TIER = SpiffeId.parse("spiffe://example.org/m-tier");
    static final String DPA = "https://idp.example.test";
    static final String DPR = "alice";
    static final Instant NOW = Instant.ofEpochSecond(1_750_000_000L);
    static final Instant OAUTH_EXP = NOW.plusSeconds(3600);
    static final KeyPair SERVICE_KEYS = p256();
    static final KeyPair OTHER_KEYS = p256();
    static final String KID = TxnTokenKeys.thumbprint(SERVICE_KEYS.getPublic());

    static KeyPair p256() {
        try {
            KeyPairGenerator gen = KeyPairGenerator.getInstance("EC");
            gen.initialize(new ECGenParameterSpec("secp256r1"));
            return gen.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static TxnTokenSettings settings(Instant now) {
        return TxnTokenSettings.defaults(SERVICE, Clock.fixed(now, ZoneOffset.UTC));
    }

    static TxnTokenMinter minter(Instant now, KeyPair keys) {
        return new TxnTokenMinter(keys.getPrivate(), keys.getPublic(), BC, settings(now), new SecureRandom());
    }

    static TxnTokenVerifier verifier(TxnTokenSettings settings) {
        return new TxnTokenVerifier(settings, BC, TxnTokenKeyResolver.of(SERVICE_KEYS.getPublic()));
    }

    static TxnTokenRequest request() {
        return new TxnTokenRequest(DPA, DPR, "account", SUBJECT_WL, OAUTH_EXP);
    }

    static String mint(Instant at, KeyPair keys) {
        return minter(at, keys).mint(request()).token();
    }

    @Override
    protected String validDocument() {
        return mint(NOW, SERVICE_KEYS);
    }

    @Override
    protected VerifiedResult verify(String document) {
        return verifier(settings(NOW)).verify(document).result(SERVICE.toString());
    }

    @Override
    protected String document(ContractCase contractCase) {
        String valid = validDocument();
        String[] seg = valid.split("\\.");
        return switch (contractCase) {
            case TAMPERED_PAYLOAD -> seg[0] + "." + Codec.b64url(json(seg[1]).replace(DPR, "mallory")) + "." + seg[2];
            case TAMPERED_SIGNATURE -> {
                byte[] sig = Codec.fromB64url(seg[2]);
                sig[sig.length / 2] ^= 0x01;
                yield seg[0] + "." + seg[1] + "." + Codec.b64url(sig);
            }
            case REORDERED -> seg[1] + "." + seg[0] + "." + seg[2];
            case DROPPED -> seg[0] + "." + seg[1];
            // another key under the service key's kid
            case WRONG_KEY -> handMade(header(), claims(), OTHER_KEYS.getPrivate());
            // another key under its own kid: not in the service's key set
            case UNTRUSTED_CHAIN -> mint(NOW, OTHER_KEYS);
            case EXPIRED -> mint(NOW.minusSeconds(1000), SERVICE_KEYS);
            case NOT_YET_VALID -> mint(NOW.plusSeconds(1000), SERVICE_KEYS);
        };
    }

    @Override
    protected Set<ErrorCode> expectedCodes(ContractCase contractCase) {
        return switch (contractCase) {
            case TAMPERED_PAYLOAD, TAMPERED_SIGNATURE, WRONG_KEY -> EnumSet.of(ErrorCode.BAD_SIGNATURE);
            case REORDERED -> EnumSet.of(ErrorCode.UNSUPPORTED, ErrorCode.MALFORMED);
            case DROPPED -> EnumSet.of(ErrorCode.MALFORMED);
            case UNTRUSTED_CHAIN -> EnumSet.of(ErrorCode.UNTRUSTED_KEY);
            case EXPIRED -> EnumSet.of(ErrorCode.EXPIRED);
            case NOT_YET_VALID -> EnumSet.of(ErrorCode.NOT_YET_VALID);
        };
    }

    // ---- hand-made tokens, signed with the service key ---------------------------------------

    static String json(String segment) {
        return new String(Codec.fromB64url(segment), StandardCharsets.UTF_8);
    }

    static Map<String, Object> header() {
        Map<String, Object> h = new TreeMap<>();
        h.put("alg", "ES256");
        h.put("kid", KID);
        h.put("typ", "txntoken+jwt");
        return h;
    }

    static Map<String, Object> claims() {
        Map<String, Object> c = new TreeMap<>();
        c.put("aud", "example.org");
        c.put("exp", NOW.getEpochSecond() + 120);
        c.put("iat", NOW.getEpochSecond());
        c.put("iss", SERVICE.toString());
        c.put("rctx", Map.of("req_wls", List.of(SUBJECT_WL.toString())));
        c.put("req_wl", SUBJECT_WL.toString());
        c.put("scope", "account");
        c.put("sub", DPR);
        c.put("tctx", Map.of("dpa", DPA));
        c.put("txn", "hand-made-txn");
        return c;
    }

    static String handMade(Map<String, Object> header, Map<String, Object> claims, PrivateKey key) {
        String input = Codec.b64url(Json.write(header)) + "." + Codec.b64url(Json.write(claims));
        byte[] der = Es256.sign(key, input.getBytes(StandardCharsets.US_ASCII), BC);
        return input + "." + Codec.b64url(Es256.derToConcat(der));
    }

    private static String signed(Map<String, Object> claims) {
        return handMade(header(), claims, SERVICE_KEYS.getPrivate());
    }

    private static void assertCode(String token, ErrorCode code) {
        assertThatAssertion(() -> verifier(settings(NOW)).verify(token)).hasCode(code);
    }

    @Test
    void verifyWhenHandMadeValidThenAccepted() {
        TxnToken token = verifier(settings(NOW)).verify(signed(claims()));
        assertThat(token.txn()).isEqualTo("hand-made-txn");
    }

    @Test
    void verifyWhenValidThenEveryClaimIsReported() {
        TxnToken minted = minter(NOW, SERVICE_KEYS).mint(request());

        TxnToken verified = verifier(settings(NOW)).verify(minted.token());

        assertThat(verified).isEqualTo(minted);
        assertThat(verified.keyId()).isEqualTo(KID);
        assertThat(verified.subject()).isEqualTo(DPR);
        assertThat(verified.userIssuer()).isEqualTo(DPA);
        assertThat(verified.scope()).isEqualTo("account");
        assertThat(verified.requestingWorkload()).isEqualTo(SUBJECT_WL.toString());
        assertThat(verified.requestChain()).containsExactly(SUBJECT_WL.toString());
        assertThat(verified.audience()).isEqualTo("example.org");
        assertThat(verified.issuedAt()).isEqualTo(NOW);
        assertThat(verified.expiresAt()).isEqualTo(NOW.plusSeconds(120));
        assertThat(verified.txn()).hasSize(22);
        VerifiedResult result = verified.result(SERVICE.toString());
        assertThat(result.mode()).isEqualTo(Mode.TXN_TOKEN);
        assertThat(result.delegation().dpa()).isEqualTo(DPA);
        assertThat(result.delegation().dpr()).isEqualTo(DPR);
        assertThat(result.delegation().assertedBy()).isEqualTo(SERVICE.toString());
    }

    @Test
    void verifyWhenHeaderThenTypedExplicitly() {
        String header = json(validDocument().split("\\.")[0]);
        assertThat(header).isEqualTo("{\"alg\":\"ES256\",\"kid\":\"" + KID + "\",\"typ\":\"txntoken+jwt\"}");
    }

    @Test
    void verifyWhenAudienceIsAnotherTrustDomainThenWrongAudience() {
        Map<String, Object> c = claims();
        c.put("aud", "other.example");
        assertCode(signed(c), ErrorCode.WRONG_AUDIENCE);
        c.put("aud", List.of("example.org", "other.example"));
        assertCode(signed(c), ErrorCode.WRONG_AUDIENCE);
        c.put("aud", "spiffe://example.org/m-tier");
        assertCode(signed(c), ErrorCode.WRONG_AUDIENCE);
    }

    @Test
    void verifyWhenVerifierInAnotherTrustDomainThenWrongAudience() {
        TxnTokenVerifier other = verifier(settings(NOW).withTrustDomain("other.example"));
        assertThatAssertion(() -> other.verify(validDocument())).hasCode(ErrorCode.WRONG_AUDIENCE);
    }

    @Test
    void verifyWhenAudienceMissingThenMalformed() {
        Map<String, Object> c = claims();
        c.remove("aud");
        assertCode(signed(c), ErrorCode.MALFORMED);
    }

    @Test
    void verifyWhenExpiredBeyondSkewThenExpired() {
        Map<String, Object> c = claims();
        c.put("iat", NOW.getEpochSecond() - 300);
        c.put("exp", NOW.getEpochSecond() - 31);
        assertCode(signed(c), ErrorCode.EXPIRED);
        c.put("exp", NOW.getEpochSecond() - 30);
        assertThat(verifier(settings(NOW)).verify(signed(c)).txn()).isEqualTo("hand-made-txn");
    }

    @Test
    void verifyWhenIssuedInTheFutureOrNotBeforeThenNotYetValid() {
        Map<String, Object> c = claims();
        c.put("iat", NOW.getEpochSecond() + 31);
        c.put("exp", NOW.getEpochSecond() + 300);
        assertCode(signed(c), ErrorCode.NOT_YET_VALID);
        Map<String, Object> n = claims();
        n.put("nbf", NOW.getEpochSecond() + 60);
        assertCode(signed(n), ErrorCode.NOT_YET_VALID);
    }

    @Test
    void verifyWhenUnknownKidThenUntrustedKey() {
        Map<String, Object> h = header();
        h.put("kid", TxnTokenKeys.thumbprint(OTHER_KEYS.getPublic()));
        assertCode(handMade(h, claims(), OTHER_KEYS.getPrivate()), ErrorCode.UNTRUSTED_KEY);
    }

    @Test
    void verifyWhenKidMissingThenMalformed() {
        Map<String, Object> h = header();
        h.remove("kid");
        assertCode(handMade(h, claims(), SERVICE_KEYS.getPrivate()), ErrorCode.MALFORMED);
    }

    @Test
    void verifyWhenAnotherTypThenUnsupported() {
        for (String typ : List.of("JWT", "at+jwt", "txn_token", "TXNTOKEN+JWT")) {
            Map<String, Object> h = header();
            h.put("typ", typ);
            assertCode(handMade(h, claims(), SERVICE_KEYS.getPrivate()), ErrorCode.UNSUPPORTED);
        }
        Map<String, Object> none = header();
        none.remove("typ");
        assertCode(handMade(none, claims(), SERVICE_KEYS.getPrivate()), ErrorCode.UNSUPPORTED);
    }

    @Test
    void verifyWhenAnotherAlgOrCritThenUnsupported() {
        Map<String, Object> h = header();
        h.put("alg", "none");
        assertCode(handMade(h, claims(), SERVICE_KEYS.getPrivate()), ErrorCode.UNSUPPORTED);
        Map<String, Object> crit = header();
        crit.put("crit", List.of("exp"));
        assertCode(handMade(crit, claims(), SERVICE_KEYS.getPrivate()), ErrorCode.UNSUPPORTED);
    }

    @Test
    void verifyWhenTxnMissingOrEmptyThenMalformed() {
        Map<String, Object> c = claims();
        c.remove("txn");
        assertCode(signed(c), ErrorCode.MALFORMED);
        c.put("txn", "");
        assertCode(signed(c), ErrorCode.MALFORMED);
        c.put("txn", 42);
        assertCode(signed(c), ErrorCode.MALFORMED);
    }

    @Test
    void verifyWhenSubMissingThenMalformed() {
        Map<String, Object> c = claims();
        c.remove("sub");
        assertCode(signed(c), ErrorCode.MALFORMED);
    }

    @Test
    void verifyWhenScopeReqWlOrUserIssuerMissingThenMalformed() {
        for (String name : List.of("scope", "req_wl", "tctx", "iat", "exp")) {
            Map<String, Object> c = claims();
            c.remove(name);
            assertCode(signed(c), ErrorCode.MALFORMED);
        }
    }

    @Test
    void verifyWhenChainDoesNotEndWithRequesterThenMalformed() {
        Map<String, Object> c = claims();
        c.put("rctx", Map.of("req_wls", List.of(M_TIER.toString())));
        assertCode(signed(c), ErrorCode.MALFORMED);
    }

    @Test
    void verifyWhenIssuerIsNotTheServiceThenUntrustedKey() {
        Map<String, Object> c = claims();
        c.put("iss", "spiffe://example.org/rogue");
        assertCode(signed(c), ErrorCode.UNTRUSTED_KEY);
    }

    @Test
    void verifyWhenNoIssuerThenServiceAssertsIt() {
        Map<String, Object> c = claims();
        c.remove("iss");
        TxnToken token = verifier(settings(NOW)).verify(signed(c));
        assertThat(token.result(SERVICE.toString()).delegation().assertedBy()).isEqualTo(SERVICE.toString());
    }

    @Test
    void verifyWhenOverTheTokenLimitThenLimitExceeded() {
        Map<String, Object> c = claims();
        c.put("tctx", Map.of("dpa", DPA, "padding", "x".repeat(TxnTokenSettings.DEFAULT_MAX_TOKEN_LENGTH)));
        assertCode(signed(c), ErrorCode.LIMIT_EXCEEDED);
    }

    @Test
    void verifyWhenClaimOverTheClaimLimitThenLimitExceeded() {
        Map<String, Object> c = claims();
        c.put("sub", "u".repeat(Limits.defaults().maxClaimLength() + 1));
        assertCode(signed(c), ErrorCode.LIMIT_EXCEEDED);
    }

    @Test
    void verifyWhenSunEcProviderThenSameVerdicts() {
        TxnTokenVerifier sun = new TxnTokenVerifier(
                settings(NOW), Security.getProvider("SunEC"), TxnTokenKeyResolver.of(SERVICE_KEYS.getPublic()));
        assertThat(sun.verify(validDocument()).subject()).isEqualTo(DPR);
        assertThatAssertion(() -> sun.verify(document(ContractCase.TAMPERED_SIGNATURE)))
                .hasCode(ErrorCode.BAD_SIGNATURE);
    }

    @Test
    void verifyWhenKeySetUnavailableThenUpstreamUnavailable() {
        TxnTokenVerifier down = new TxnTokenVerifier(settings(NOW), BC, kid -> {
            throw new IllegalStateException("down");
        });
        assertThatAssertion(() -> down.verify(validDocument())).hasCode(ErrorCode.UPSTREAM_UNAVAILABLE);
    }

    @Test
    void verifyWhenClockMovesPastExpiryThenExpired() {
        String token = validDocument();
        TxnTokenSettings later =
                settings(NOW).withTimeRules(TimeRules.defaults(Clock.fixed(NOW.plusSeconds(151), ZoneOffset.UTC)));
        assertThatAssertion(() -> verifier(later).verify(token)).hasCode(ErrorCode.EXPIRED);
    }
}
