package io.spiffeidt.core.zkp;

import static io.spiffeidt.core.zkp.ZkpTestSupport.BC;
import static io.spiffeidt.core.zkp.ZkpTestSupport.DPA;
import static io.spiffeidt.core.zkp.ZkpTestSupport.DPR;
import static io.spiffeidt.core.zkp.ZkpTestSupport.IDP_KID;
import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.internal.Codec;
import io.spiffeidt.core.internal.Json;
import io.spiffeidt.core.internal.Jwks;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.interfaces.RSAPublicKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The introspection answer: made from an OAuth token, checked against a verified delegation. */
class OAuthProofTests {

    private static final Limits LIMITS = Limits.defaults();
    private static final OAuthProof ANSWER = OAuthProof.create(
            ZkpTestSupport.oauthToken(), ZkpTestSupport.idpPublicKey(), IDP_KID, 80, new SecureRandom());

    /** The verifier's own view of the IdP's JWKS. */
    private static final IdpKeyResolver IDP_KEYS =
            IdpKeyResolver.of(DPA, Map.of(IDP_KID, ZkpTestSupport.idpPublicKey()));

    private static void assertCode(OAuthProof answer, String dpa, String dpr, ErrorCode code) {
        assertThatAssertion(() -> answer.verify(dpa, dpr, IDP_KEYS, VerificationProfile.STRICT, LIMITS, BC))
                .hasCode(code);
    }

    @ParameterizedTest
    @EnumSource(VerificationProfile.class)
    void verifyWhenAnswerMatchesTheDelegationThenAccepted(VerificationProfile profile) {
        ANSWER.verify(DPA, DPR, IDP_KEYS, profile, LIMITS);
        assertThat(ANSWER.idpKey()).contains("\"kid\":\"" + IDP_KID + "\"").doesNotContain("\"d\"");
    }

    @Test
    void verifyWhenCreatedThenTheOAuthSignatureIsNowhere() {
        String token = ZkpTestSupport.oauthToken();
        String signature = token.substring(token.lastIndexOf('.') + 1);
        assertThat(ANSWER.msg()).isEqualTo(token.substring(0, token.lastIndexOf('.')));
        assertThat(ANSWER.msg() + ANSWER.zkp() + ANSWER.idpKey()).doesNotContain(signature);
        assertThat(ANSWER.toString()).doesNotContain(ANSWER.msg());
    }

    @Test
    void verifyWhenDelegationIsForAnotherUserOrIssuerThenDelegationInvalid() {
        assertCode(ANSWER, DPA, "mallory@example.test", ErrorCode.DELEGATION_INVALID);
        assertCode(ANSWER, "https://evil.example", DPR, ErrorCode.DELEGATION_INVALID);
    }

    @Test
    void verifyWhenProofTamperedThenBadProof() {
        ZkProof proof = ZkProofCodec.parse(ANSWER.zkp());
        List<BigInteger> c = new ArrayList<>(proof.c());
        c.set(0, c.get(0).add(BigInteger.TWO));
        OAuthProof tampered =
                new OAuthProof(ANSWER.msg(), ZkProofCodec.toJson(new ZkProof(proof.p(), c)), ANSWER.idpKey());
        assertCode(tampered, DPA, DPR, ErrorCode.BAD_PROOF);
    }

    @Test
    void verifyWhenAllZeroProofThenBadProof() {
        Map<String, Object> v012 = ZkpTestSupport.readVector("012_zkp_all_zero_degenerate.json");
        OAuthProof zero = new OAuthProof(ANSWER.msg(), ZkpTestSupport.at(v012, "inputs.proof_json"), ANSWER.idpKey());
        assertCode(zero, DPA, DPR, ErrorCode.BAD_PROOF);
    }

    @Test
    void verifyWhenAnswerCarriesAMadeUpKeyWithTheRealKidThenBadProof() throws Exception {
        // the attacker signs the real header.payload with a key of its own and labels it with the IdP's kid
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(2048);
        KeyPair attacker = g.generateKeyPair();
        String msg = ANSWER.msg();
        Signature rsa = Signature.getInstance("SHA256withRSA");
        rsa.initSign(attacker.getPrivate());
        rsa.update(msg.getBytes(StandardCharsets.US_ASCII));
        String forged = msg + "." + Codec.b64url(rsa.sign());
        OAuthProof madeUp =
                OAuthProof.create(forged, (RSAPublicKey) attacker.getPublic(), IDP_KID, 80, new SecureRandom());
        assertThat(madeUp.idpKey()).contains("\"kid\":\"" + IDP_KID + "\"");

        assertCode(madeUp, DPA, DPR, ErrorCode.BAD_PROOF);
    }

    @Test
    void verifyWhenAnswerCarriesAnotherKeyThenTheResolvedKeyDecidesAndItVerifies() {
        OAuthProof other =
                new OAuthProof(ANSWER.msg(), ANSWER.zkp(), Jwks.jwk(ZkpTestSupport.otherRsaPublicKey(), "another-kid"));
        other.verify(DPA, DPR, IDP_KEYS, VerificationProfile.STRICT, LIMITS);
        assertThat(other.idpKey()).contains("another-kid");
    }

    @Test
    void verifyWhenTheIssuerHasNoKeyWithTheOAuthKidThenUntrustedKey() {
        IdpKeyResolver rotated = IdpKeyResolver.of(DPA, Map.of("next-kid", ZkpTestSupport.idpPublicKey()));
        assertThatAssertion(() -> ANSWER.verify(DPA, DPR, rotated, VerificationProfile.STRICT, LIMITS))
                .hasCode(ErrorCode.UNTRUSTED_KEY);
    }

    @Test
    void verifyWhenMsgIsNotHeaderDotPayloadThenMalformed() {
        for (String msg : List.of(ZkpTestSupport.oauthToken(), "abc", "a.", ".b", "a.b.c", "%%.%%")) {
            assertCode(new OAuthProof(msg, ANSWER.zkp(), ANSWER.idpKey()), DPA, DPR, ErrorCode.MALFORMED);
        }
    }

    @Test
    void verifyWhenOAuthHeaderIsNotRs256ThenUnsupported() {
        Map<String, Object> header = new TreeMap<>(Map.of("alg", "HS256", "kid", IDP_KID));
        String msg = Codec.b64url(Json.write(header))
                + ANSWER.msg().substring(ANSWER.msg().indexOf('.'));
        assertCode(new OAuthProof(msg, ANSWER.zkp(), ANSWER.idpKey()), DPA, DPR, ErrorCode.UNSUPPORTED);
    }

    @Test
    void verifyWhenCreatedFromATokenWithABadSignatureThenBadSignature() {
        String token = ZkpTestSupport.oauthToken();
        int at = token.length() - 20;
        char replacement = token.charAt(at) == 'A' ? 'B' : 'A';
        String forged = token.substring(0, at) + replacement + token.substring(at + 1);
        assertThatAssertion(
                        () -> OAuthProof.create(forged, ZkpTestSupport.idpPublicKey(), IDP_KID, 80, new SecureRandom()))
                .hasCode(ErrorCode.BAD_SIGNATURE);
    }
}
