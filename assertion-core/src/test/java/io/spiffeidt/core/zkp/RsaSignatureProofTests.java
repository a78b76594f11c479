package io.spiffeidt.core.zkp;

import static io.spiffeidt.core.zkp.ZkpTestSupport.BC;
import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.internal.Codec;
import io.spiffeidt.core.internal.Json;
import io.spiffeidt.core.internal.Jwks;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.Security;
import java.security.Signature;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** The RSA-signature proof of knowledge: round trips, and every way a proof must fail. */
class RsaSignatureProofTests {

    private static final Limits LIMITS = Limits.defaults();
    private static final String TOKEN = ZkpTestSupport.oauthToken();
    private static final byte[] MSG = TOKEN.substring(0, TOKEN.lastIndexOf('.')).getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SIG = Codec.fromB64url(TOKEN.substring(TOKEN.lastIndexOf('.') + 1));
    private static final RSAPublicKey KEY = ZkpTestSupport.idpPublicKey();
    private static final ZkProof PROOF = RsaSignatureProof.prove(MSG, SIG, KEY, 80, new SecureRandom());

    private static void assertCode(ZkProof proof, byte[] msg, VerificationProfile profile, ErrorCode code) {
        assertThatAssertion(() -> RsaSignatureProof.verify(proof, msg, KEY, profile, LIMITS))
                .hasCode(code);
    }

    private static ZkProof withP(UnaryOperator<List<BigInteger>> change) {
        return new ZkProof(change.apply(new ArrayList<>(PROOF.p())), PROOF.c());
    }

    private static ZkProof withC(UnaryOperator<List<BigInteger>> change) {
        return new ZkProof(PROOF.p(), change.apply(new ArrayList<>(PROOF.c())));
    }

    private static <T> List<T> set(List<T> list, int index, T value) {
        list.set(index, value);
        return list;
    }

    @ParameterizedTest
    @EnumSource(VerificationProfile.class)
    void verifyWhenProvedAt80RoundsThenVerifies(VerificationProfile profile) {
        assertThat(PROOF.rounds()).isEqualTo(80);
        RsaSignatureProof.verify(PROOF, MSG, KEY, profile, LIMITS);
    }

    @Test
    void verifyWhenProvedTwiceThenCommitmentsDiffer() {
        ZkProof again = RsaSignatureProof.prove(MSG, SIG, KEY, 80, new SecureRandom());
        assertThat(again.c()).doesNotContainAnyElementsOf(PROOF.c());
        RsaSignatureProof.verify(again, MSG, KEY, VerificationProfile.STRICT, LIMITS);
    }

    @Test
    void verifyWhenProofRevealsNoResponseEqualToTheSignatureThenWitnessStaysHidden() {
        BigInteger s = new BigInteger(1, SIG);
        assertThat(PROOF.p()).doesNotContain(s);
    }

    static Stream<Provider> signers() {
        return Stream.of(BC, Security.getProvider("SunRsaSign"));
    }

    @ParameterizedTest
    @MethodSource("signers")
    void verifyWhenSignatureMadeByAProviderThenProofRoundTrips(Provider provider) throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA", provider);
        g.initialize(2048);
        KeyPair pair = g.generateKeyPair();
        byte[] msg = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJib2IifQ".getBytes(StandardCharsets.US_ASCII);
        Signature signer = Signature.getInstance("SHA256withRSA", provider);
        signer.initSign(pair.getPrivate());
        signer.update(msg);
        byte[] sig = signer.sign();
        ZkProof proof = RsaSignatureProof.prove(msg, sig, (RSAPublicKey) pair.getPublic(), 80, new SecureRandom());
        RsaSignatureProof.verify(proof, msg, (RSAPublicKey) pair.getPublic(), VerificationProfile.STRICT, LIMITS);
        assertThatAssertion(() -> RsaSignatureProof.verify(proof, msg, KEY, VerificationProfile.STRICT, LIMITS))
                .isNotNull();
    }

    @ParameterizedTest
    @EnumSource(VerificationProfile.class)
    void verifyWhenWrongMessageThenBadProof(VerificationProfile profile) {
        byte[] other = MSG.clone();
        other[other.length - 1] ^= 0x01;
        assertCode(PROOF, other, profile, ErrorCode.BAD_PROOF);
    }

    @Test
    void verifyWhenResponseTamperedInAnyRoundThenBadProof() {
        for (int i = 0; i < PROOF.rounds(); i += 7) {
            int round = i;
            assertCode(
                    withP(p -> set(p, round, p.get(round).add(BigInteger.ONE))),
                    MSG,
                    VerificationProfile.STRICT,
                    ErrorCode.BAD_PROOF);
        }
    }

    @Test
    void verifyWhenCommitmentTamperedThenBadProof() {
        assertCode(
                withC(c -> set(c, 5, c.get(5).add(BigInteger.ONE))),
                MSG,
                VerificationProfile.STRICT,
                ErrorCode.BAD_PROOF);
        // changing a commitment also changes every challenge bit: a consistent round-0 swap still fails
        assertCode(
                withC(c -> {
                    Collections.swap(c, 0, 1);
                    return c;
                }),
                MSG,
                VerificationProfile.STRICT,
                ErrorCode.BAD_PROOF);
    }

    @ParameterizedTest
    @EnumSource(VerificationProfile.class)
    void verifyWhenAnyValueIsZeroThenBadProof(VerificationProfile profile) {
        assertCode(withP(p -> set(p, 0, BigInteger.ZERO)), MSG, profile, ErrorCode.BAD_PROOF);
        assertCode(withC(c -> set(c, 79, BigInteger.ZERO)), MSG, profile, ErrorCode.BAD_PROOF);
        List<BigInteger> zeros = Collections.nCopies(80, BigInteger.ZERO);
        assertCode(new ZkProof(zeros, zeros), MSG, profile, ErrorCode.BAD_PROOF);
    }

    @ParameterizedTest
    @EnumSource(VerificationProfile.class)
    void verifyWhenValueEqualsOrExceedsTheModulusThenBadProof(VerificationProfile profile) {
        BigInteger n = KEY.getModulus();
        assertCode(withC(c -> set(c, 3, n)), MSG, profile, ErrorCode.BAD_PROOF);
        assertCode(withP(p -> set(p, 3, n)), MSG, profile, ErrorCode.BAD_PROOF);
        // p + n is congruent to p: the original would accept it, the range check does not
        assertCode(withP(p -> set(p, 3, p.get(3).add(n))), MSG, profile, ErrorCode.BAD_PROOF);
    }

    @Test
    void verifyWhenCommitmentSharesAFactorWithTheModulusThenBadProof() {
        BigInteger prime = ((RSAPrivateCrtKey) ZkpTestSupport.idpKeyPair().getPrivate()).getPrimeP();
        assertCode(withC(c -> set(c, 2, prime)), MSG, VerificationProfile.ORIGINAL_COMPATIBLE, ErrorCode.BAD_PROOF);
    }

    @Test
    void verifyWhenEveryRoundHoldsButOneCommitmentSharesAFactorThenUnitCheckRejects() {
        BigInteger prime = ((RSAPrivateCrtKey) ZkpTestSupport.idpKeyPair().getPrivate()).getPrimeP();
        ZkProof proof = RsaSignatureProof.prove(MSG, SIG, KEY, 80, drawingAt(2, prime));
        // a draw rejected as >= n shifts which round gets the value, so look at every commitment
        assertThat(proof.c()).anyMatch(c -> !c.gcd(KEY.getModulus()).equals(BigInteger.ONE));
        for (VerificationProfile profile : VerificationProfile.values()) {
            assertThatAssertion(() -> RsaSignatureProof.verify(proof, MSG, KEY, profile, LIMITS))
                    .hasCode(ErrorCode.BAD_PROOF)
                    .hasMessageContaining("degenerate commitment");
        }
    }

    /** A random source whose draw number {@code index} is {@code value} (a full-width draw of n's size). */
    private static SecureRandom drawingAt(int index, BigInteger value) {
        int size = (KEY.getModulus().bitLength() + 7) / 8;
        return new SecureRandom() {
            private int draws;

            @Override
            public void nextBytes(byte[] bytes) {
                if (draws++ == index && bytes.length == size) {
                    byte[] v = value.toByteArray();
                    Arrays.fill(bytes, (byte) 0);
                    int from = v.length > size ? v.length - size : 0;
                    System.arraycopy(v, from, bytes, size - (v.length - from), v.length - from);
                } else {
                    super.nextBytes(bytes);
                }
            }
        };
    }

    @Test
    void verifyWhenAllOnesThenBadProof() {
        List<BigInteger> ones = Collections.nCopies(80, BigInteger.ONE);
        assertCode(new ZkProof(ones, ones), MSG, VerificationProfile.STRICT, ErrorCode.BAD_PROOF);
    }

    @Test
    void verifyWhenFewerThan80RoundsThenStrictRejectsAndOriginalCompatibleAccepts() {
        ZkProof short40 = RsaSignatureProof.prove(MSG, SIG, KEY, 40, new SecureRandom());
        assertCode(short40, MSG, VerificationProfile.STRICT, ErrorCode.BAD_PROOF);
        RsaSignatureProof.verify(short40, MSG, KEY, VerificationProfile.ORIGINAL_COMPATIBLE, LIMITS);
        ZkProof one = RsaSignatureProof.prove(MSG, SIG, KEY, 1, new SecureRandom());
        RsaSignatureProof.verify(one, MSG, KEY, VerificationProfile.ORIGINAL_COMPATIBLE, LIMITS);
        assertCode(one, MSG, VerificationProfile.STRICT, ErrorCode.BAD_PROOF);
    }

    @Test
    void verifyWhen256RoundsThenAcceptedAndOver256ThenLimitExceeded() {
        ZkProof max = RsaSignatureProof.prove(MSG, SIG, KEY, 256, new SecureRandom());
        RsaSignatureProof.verify(max, MSG, KEY, VerificationProfile.STRICT, LIMITS);
        List<BigInteger> p = new ArrayList<>(max.p());
        List<BigInteger> c = new ArrayList<>(max.c());
        p.add(max.p().get(0));
        c.add(max.c().get(0));
        for (VerificationProfile profile : VerificationProfile.values()) {
            assertCode(new ZkProof(p, c), MSG, profile, ErrorCode.LIMIT_EXCEEDED);
        }
        assertThatThrownBy(() -> RsaSignatureProof.prove(MSG, SIG, KEY, 257, new SecureRandom()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RsaSignatureProof.prove(MSG, SIG, KEY, 0, new SecureRandom()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void verifyWhenLimitsLowerTheMaximumThenLimitExceeded() {
        Limits tight = new Limits(256 * 1024, 32, 2048, 16, 64);
        assertThatAssertion(() -> RsaSignatureProof.verify(PROOF, MSG, KEY, VerificationProfile.STRICT, tight))
                .hasCode(ErrorCode.LIMIT_EXCEEDED);
    }

    @Test
    void verifyWhenProvingABadSignatureThenBadSignature() {
        byte[] bad = SIG.clone();
        bad[10] ^= 0x40;
        byte[] otherMsg = "eyJhbGciOiJSUzI1NiJ9.e30".getBytes(StandardCharsets.US_ASCII);
        for (byte[][] input : new byte[][][] {{MSG, bad}, {otherMsg, SIG}, {MSG, new byte[SIG.length]}}) {
            assertThatAssertion(() -> RsaSignatureProof.prove(input[0], input[1], KEY, 80, new SecureRandom()))
                    .hasCode(ErrorCode.BAD_SIGNATURE);
        }
    }

    @Test
    void verifyWhenKeyTooSmallThenUnsupported() throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA", BC);
        g.initialize(1024);
        RSAPublicKey small = (RSAPublicKey) g.generateKeyPair().getPublic();
        assertThatAssertion(() -> RsaSignatureProof.verify(PROOF, MSG, small, VerificationProfile.STRICT, LIMITS))
                .hasCode(ErrorCode.UNSUPPORTED);
        assertThatAssertion(() -> RsaSignatureProof.verify(PROOF, MSG, null, VerificationProfile.STRICT, LIMITS))
                .hasCode(ErrorCode.UNSUPPORTED);
    }

    @Test
    void verifyWhenEmsaEncodedThenRfc8017Layout() {
        int emLen = 256;
        byte[] em = RsaSignatureProof.emsaPkcs1Sha256(MSG, emLen).toByteArray();
        // the leading 0x00 is dropped by BigInteger: 0x01, 0xFF padding, 0x00, DigestInfo, hash
        assertThat(em).hasSize(emLen - 1);
        assertThat(em[0]).isEqualTo((byte) 0x01);
        assertThat(em[emLen - 1 - 51 - 1]).isEqualTo((byte) 0x00);
        assertThat(Codec.hex(java.util.Arrays.copyOfRange(em, emLen - 52, emLen - 33)))
                .isEqualTo("3031300d060960864801650304020105000420");
    }

    @Test
    void verifyWhenVector010ThenDerivedValuesMatchAndCompactFormIsOurs() {
        Map<String, Object> v = ZkpTestSupport.readVector("010_zkp_proof80.json");
        Map<String, Object> jwk = ZkpTestSupport.at(v, "inputs.idp_key.jwk");
        RSAPublicKey key = (RSAPublicKey) Jwks.parseJwk(Json.write(jwk), BC);
        String msg = ZkpTestSupport.at(v, "inputs.msg");
        ZkProof pretty = ZkProofCodec.parse(ZkpTestSupport.at(v, "outputs.proof_json"));
        ZkProof compact = ZkProofCodec.parse(ZkpTestSupport.at(v, "outputs.proof_json_compact"));

        assertThat(pretty).isEqualTo(compact);
        assertThat(ZkProofCodec.toJson(pretty)).isEqualTo(ZkpTestSupport.at(v, "outputs.proof_json_compact"));
        int emLen = (key.getModulus().bitLength() + 7) / 8;
        assertThat(RsaSignatureProof.emsaPkcs1Sha256(msg.getBytes(StandardCharsets.US_ASCII), emLen))
                .isEqualTo(new BigInteger(
                        (String) ZkpTestSupport.at(v, "derived_by_harness_for_debugging.m_emsa_hex"), 16));
        byte[] d = RsaSignatureProof.challenge(pretty.c());
        assertThat(Codec.hex(d))
                .isEqualTo(ZkpTestSupport.at(v, "derived_by_harness_for_debugging.challenge_sha256_hex"));
        StringBuilder bits = new StringBuilder();
        for (int i = 0; i < pretty.rounds(); i++) {
            bits.append(RsaSignatureProof.bit(d, i) ? '1' : '0');
        }
        assertThat(bits.toString()).isEqualTo(ZkpTestSupport.at(v, "derived_by_harness_for_debugging.challenge_bits"));
        // the proof is for the message of the vectors' OAuth token, and our own proof of it verifies too
        assertThat(msg + "." + ZkpTestSupport.at(v, "inputs.signature_b64url_witness"))
                .isEqualTo(ZkpTestSupport.at(v, "inputs.oauth.token"));
        int proofLen = ((BigInteger) ZkpTestSupport.at(v, "inputs.proof_len")).intValueExact();
        ZkProof ours = RsaSignatureProof.prove(
                msg.getBytes(StandardCharsets.US_ASCII),
                Codec.fromB64url(ZkpTestSupport.at(v, "inputs.signature_b64url_witness")),
                key,
                proofLen,
                new SecureRandom());
        RsaSignatureProof.verify(
                ours, msg.getBytes(StandardCharsets.US_ASCII), key, VerificationProfile.STRICT, Limits.defaults());
    }
}
