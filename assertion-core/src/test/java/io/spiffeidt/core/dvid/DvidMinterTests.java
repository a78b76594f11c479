package io.spiffeidt.core.dvid;

import static io.spiffeidt.core.dvid.DvidTestSupport.ASSERTING;
import static io.spiffeidt.core.dvid.DvidTestSupport.BC;
import static io.spiffeidt.core.dvid.DvidTestSupport.DPA;
import static io.spiffeidt.core.dvid.DvidTestSupport.DPR;
import static io.spiffeidt.core.dvid.DvidTestSupport.MIDDLE;
import static io.spiffeidt.core.dvid.DvidTestSupport.NOW;
import static io.spiffeidt.core.dvid.DvidTestSupport.SUBJECT;
import static io.spiffeidt.core.dvid.DvidTestSupport.TARGET;
import static io.spiffeidt.core.dvid.DvidTestSupport.clockAt;
import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.RSAKey;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.internal.Codec;
import io.spiffeidt.core.internal.Json;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.Security;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link DvidMinter}: claims, lifetime, identifiers, key handling. */
class DvidMinterTests {

    private static final KeyPair RSA = DvidTestSupport.assertingKeyPair();
    private static final Instant OAUTH_EXP = Instant.ofEpochSecond(4102444800L);

    private static DvidMinter minter(KeyPair keys, DvidSettings settings) {
        return new DvidMinter(keys.getPrivate(), keys.getPublic(), BC, settings, new SecureRandom());
    }

    private static DvidMinter rsaMinter() {
        return minter(RSA, DvidSettings.defaults(ASSERTING, clockAt(NOW)));
    }

    private static KeyPair ecKeyPair() throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC", BC);
        g.initialize(new ECGenParameterSpec("secp256r1"));
        return g.generateKeyPair();
    }

    private static Map<String, Object> payload(String token) {
        return Json.parseObject(DvidTestSupport.segmentJson(token, 1));
    }

    private static Map<String, Object> header(String token) {
        return Json.parseObject(DvidTestSupport.segmentJson(token, 0));
    }

    @Test
    void verifyWhenMintedThenHeaderAndClaimsAreSortedCompactAndComplete() {
        Dvid dvid = rsaMinter().mint(DvidMintRequest.of(SUBJECT, DPA, DPR, OAUTH_EXP));
        String kid = DvidKeys.thumbprint(RSA.getPublic());

        assertThat(DvidTestSupport.segmentJson(dvid.token(), 0))
                .isEqualTo("{\"alg\":\"RS256\",\"kid\":\"" + kid + "\",\"typ\":\"JWT\"}");
        assertThat(DvidTestSupport.segmentJson(dvid.token(), 1))
                .isEqualTo("{\"aat\":1750000000,\"dpa\":\"" + DPA + "\",\"dpr\":\"" + DPR
                        + "\",\"exp\":1750000120,\"iat\":1750000000,\"iss\":\"" + ASSERTING + "\",\"jti\":\""
                        + dvid.jti() + "\",\"sub\":\"" + SUBJECT + "\"}");
        assertThat(dvid.subject()).isEqualTo(SUBJECT);
        assertThat(dvid.dpa()).isEqualTo(DPA);
        assertThat(dvid.dpr()).isEqualTo(DPR);
        assertThat(dvid.issuedAt()).isEqualTo(NOW);
    }

    @Test
    void verifyWhenOAuthTokenExpiresFirstThenDvidNeverOutlivesIt() {
        Dvid shortLived = rsaMinter().mint(DvidMintRequest.of(SUBJECT, DPA, DPR, NOW.plusSeconds(45)));
        Dvid longLived = rsaMinter().mint(DvidMintRequest.of(SUBJECT, DPA, DPR, NOW.plusSeconds(4500)));

        assertThat(shortLived.expiresAt()).isEqualTo(NOW.plusSeconds(45));
        assertThat(((BigInteger) payload(shortLived.token()).get("exp")).longValueExact())
                .isEqualTo(NOW.getEpochSecond() + 45);
        assertThat(longLived.expiresAt()).isEqualTo(NOW.plusSeconds(120));
    }

    @Test
    void verifyWhenOAuthTokenAlreadyExpiredThenExpired() {
        for (Instant exp : List.of(NOW, NOW.minusSeconds(1))) {
            assertThatAssertion(() -> rsaMinter().mint(DvidMintRequest.of(SUBJECT, DPA, DPR, exp)))
                    .hasCode(ErrorCode.EXPIRED);
        }
    }

    @Test
    void verifyWhenMintedThenSubIsTheGivenPeer() {
        SpiffeId peer = SpiffeId.parse("spiffe://example.org/ns/shop/sa/frontend");
        Dvid dvid = rsaMinter().mint(DvidMintRequest.of(peer, DPA, DPR, OAUTH_EXP));
        assertThat(payload(dvid.token())).containsEntry("sub", peer.toString());
    }

    @Test
    void verifyWhenPeerOutsideTheTrustDomainThenDelegationInvalid() {
        SpiffeId foreign = SpiffeId.parse("spiffe://other.org/subject_wl");
        assertThatAssertion(() -> rsaMinter().mint(DvidMintRequest.of(foreign, DPA, DPR, OAUTH_EXP)))
                .hasCode(ErrorCode.DELEGATION_INVALID);
    }

    @Test
    void verifyWhenDelegationClaimsEmptyOrTooLongThenRejected() {
        assertThatAssertion(() -> rsaMinter().mint(DvidMintRequest.of(SUBJECT, DPA, "", OAUTH_EXP)))
                .hasCode(ErrorCode.MALFORMED);
        assertThatAssertion(() -> rsaMinter().mint(DvidMintRequest.of(SUBJECT, DPA, "x".repeat(2049), OAUTH_EXP)))
                .hasCode(ErrorCode.LIMIT_EXCEEDED);
    }

    @Test
    void verifyWhenMintedManyTimesThenJtiIsUnique128BitBase64url() {
        DvidMinter minter = rsaMinter();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            String jti = minter.mint(DvidMintRequest.of(SUBJECT, DPA, DPR, OAUTH_EXP))
                    .jti();
            assertThat(Codec.fromB64url(jti)).hasSize(16);
            seen.add(jti);
        }
        assertThat(seen).hasSize(200);
    }

    @Test
    void verifyWhenRsaKeyThenKidIsTheRfc7638ThumbprintNimbusComputes() throws Exception {
        String nimbus = new RSAKey.Builder((RSAPublicKey) RSA.getPublic())
                .build()
                .computeThumbprint()
                .toString();
        assertThat(rsaMinter().keyId()).isEqualTo(nimbus);
        assertThat(header(rsaMinter()
                        .mint(DvidMintRequest.of(SUBJECT, DPA, DPR, OAUTH_EXP))
                        .token()))
                .containsEntry("kid", nimbus);
    }

    @Test
    void verifyWhenEs256KeyThenMintedTokenVerifiesWithBouncyCastleAndSunEc() throws Exception {
        KeyPair ec = ecKeyPair();
        DvidSettings settings = DvidSettings.defaults(ASSERTING, clockAt(NOW)).withAlgorithm(DvidAlgorithm.ES256);
        DvidMinter minter = minter(ec, settings);
        Dvid dvid = minter.mint(DvidMintRequest.of(SUBJECT, DPA, DPR, OAUTH_EXP).withAudience(List.of(MIDDLE)));

        assertThat(header(dvid.token())).containsEntry("alg", "ES256");
        assertThat(minter.keyId())
                .isEqualTo(new ECKey.Builder(Curve.P_256, (ECPublicKey) ec.getPublic())
                        .build()
                        .computeThumbprint()
                        .toString());
        assertThat(Codec.fromB64url(DvidTestSupport.segments(dvid.token()).get(2)))
                .hasSize(64);
        for (Provider provider : List.of(BC, Security.getProvider("SunEC"))) {
            VerifiedDvid verified = new DvidVerifier(settings, provider, DvidKeyResolver.of(ec.getPublic()))
                    .verify(dvid.token(), MIDDLE);
            assertThat(verified.dpr()).isEqualTo(DPR);
        }
        // an ES256 verifier refuses RS256 DVIDs and the other way round
        String rs256 = rsaMinter()
                .mint(DvidMintRequest.of(SUBJECT, DPA, DPR, OAUTH_EXP))
                .token();
        assertThatAssertion(
                        () -> new DvidVerifier(settings, BC, DvidKeyResolver.of(RSA.getPublic())).verify(rs256, MIDDLE))
                .hasCode(ErrorCode.UNSUPPORTED);
        DvidSettings rsSettings = DvidSettings.defaults(ASSERTING, clockAt(NOW));
        assertThatAssertion(() -> new DvidVerifier(rsSettings, BC, DvidKeyResolver.of(ec.getPublic()))
                        .verify(dvid.token(), MIDDLE))
                .hasCode(ErrorCode.UNSUPPORTED);
    }

    @Test
    void verifyWhenSunRsaSignSignsThenSameTokenAsBouncyCastle() {
        DvidSettings settings = DvidSettings.defaults(ASSERTING, clockAt(NOW));
        DvidMintRequest request =
                DvidMintRequest.of(SUBJECT, DPA, DPR, OAUTH_EXP).withOriginalShape("k");
        String bc = minter(RSA, settings).mint(request).token();
        String sun = new DvidMinter(
                        RSA.getPrivate(),
                        RSA.getPublic(),
                        Security.getProvider("SunRsaSign"),
                        settings,
                        new SecureRandom())
                .mint(request)
                .token();
        assertThat(sun).isEqualTo(bc);
    }

    @Test
    void verifyWhenAudienceGivenThenStringForOneAndArrayForMore() {
        Dvid one = rsaMinter()
                .mint(DvidMintRequest.of(SUBJECT, DPA, DPR, OAUTH_EXP).withAudience(List.of(MIDDLE)));
        Dvid two = rsaMinter()
                .mint(DvidMintRequest.of(SUBJECT, DPA, DPR, OAUTH_EXP).withAudience(List.of(MIDDLE, TARGET)));
        assertThat(payload(one.token())).containsEntry("aud", MIDDLE.toString());
        assertThat(payload(two.token())).containsEntry("aud", List.of(MIDDLE.toString(), TARGET.toString()));
    }

    @Test
    void verifyWhenOriginalShapeThenNoJtiAndTheGivenKid() {
        Dvid dvid = rsaMinter()
                .mint(DvidMintRequest.of(SUBJECT, DPA, DPR, OAUTH_EXP).withOriginalShape(""));
        assertThat(dvid.jti()).isNull();
        assertThat(payload(dvid.token())).doesNotContainKey("jti");
        assertThat(header(dvid.token())).containsEntry("kid", "");
    }

    @Test
    void verifyWhenEmbeddedProofThenZkpClaimHoldsMsgAndProofAsStrings() {
        EmbeddedZkp zkp =
                new EmbeddedZkp("aGVhZGVy.cGF5bG9hZA", "{\"proofp\":[{\"0\":\"01\"}],\"proofc\":[{\"0\":\"01\"}]}");
        Dvid dvid = rsaMinter()
                .mint(DvidMintRequest.of(SUBJECT, DPA, DPR, OAUTH_EXP).withZkp(zkp));
        assertThat(payload(dvid.token())).containsEntry("zkp", Map.of("msg", zkp.msg(), "proof", zkp.proof()));
        assertThat(DvidTestSupport.segmentJson(dvid.token(), 1)).contains("\"zkp\":{\"msg\":");
    }

    @Test
    void verifyWhenTokenWouldExceedTheSizeLimitThenLimitExceeded() {
        DvidSettings tight = DvidSettings.defaults(ASSERTING, clockAt(NOW))
                .withLimits(new io.spiffeidt.core.Limits(1024, 32, 2048, 80, 256));
        EmbeddedZkp big = new EmbeddedZkp("a.b", "x".repeat(2000));
        assertThatAssertion(() -> minter(RSA, tight)
                        .mint(DvidMintRequest.of(SUBJECT, DPA, DPR, OAUTH_EXP).withZkp(big)))
                .hasCode(ErrorCode.LIMIT_EXCEEDED);
    }

    @Test
    void verifyWhenKeyDoesNotFitTheSettingsThenConstructorRefuses() throws Exception {
        KeyPair ec = ecKeyPair();
        DvidSettings rs256 = DvidSettings.defaults(ASSERTING, clockAt(NOW));
        assertThatThrownBy(() -> minter(ec, rs256)).isInstanceOf(IllegalArgumentException.class);
        KeyPair mixed = new KeyPair(DvidTestSupport.idpPublicKey(), RSA.getPrivate());
        assertThatThrownBy(() -> minter(mixed, rs256)).isInstanceOf(IllegalArgumentException.class);
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA", BC);
        g.initialize(1024);
        KeyPair weak = g.generateKeyPair();
        assertThatThrownBy(() -> minter(weak, rs256)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void verifyWhenPrintedThenTheTokenIsNotShown() {
        Dvid dvid = rsaMinter().mint(DvidMintRequest.of(SUBJECT, DPA, DPR, OAUTH_EXP));
        assertThat(dvid.toString()).doesNotContain(dvid.token()).contains(dvid.jti());
    }
}
