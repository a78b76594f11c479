package io.spiffeidt.devstack.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.wimse.WimseHeaders;
import io.spiffeidt.core.wimse.WimseSettings;
import io.spiffeidt.core.wimse.WptSigner;
import io.spiffeidt.devstack.DevStackSettings;
import io.spiffeidt.devstack.it.SystemClient.Answer;
import java.net.URI;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.Security;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The wimse mode through the four tiers over real SPIFFE mTLS with the development IdP (the shared
 * flow contract, {@link ModeFlowContractIT}): the subject workload exchanges the access token for a
 * Txn-Token as in mode txn-token, and every call between the tiers carries the sender's WIT and a WPT
 * for that call, verified by m-tier and target-wl; and an independent verifier, nimbus alone with
 * the issuer's JWKS and the draft's rules, accepts a WIT the asserting workload issued.
 */
class WimseFlowIT extends ModeFlowContractIT {

    @BeforeAll
    static void start() {
        // the thesis reproduction, no memo: every verification fetches both key sets, and the WPT
        // replay check still runs (WimseAttackIT runs with the memos on)
        startStack(DevStackSettings.ephemeral().withProperty("spiffeidt.memo.enabled", "false"));
    }

    @Override
    String mode() {
        return "wimse";
    }

    @Override
    String userClaim() {
        return "sub";
    }

    @Override
    void assertMinted(JsonNode mint, String user, String accessToken) {
        // the user part is the Txn-Token, minted as in mode txn-token
        assertThat(mint.get("header").get("typ").asString()).isEqualTo("txntoken+jwt");
        JsonNode claims = mint.get("claims");
        assertThat(claims.get("aud").asString())
                .isEqualTo(client.idOf("asserting-wl").trustDomain());
        assertThat(claims.get("req_wl").asString()).isEqualTo(id("subject-wl"));
        assertThat(mint.get("token").asString()).doesNotContain(accessToken.split("\\.")[1]);
    }

    /** The Txn-Token Service, the subject workload that asked, m-tier that had it replaced, then the target. */
    @Override
    void assertPath(List<String> path) {
        assertThat(path).containsExactly(id("asserting-wl"), id("subject-wl"), id("m-tier"), id("target-wl"));
    }

    @Override
    List<String> modeGarbage() {
        return List.of("{\"token\":\"a.b.c\"}");
    }

    /** The draft's WIT rules (creds §5.1) in nimbus alone: type, ES256 under the issuer's JWKS, required claims. */
    @Test
    void independentVerifierWhenIssuerAnsweredThenWitNamesTheMtlsPeerAndConfirmsItsKey() throws Exception {
        KeyPairGenerator gen = KeyPairGenerator.getInstance("EC");
        gen.initialize(new ECGenParameterSpec("secp256r1"));
        KeyPair own = gen.generateKeyPair();
        String jwk = new ECKey.Builder(Curve.P_256, (ECPublicKey) own.getPublic())
                .build()
                .toJSONString();

        Answer issued = client.asWorkload("m-tier", "asserting-wl", "/wimse/wit", "{\"jwk\":" + jwk + "}");
        Answer jwks = client.getAsWorkload("target-wl", "asserting-wl", "/wimse/keys");

        assertThat(issued.status()).as(issued.body()).isEqualTo(200);
        assertThat(jwks.status()).as(jwks.body()).isEqualTo(200);
        DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
        processor.setJWSTypeVerifier(new DefaultJOSEObjectTypeVerifier<>(new JOSEObjectType("wit+jwt")));
        processor.setJWSKeySelector(
                new JWSVerificationKeySelector<>(JWSAlgorithm.ES256, new ImmutableJWKSet<>(JWKSet.parse(jwks.body()))));
        processor.setJWTClaimsSetVerifier(
                new DefaultJWTClaimsVerifier<>(null, null, Set.of("sub", "exp", "iss", "cnf", "jti")));
        JWTClaimsSet claims = processor.process(issued.json().get("wit").asString(), null);
        assertThat(claims.getSubject()).isEqualTo(id("m-tier"));
        assertThat(claims.getIssuer()).isEqualTo(id("asserting-wl"));
        @SuppressWarnings("unchecked")
        Map<String, Object> cnfJwk =
                (Map<String, Object>) claims.getJSONObjectClaim("cnf").get("jwk");
        assertThat(ECKey.parse(cnfJwk).toECPublicKey()).isEqualTo(own.getPublic());
        assertThat(cnfJwk).containsEntry("alg", "ES256").doesNotContainKey("d");
    }

    @Test
    void issuerWhenPrivateKeySentThenRefusedMalformed() throws Exception {
        KeyPairGenerator gen = KeyPairGenerator.getInstance("EC");
        gen.initialize(new ECGenParameterSpec("secp256r1"));
        KeyPair own = gen.generateKeyPair();
        String jwk = new ECKey.Builder(Curve.P_256, (ECPublicKey) own.getPublic())
                .privateKey(own.getPrivate())
                .build()
                .toJSONString();

        Answer refused = client.asWorkload("m-tier", "asserting-wl", "/wimse/wit", "{\"jwk\":" + jwk + "}");

        assertThat(refused.status()).as(refused.body()).isEqualTo(400);
        assertThat(refused.json().get("code").asString()).isEqualTo("MALFORMED");
    }

    /** The memos off turn off remembered work, never the single use of a WPT. */
    @Test
    void replayWhenMemosOffThenASecondUseOfAWptStillRefused() throws Exception {
        KeyPairGenerator gen = KeyPairGenerator.getInstance("EC");
        gen.initialize(new ECGenParameterSpec("secp256r1"));
        KeyPair own = gen.generateKeyPair();
        String jwk = new ECKey.Builder(Curve.P_256, (ECPublicKey) own.getPublic())
                .build()
                .toJSONString();
        String wit = client.asWorkload("m-tier", "asserting-wl", "/wimse/wit", "{\"jwk\":" + jwk + "}")
                .json()
                .get("wit")
                .asString();
        String txn = client.user("txn-token", "mint", client.userToken("user0086"), null)
                .json()
                .get("token")
                .asString();
        URI target = stack.mtlsUrl("target-wl").resolve("/wimse/balance");
        String wpt = new WptSigner(
                        own.getPrivate(),
                        own.getPublic(),
                        Security.getProvider("SunEC"),
                        WimseSettings.defaults(SpiffeId.parse(id("asserting-wl")), Clock.systemUTC()),
                        new SecureRandom())
                .sign(wit, "POST", target, txn)
                .token();
        Map<String, String> headers = Map.of(
                WimseHeaders.WORKLOAD_IDENTITY_TOKEN, wit,
                WimseHeaders.AUTHORIZATION, WimseHeaders.authorization(wpt),
                WimseHeaders.TXN_TOKEN, txn);

        Answer first = client.asWorkload("m-tier", "target-wl", "/wimse/balance", "{}", headers);
        Answer again = client.asWorkload("m-tier", "target-wl", "/wimse/balance", "{}", headers);

        assertThat(first.status()).as(first.body()).isEqualTo(200);
        assertThat(first.json().get("user").asString()).isEqualTo("user0086");
        assertThat(again.status()).as(again.body()).isEqualTo(401);
        assertThat(again.json().get("code").asString()).isEqualTo("REPLAYED");
    }

    @Test
    void metricsWhenFlowRanThenBothTiersVerifiedAndMTierSignedAWpt() {
        assertThat(client.user("wimse", "balance", client.userToken("user0083"), null)
                        .status())
                .isEqualTo(200);
        assertThat(client.prometheus("m-tier").body())
                .contains("mode=\"wimse\"")
                .contains("operation=\"validate\"")
                .contains("operation=\"extend\"")
                .contains("operation=\"target_call\"");
        assertThat(client.prometheus("target-wl").body()).contains("mode=\"wimse\"");
        assertThat(client.prometheus("asserting-wl").body()).contains("mode=\"wimse\"");
    }
}
