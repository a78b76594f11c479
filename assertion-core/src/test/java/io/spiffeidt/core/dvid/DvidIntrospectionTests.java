package io.spiffeidt.core.dvid;

import static io.spiffeidt.core.dvid.DvidTestSupport.ASSERTING;
import static io.spiffeidt.core.dvid.DvidTestSupport.BC;
import static io.spiffeidt.core.dvid.DvidTestSupport.DPA;
import static io.spiffeidt.core.dvid.DvidTestSupport.DPR;
import static io.spiffeidt.core.dvid.DvidTestSupport.IDP_KID;
import static io.spiffeidt.core.dvid.DvidTestSupport.MIDDLE;
import static io.spiffeidt.core.dvid.DvidTestSupport.NOW;
import static io.spiffeidt.core.dvid.DvidTestSupport.SUBJECT;
import static io.spiffeidt.core.dvid.DvidTestSupport.clockAt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.internal.Json;
import java.math.BigInteger;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The m-tier's check of an introspection answer against a verified DVID. */
class DvidIntrospectionTests {

    private static final KeyPair ASSERTING_KEYS = DvidTestSupport.assertingKeyPair();
    private static final DvidSettings SETTINGS = DvidSettings.defaults(ASSERTING, clockAt(NOW));
    private static final DvidIntrospection ANSWER = DvidIntrospection.create(
            DvidTestSupport.oauthToken(), DvidTestSupport.idpPublicKey(), IDP_KID, 80, new SecureRandom());

    private static VerifiedDvid verified(String dpa, String dpr) {
        DvidMinter minter = new DvidMinter(
                ASSERTING_KEYS.getPrivate(), ASSERTING_KEYS.getPublic(), BC, SETTINGS, new SecureRandom());
        String token = minter.mint(DvidMintRequest.of(SUBJECT, dpa, dpr, Instant.ofEpochSecond(4102444800L)))
                .token();
        return new DvidVerifier(SETTINGS, BC, DvidKeyResolver.of(ASSERTING_KEYS.getPublic())).verify(token, MIDDLE);
    }

    private static void assertCode(DvidIntrospection answer, VerifiedDvid dvid, ErrorCode code) {
        assertThatThrownBy(() -> answer.verify(dvid, SETTINGS, BC))
                .isInstanceOf(AssertionException.class)
                .extracting(e -> ((AssertionException) e).code())
                .isEqualTo(code);
    }

    @ParameterizedTest
    @EnumSource(VerificationProfile.class)
    void verifyWhenAnswerMatchesTheDvidThenAccepted(VerificationProfile profile) {
        ANSWER.verify(verified(DPA, DPR), SETTINGS.withProfile(profile), BC);
        assertThat(ANSWER.idpKey()).contains("\"kid\":\"" + IDP_KID + "\"").doesNotContain("\"d\"");
    }

    @Test
    void verifyWhenCreatedThenTheOAuthSignatureIsNowhere() {
        String token = DvidTestSupport.oauthToken();
        String signature = token.substring(token.lastIndexOf('.') + 1);
        assertThat(ANSWER.msg()).isEqualTo(token.substring(0, token.lastIndexOf('.')));
        assertThat(ANSWER.msg() + ANSWER.zkp() + ANSWER.idpKey()).doesNotContain(signature);
        assertThat(ANSWER.toString()).doesNotContain(ANSWER.msg());
    }

    @Test
    void verifyWhenDvidIsForAnotherUserOrIssuerThenDelegationInvalid() {
        assertCode(ANSWER, verified(DPA, "mallory@example.test"), ErrorCode.DELEGATION_INVALID);
        assertCode(ANSWER, verified("https://evil.example", DPR), ErrorCode.DELEGATION_INVALID);
    }

    @Test
    void verifyWhenProofTamperedThenBadProof() {
        ZkProof proof = ZkProofCodec.parse(ANSWER.zkp());
        List<BigInteger> c = new ArrayList<>(proof.c());
        c.set(0, c.get(0).add(BigInteger.TWO));
        DvidIntrospection tampered =
                new DvidIntrospection(ANSWER.msg(), ZkProofCodec.toJson(new ZkProof(proof.p(), c)), ANSWER.idpKey());
        assertCode(tampered, verified(DPA, DPR), ErrorCode.BAD_PROOF);
    }

    @Test
    void verifyWhenAllZeroProofThenBadProof() {
        Map<String, Object> v012 =
                DvidTestSupport.readVector(DvidTestSupport.vectorDir().resolve("012_zkp_all_zero_degenerate.json"));
        DvidIntrospection zero =
                new DvidIntrospection(ANSWER.msg(), DvidTestSupport.at(v012, "inputs.proof_json"), ANSWER.idpKey());
        assertCode(zero, verified(DPA, DPR), ErrorCode.BAD_PROOF);
    }

    @Test
    void verifyWhenKeyIdDiffersFromTheOAuthHeaderThenUntrustedKey() {
        DvidIntrospection other = new DvidIntrospection(
                ANSWER.msg(), ANSWER.zkp(), DvidKeys.jwk(DvidTestSupport.idpPublicKey(), "another-kid"));
        assertCode(other, verified(DPA, DPR), ErrorCode.UNTRUSTED_KEY);
    }

    @Test
    void verifyWhenKeyIsAnotherRsaKeyThenBadProof() {
        DvidIntrospection other =
                new DvidIntrospection(ANSWER.msg(), ANSWER.zkp(), DvidKeys.jwk(ASSERTING_KEYS.getPublic(), IDP_KID));
        assertCode(other, verified(DPA, DPR), ErrorCode.BAD_PROOF);
    }

    @Test
    void verifyWhenKeyIsNotRsaThenUnsupported() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC", BC);
        g.initialize(new ECGenParameterSpec("secp256r1"));
        DvidIntrospection ec = new DvidIntrospection(
                ANSWER.msg(), ANSWER.zkp(), DvidKeys.jwk(g.generateKeyPair().getPublic(), IDP_KID));
        assertCode(ec, verified(DPA, DPR), ErrorCode.UNSUPPORTED);
    }

    @Test
    void verifyWhenMsgIsNotHeaderDotPayloadThenMalformed() {
        VerifiedDvid dvid = verified(DPA, DPR);
        for (String msg : List.of(DvidTestSupport.oauthToken(), "abc", "a.", ".b", "a.b.c", "%%.%%")) {
            assertCode(new DvidIntrospection(msg, ANSWER.zkp(), ANSWER.idpKey()), dvid, ErrorCode.MALFORMED);
        }
    }

    @Test
    void verifyWhenOAuthHeaderIsNotRs256ThenUnsupported() {
        Map<String, Object> header = new TreeMap<>(Map.of("alg", "HS256", "kid", IDP_KID));
        String msg = io.spiffeidt.core.internal.Codec.b64url(Json.write(header))
                + ANSWER.msg().substring(ANSWER.msg().indexOf('.'));
        assertCode(
                new DvidIntrospection(msg, ANSWER.zkp(), ANSWER.idpKey()), verified(DPA, DPR), ErrorCode.UNSUPPORTED);
    }

    @Test
    void verifyWhenCreatedFromATokenWithABadSignatureThenBadSignature() {
        String token = DvidTestSupport.oauthToken();
        int at = token.length() - 20;
        char replacement = token.charAt(at) == 'A' ? 'B' : 'A';
        String forged = token.substring(0, at) + replacement + token.substring(at + 1);
        assertThatThrownBy(() -> DvidIntrospection.create(
                        forged, DvidTestSupport.idpPublicKey(), IDP_KID, 80, new SecureRandom()))
                .isInstanceOf(AssertionException.class)
                .extracting(e -> ((AssertionException) e).code())
                .isEqualTo(ErrorCode.BAD_SIGNATURE);
    }
}
