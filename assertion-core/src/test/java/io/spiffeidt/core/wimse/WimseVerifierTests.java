package io.spiffeidt.core.wimse;

import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.internal.Codec;
import io.spiffeidt.core.internal.Es256;
import io.spiffeidt.core.internal.Json;
import io.spiffeidt.core.internal.Jwks;
import io.spiffeidt.testkit.MutableClock;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link WimseVerifier} over tokens from {@link WitIssuer} and {@link WptSigner}: the accepted request,
 * and each attack of docs/formats/wimse.md "Refusals" with its exact code.
 */
class WimseVerifierTests {

    static final Provider BC = new BouncyCastleProvider();
    static final SpiffeId ISSUER = SpiffeId.parse("spiffe://example.org/wit-issuer");
    static final SpiffeId SUBJECT_WL = SpiffeId.parse("spiffe://example.org/subject-wl");
    static final Instant NOW = Instant.ofEpochSecond(1_790_000_000L);
    static final URI TARGET = URI.create("https://m-tier.example.org:8443/api/wimse/balance");
    static final String POST = "POST";
    static final String TXN_TOKEN = "eyJhbGciOiJFUzI1NiJ9.eyJ0eG4iOiJvbmUifQ.c2lnbmF0dXJl";
    static final KeyPair ISSUER_KEYS = p256();
    static final KeyPair WORKLOAD_KEYS = p256();
    static final KeyPair OTHER_KEYS = p256();

    private MutableClock clock;
    private WimseSettings settings;
    private BoundedJtiReplayCache replay;
    private WimseVerifier verifier;

    static KeyPair p256() {
        try {
            KeyPairGenerator gen = KeyPairGenerator.getInstance("EC");
            gen.initialize(new ECGenParameterSpec("secp256r1"));
            return gen.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    @BeforeEach
    void setUp() {
        clock = MutableClock.at(NOW);
        settings = WimseSettings.defaults(ISSUER, clock);
        replay = new BoundedJtiReplayCache(1000, clock);
        verifier = new WimseVerifier(settings, BC, WitKeyResolver.of(ISSUER_KEYS.getPublic()), replay);
    }

    private WitIssuer issuer(WimseSettings s, KeyPair keys) {
        return new WitIssuer(keys.getPrivate(), keys.getPublic(), BC, s, new SecureRandom());
    }

    private String wit() {
        return issuer(settings, ISSUER_KEYS)
                .issue(SUBJECT_WL, WORKLOAD_KEYS.getPublic())
                .token();
    }

    private WptSigner signer(KeyPair keys) {
        return new WptSigner(keys.getPrivate(), keys.getPublic(), BC, settings, new SecureRandom());
    }

    private String wpt(String wit) {
        return signer(WORKLOAD_KEYS).sign(wit, POST, TARGET, TXN_TOKEN).token();
    }

    private static WimseRequest request(String wit, String wpt) {
        return new WimseRequest(wit, wpt, POST, TARGET, TXN_TOKEN);
    }

    private void assertRefused(WimseRequest request, ErrorCode code) {
        assertThatAssertion(() -> verifier.verify(request)).hasCode(code);
    }

    /** The token with its header and claims changed, signed again with {@code key}. */
    static String resigned(
            String token, Consumer<Map<String, Object>> header, Consumer<Map<String, Object>> claims, PrivateKey key) {
        String[] seg = token.split("\\.");
        Map<String, Object> h = new TreeMap<>(Json.parseObject(Codec.utf8(Codec.fromB64url(seg[0]))));
        Map<String, Object> c = new TreeMap<>(Json.parseObject(Codec.utf8(Codec.fromB64url(seg[1]))));
        header.accept(h);
        claims.accept(c);
        String input = Codec.b64url(Json.write(h)) + "." + Codec.b64url(Json.write(c));
        byte[] der = Es256.sign(key, input.getBytes(StandardCharsets.US_ASCII), BC);
        return input + "." + Codec.b64url(Es256.derToConcat(der));
    }

    static String unsigned(String token, Consumer<Map<String, Object>> header) {
        String[] seg = token.split("\\.");
        Map<String, Object> h = new TreeMap<>(Json.parseObject(Codec.utf8(Codec.fromB64url(seg[0]))));
        header.accept(h);
        return Codec.b64url(Json.write(h)) + "." + seg[1] + ".";
    }

    // ---- the accepted request ------------------------------------------------------------------

    @Test
    void verifyWhenWitAndWptFromIssuerAndSignerThenAccepted() {
        String wit = wit();
        Wpt wpt = signer(WORKLOAD_KEYS).sign(wit, POST, TARGET, TXN_TOKEN);

        VerifiedWimse verified = verifier.verify(request(wit, wpt.token()));

        assertThat(verified.workload()).isEqualTo(SUBJECT_WL);
        assertThat(verified.wit().issuer()).isEqualTo(ISSUER.toString());
        assertThat(Jwks.thumbprint(verified.wit().confirmationKey()))
                .isEqualTo(Jwks.thumbprint(WORKLOAD_KEYS.getPublic()));
        assertThat(verified.wit().expiresAt()).isEqualTo(NOW.plus(WimseSettings.DEFAULT_WIT_LIFETIME));
        assertThat(verified.wptJti()).isEqualTo(wpt.jti()).hasSize(22);
        assertThat(verified.wptExpiresAt()).isEqualTo(NOW.plus(WimseSettings.DEFAULT_WPT_LIFETIME));
        assertThat(verified.audience()).isEqualTo(TARGET.toString());
        assertThat(verified.method()).isEqualTo(POST);
        assertThat(verified.txnTokenBound()).isTrue();
        assertThat(replay.size()).isEqualTo(1);
    }

    @Test
    void verifyWhenHeadersAndClaimsThenAsTheDraftsName() {
        String wit = wit();
        String wpt = wpt(wit);

        Map<String, Object> witHeader = Json.parseObject(Codec.utf8(Codec.fromB64url(wit.split("\\.")[0])));
        Map<String, Object> witClaims = Json.parseObject(Codec.utf8(Codec.fromB64url(wit.split("\\.")[1])));
        Map<String, Object> wptHeader = Json.parseObject(Codec.utf8(Codec.fromB64url(wpt.split("\\.")[0])));
        Map<String, Object> wptClaims = Json.parseObject(Codec.utf8(Codec.fromB64url(wpt.split("\\.")[1])));

        assertThat(witHeader).containsOnlyKeys("alg", "kid", "typ").containsEntry("typ", "wit+jwt");
        assertThat(witClaims).containsOnlyKeys("cnf", "exp", "iat", "iss", "jti", "sub");
        assertThat(Json.write(witClaims.get("cnf"))).startsWith("{\"jwk\":{\"alg\":\"ES256\",\"crv\":\"P-256\"");
        assertThat(wptHeader).containsOnlyKeys("alg", "typ").containsEntry("typ", "wpt+jwt");
        assertThat(wptClaims)
                .containsOnlyKeys("aud", "exp", "htm", "iat", "jti", "tth", "wth")
                .containsEntry("aud", TARGET.toString())
                .containsEntry("htm", POST)
                .containsEntry("wth", TokenHash.of(wit))
                .containsEntry("tth", TokenHash.of(TXN_TOKEN));
    }

    @Test
    void verifyWhenTargetHasQueryAndFragmentThenTheyAreIgnored() {
        String wit = wit();
        String wpt = signer(WORKLOAD_KEYS)
                .sign(wit, POST, URI.create(TARGET + "?account=1#top"), TXN_TOKEN)
                .token();

        assertThat(verifier.verify(new WimseRequest(wit, wpt, POST, URI.create(TARGET + "?other=2"), TXN_TOKEN))
                        .audience())
                .isEqualTo(TARGET.toString());
    }

    @Test
    void verifyWhenNoTxnTokenOnEitherSideThenAcceptedUnbound() {
        String wit = wit();
        String wpt = signer(WORKLOAD_KEYS).sign(wit, POST, TARGET, null).token();

        assertThat(verifier.verify(new WimseRequest(wit, wpt, POST, TARGET, null))
                        .txnTokenBound())
                .isFalse();
    }

    // ---- the attacks of the mode, one code each ------------------------------------------------

    @Test
    void verifyWhenWptReplayedThenReplayed() {
        String wit = wit();
        String wpt = wpt(wit);
        verifier.verify(request(wit, wpt));

        assertRefused(request(wit, wpt), ErrorCode.REPLAYED);
    }

    @Test
    void verifyWhenWptForAnotherUriThenWrongAudience() {
        String wit = wit();
        String wpt = signer(WORKLOAD_KEYS)
                .sign(wit, POST, URI.create("https://m-tier.example.org:8443/api/wimse/deposit"), TXN_TOKEN)
                .token();

        assertRefused(request(wit, wpt), ErrorCode.WRONG_AUDIENCE);
    }

    @Test
    void verifyWhenWptForAnotherHostThenWrongAudience() {
        String wit = wit();
        String wpt = signer(WORKLOAD_KEYS)
                .sign(wit, POST, URI.create("https://target-wl.example.org:8443/api/wimse/balance"), TXN_TOKEN)
                .token();

        assertRefused(request(wit, wpt), ErrorCode.WRONG_AUDIENCE);
    }

    @Test
    void verifyWhenWptForAnotherMethodThenWrongAudience() {
        String wit = wit();
        String wpt = signer(WORKLOAD_KEYS).sign(wit, "GET", TARGET, TXN_TOKEN).token();

        assertRefused(request(wit, wpt), ErrorCode.WRONG_AUDIENCE);
    }

    @Test
    void verifyWhenWptSignedWithAnotherKeyThenBadSignature() {
        String wit = wit();
        String wpt = signer(OTHER_KEYS).sign(wit, POST, TARGET, TXN_TOKEN).token();

        assertRefused(request(wit, wpt), ErrorCode.BAD_SIGNATURE);
    }

    @Test
    void verifyWhenWitFromAnotherTrustDomainsIssuerThenUntrustedKey() {
        SpiffeId otherIssuer = SpiffeId.parse("spiffe://other.org/wit-issuer");
        WimseSettings other = WimseSettings.defaults(otherIssuer, clock);
        String wit = issuer(other, OTHER_KEYS)
                .issue(SpiffeId.parse("spiffe://other.org/subject-wl"), WORKLOAD_KEYS.getPublic())
                .token();

        assertRefused(request(wit, wpt(wit)), ErrorCode.UNTRUSTED_KEY);
    }

    @Test
    void verifyWhenWitNamesAWorkloadOfAnotherTrustDomainThenUntrustedKey() {
        // signed by this trust domain's issuer key, for a workload of another trust domain
        String wit = issuer(settings.withTrustDomain("other.org"), ISSUER_KEYS)
                .issue(SpiffeId.parse("spiffe://other.org/subject-wl"), WORKLOAD_KEYS.getPublic())
                .token();

        assertRefused(request(wit, wpt(wit)), ErrorCode.UNTRUSTED_KEY);
    }

    @Test
    void verifyWhenWitExpiredThenExpired() {
        String wit = wit();
        clock.advance(WimseSettings.DEFAULT_WIT_LIFETIME
                .plus(settings.timeRules().skew())
                .plusSeconds(1));

        assertRefused(request(wit, wpt(wit)), ErrorCode.EXPIRED);
    }

    @Test
    void verifyWhenTthNamesAnotherTxnTokenThenDelegationInvalid() {
        String wit = wit();
        String wpt = signer(WORKLOAD_KEYS)
                .sign(wit, POST, TARGET, "eyJhbGciOiJFUzI1NiJ9.eyJ0eG4iOiJ0d28ifQ.c2lnbmF0dXJl")
                .token();

        assertRefused(request(wit, wpt), ErrorCode.DELEGATION_INVALID);
    }

    @Test
    void verifyWhenTxnTokenAddedToARequestWhoseWptBindsNoneThenDelegationInvalid() {
        String wit = wit();
        String wpt = signer(WORKLOAD_KEYS).sign(wit, POST, TARGET, null).token();

        assertRefused(request(wit, wpt), ErrorCode.DELEGATION_INVALID);
    }

    @Test
    void verifyWhenTxnTokenStrippedFromARequestWhoseWptBindsOneThenDelegationInvalid() {
        String wit = wit();

        assertRefused(new WimseRequest(wit, wpt(wit), POST, TARGET, null), ErrorCode.DELEGATION_INVALID);
    }

    @Test
    void verifyWhenWitWithoutCnfThenMalformed() {
        String wit = resigned(wit(), h -> {}, c -> c.remove("cnf"), ISSUER_KEYS.getPrivate());

        assertRefused(request(wit, wpt(wit)), ErrorCode.MALFORMED);
    }

    @Test
    void verifyWhenWitCnfWithoutJwkThenMalformed() {
        String wit = resigned(wit(), h -> {}, c -> c.put("cnf", Map.of("jkt", "abc")), ISSUER_KEYS.getPrivate());

        assertRefused(request(wit, wpt(wit)), ErrorCode.MALFORMED);
    }

    @Test
    void verifyWhenWitCnfKeyIsNotEs256ThenUnsupported() {
        String wit = resigned(
                wit(),
                h -> {},
                c -> {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> jwk =
                            new TreeMap<>((Map<String, Object>) ((Map<String, Object>) c.get("cnf")).get("jwk"));
                    jwk.put("alg", "ES384");
                    c.put("cnf", Map.of("jwk", jwk));
                },
                ISSUER_KEYS.getPrivate());

        assertRefused(request(wit, wpt(wit)), ErrorCode.UNSUPPORTED);
    }

    @Test
    void verifyWhenWitAlgNoneThenUnsupported() {
        String wit = unsigned(wit(), h -> h.put("alg", "none"));

        assertRefused(request(wit, wpt(wit)), ErrorCode.UNSUPPORTED);
    }

    @Test
    void verifyWhenWitSignatureStrippedThenBadSignature() {
        String wit = unsigned(wit(), h -> {});

        assertRefused(request(wit, wpt(wit)), ErrorCode.BAD_SIGNATURE);
    }

    @Test
    void verifyWhenWptAlgNoneThenUnsupported() {
        String wit = wit();
        String wpt = unsigned(wpt(wit), h -> h.put("alg", "none"));

        assertRefused(request(wit, wpt), ErrorCode.UNSUPPORTED);
    }

    @Test
    void verifyWhenWptAlgHs256ThenUnsupported() {
        String wit = wit();
        String wpt = resigned(wpt(wit), h -> h.put("alg", "HS256"), c -> {}, WORKLOAD_KEYS.getPrivate());

        assertRefused(request(wit, wpt), ErrorCode.UNSUPPORTED);
    }

    @Test
    void verifyWhenWitOversizedThenLimitExceeded() {
        String wit =
                resigned(wit(), h -> {}, c -> c.put("example.org/padding", "x".repeat(9000)), ISSUER_KEYS.getPrivate());

        assertRefused(request(wit, wpt(wit)), ErrorCode.LIMIT_EXCEEDED);
    }

    @Test
    void verifyWhenWptOversizedThenLimitExceeded() {
        String wit = wit();
        String wpt = resigned(
                wpt(wit), h -> {}, c -> c.put("example.org/padding", "x".repeat(9000)), WORKLOAD_KEYS.getPrivate());

        assertRefused(request(wit, wpt), ErrorCode.LIMIT_EXCEEDED);
    }

    // ---- the other checks ----------------------------------------------------------------------

    @Test
    void verifyWhenWptBindsAnotherWitOfTheSameKeyThenBrokenLink() {
        String wit = wit();
        String otherWit = wit();
        assertThat(otherWit).isNotEqualTo(wit);

        assertRefused(request(wit, wpt(otherWit)), ErrorCode.BROKEN_LINK);
    }

    @Test
    void verifyWhenWptExpiredThenExpired() {
        String wit = wit();
        String wpt = wpt(wit);
        clock.advance(WimseSettings.DEFAULT_WPT_LIFETIME
                .plus(settings.timeRules().skew())
                .plusSeconds(1));

        assertRefused(request(wit, wpt), ErrorCode.EXPIRED);
    }

    @Test
    void verifyWhenWptExpiresTooFarAheadThenLimitExceeded() {
        String wit = wit();
        String wpt =
                resigned(wpt(wit), h -> {}, c -> c.put("exp", NOW.getEpochSecond() + 3600), WORKLOAD_KEYS.getPrivate());

        assertRefused(request(wit, wpt), ErrorCode.LIMIT_EXCEEDED);
    }

    @Test
    void verifyWhenWptIssuedInTheFutureThenNotYetValid() {
        String wit = wit();
        String wpt =
                resigned(wpt(wit), h -> {}, c -> c.put("iat", NOW.getEpochSecond() + 45), WORKLOAD_KEYS.getPrivate());

        assertRefused(request(wit, wpt), ErrorCode.NOT_YET_VALID);
    }

    @Test
    void verifyWhenWptTypedAsAnotherTokenThenUnsupported() {
        String wit = wit();
        String wpt = resigned(wpt(wit), h -> h.put("typ", "dpop+jwt"), c -> {}, WORKLOAD_KEYS.getPrivate());

        assertRefused(request(wit, wpt), ErrorCode.UNSUPPORTED);
    }

    @Test
    void verifyWhenWitPresentedAsWptThenRefused() {
        String wit = wit();

        assertRefused(request(wit, wit), ErrorCode.UNSUPPORTED);
    }

    @Test
    void verifyWhenWptNamesOtherTokensThenUnsupported() {
        String wit = wit();
        String wpt =
                resigned(wpt(wit), h -> {}, c -> c.put("oth", Map.of("x-other", "abc")), WORKLOAD_KEYS.getPrivate());

        assertRefused(request(wit, wpt), ErrorCode.UNSUPPORTED);
    }

    @Test
    void verifyWhenWptWithoutWthThenMalformed() {
        String wit = wit();
        String wpt = resigned(wpt(wit), h -> {}, c -> c.remove("wth"), WORKLOAD_KEYS.getPrivate());

        assertRefused(request(wit, wpt), ErrorCode.MALFORMED);
    }

    @Test
    void verifyWhenWptMissingThenMalformed() {
        assertRefused(request(wit(), null), ErrorCode.MALFORMED);
    }

    @Test
    void verifyWhenRefusedThenNoJtiSpent() {
        String wit = wit();
        String wpt = wpt(wit);
        assertRefused(new WimseRequest(wit, wpt, "PUT", TARGET, TXN_TOKEN), ErrorCode.WRONG_AUDIENCE);

        assertThat(replay.size()).isZero();
        assertThat(verifier.verify(request(wit, wpt)).wptJti()).isNotEmpty();
    }

    @Test
    void verifyWhenWitIssAnotherIssuerThenUntrustedKey() {
        String wit =
                resigned(wit(), h -> {}, c -> c.put("iss", "spiffe://example.org/somebody"), ISSUER_KEYS.getPrivate());

        assertRefused(request(wit, wpt(wit)), ErrorCode.UNTRUSTED_KEY);
    }

    @Test
    void verifyWhenWitCnfCarriesThePrivateKeyThenMalformed() {
        String wit = resigned(
                wit(),
                h -> {},
                c -> {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> jwk =
                            new TreeMap<>((Map<String, Object>) ((Map<String, Object>) c.get("cnf")).get("jwk"));
                    jwk.put("d", "AAAA");
                    c.put("cnf", Map.of("jwk", jwk));
                },
                ISSUER_KEYS.getPrivate());

        assertRefused(request(wit, wpt(wit)), ErrorCode.MALFORMED);
    }

    @Test
    void verifyWhenIssuerKeysUnavailableThenUpstreamUnavailable() {
        WimseVerifier failing = new WimseVerifier(
                settings,
                BC,
                kid -> {
                    throw new IllegalStateException("JWKS fetch failed");
                },
                replay);
        String wit = wit();

        assertThatAssertion(() -> failing.verify(request(wit, wpt(wit)))).hasCode(ErrorCode.UPSTREAM_UNAVAILABLE);
    }

    @Test
    void issueWhenWorkloadOutsideTheTrustDomainThenUntrustedKey() {
        assertThatAssertion(() -> issuer(settings, ISSUER_KEYS)
                        .issue(SpiffeId.parse("spiffe://other.org/x"), WORKLOAD_KEYS.getPublic()))
                .hasCode(ErrorCode.UNTRUSTED_KEY);
    }

    @Test
    void verifyWhenWptLifetimeSettingShorterThenLongerWptsRefused() {
        WimseSettings strict = new WimseSettings(
                settings.trustDomain(),
                ISSUER,
                settings.limits(),
                settings.timeRules(),
                settings.witLifetime(),
                Duration.ofSeconds(5),
                settings.maxTokenLength());
        WimseVerifier strictVerifier =
                new WimseVerifier(strict, BC, WitKeyResolver.of(ISSUER_KEYS.getPublic()), replay);
        String wit = wit();

        assertThatAssertion(() -> strictVerifier.verify(request(wit, wpt(wit)))).hasCode(ErrorCode.LIMIT_EXCEEDED);
    }
}
