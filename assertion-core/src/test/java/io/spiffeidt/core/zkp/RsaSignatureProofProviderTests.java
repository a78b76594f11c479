package io.spiffeidt.core.zkp;

import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.internal.Codec;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.Security;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import javax.crypto.Cipher;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The proof with its {@code x^e mod n} computed by a provider's {@code RSA/ECB/NoPadding}:
 * same results as {@link BigInteger#modPow}, every hardened check still decides, and the providers
 * themselves refuse values not below {@code n}.
 */
class RsaSignatureProofProviderTests {

    private static final Limits LIMITS = Limits.defaults();
    private static final String TOKEN = ZkpTestSupport.oauthToken();
    private static final byte[] MSG = TOKEN.substring(0, TOKEN.lastIndexOf('.')).getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SIG = Codec.fromB64url(TOKEN.substring(TOKEN.lastIndexOf('.') + 1));
    private static final RSAPublicKey KEY = ZkpTestSupport.idpPublicKey();
    private static final BigInteger N = KEY.getModulus();
    private static final BigInteger E = KEY.getPublicExponent();

    static Stream<Arguments> providers() {
        Provider accp = AmazonCorrettoCryptoProvider.INSTANCE;
        List<Arguments> all = new ArrayList<>();
        all.add(Arguments.of("sun", Security.getProvider("SunJCE")));
        all.add(Arguments.of("bc", ZkpTestSupport.BC));
        if (AmazonCorrettoCryptoProvider.INSTANCE.getLoadingError() == null) {
            all.add(Arguments.of("accp", accp));
        }
        all.add(Arguments.of("default", null));
        return all.stream();
    }

    /** A proof whose every round equation holds although commitment {@code bad} is not a unit. */
    private static ZkProof proofWithDegenerateCommitment(int bad) {
        BigInteger prime = ((RSAPrivateCrtKey) ZkpTestSupport.idpKeyPair().getPrivate()).getPrimeP();
        BigInteger s = new BigInteger(1, SIG);
        SecureRandom random = new SecureRandom();
        List<BigInteger> r = new ArrayList<>();
        List<BigInteger> c = new ArrayList<>();
        for (int i = 0; i < 80; i++) {
            BigInteger ri = i == bad ? prime : new BigInteger(N.bitLength() - 1, random).add(BigInteger.TWO);
            r.add(ri);
            c.add(ri.modPow(E, N));
        }
        byte[] d = RsaSignatureProof.challenge(c);
        List<BigInteger> p = new ArrayList<>();
        for (int i = 0; i < 80; i++) {
            p.add(RsaSignatureProof.bit(d, i) ? s.multiply(r.get(i)).mod(N) : r.get(i));
        }
        return new ZkProof(p, c);
    }

    private static void assertBadProof(ZkProof proof, Provider provider, String messagePart) {
        assertThatAssertion(
                        () -> RsaSignatureProof.verify(proof, MSG, KEY, VerificationProfile.STRICT, LIMITS, provider))
                .hasMessageContaining(messagePart)
                .hasCode(ErrorCode.BAD_PROOF);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("providers")
    void verifyWhenProvedWithAProviderThenVerifiesWithEveryOtherAndWithModPow(String name, Provider provider) {
        ZkProof proof = RsaSignatureProof.prove(MSG, SIG, KEY, 80, new SecureRandom(), provider);
        providers()
                .forEach(a -> RsaSignatureProof.verify(
                        proof, MSG, KEY, VerificationProfile.STRICT, LIMITS, (Provider) a.get()[1]));
        for (int i = 0; i < 80; i++) {
            BigInteger expected = RsaSignatureProof.bit(RsaSignatureProof.challenge(proof.c()), i)
                    ? RsaSignatureProof.emsaPkcs1Sha256(MSG, 256)
                            .multiply(proof.c().get(i))
                            .mod(N)
                    : proof.c().get(i);
            assertThat(proof.p().get(i).modPow(E, N)).isEqualTo(expected);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("providers")
    void verifyWhenEveryRoundHoldsButACommitmentIsNoUnitThenTheProductGcdRejectsIt(String name, Provider provider) {
        for (int bad : new int[] {0, 41, 79}) {
            ZkProof proof = proofWithDegenerateCommitment(bad);
            assertBadProof(proof, provider, "degenerate commitment");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("providers")
    void verifyWhenAResponseIsCongruentButNotBelowNThenRangeCheckRejectsIt(String name, Provider provider) {
        ZkProof good = RsaSignatureProof.prove(MSG, SIG, KEY, 80, new SecureRandom(), provider);
        List<BigInteger> p = new ArrayList<>(good.p());
        p.set(5, p.get(5).add(N));
        assertBadProof(new ZkProof(p, good.c()), provider, "out of range");
        List<BigInteger> zeros = new ArrayList<>(good.p());
        zeros.set(7, BigInteger.ZERO);
        assertBadProof(new ZkProof(zeros, good.c()), provider, "out of range");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("providers")
    void rsaOperationWhenValueIsNotBelowNThenRefusedAndBelowNThenEqualsModPow(String name, Provider provider) {
        RsaPublicOperation op = RsaPublicOperation.of(KEY, provider);
        assertThat(op.isNative()).isTrue();
        BigInteger x = new BigInteger(N.bitLength() - 1, new SecureRandom());
        assertThat(op.apply(x)).isEqualTo(x.modPow(E, N));
        assertThat(op.apply(BigInteger.ONE)).isEqualTo(BigInteger.ONE);
        assertThat(op.apply(BigInteger.ZERO)).isEqualTo(BigInteger.ZERO);
        for (BigInteger bad : new BigInteger[] {N, N.add(BigInteger.ONE), BigInteger.ONE.negate()}) {
            assertThatAssertion(() -> op.apply(bad)).hasCode(ErrorCode.BAD_PROOF);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("providers")
    void noPaddingCipherWhenGivenNOrMoreThenTheProviderItselfRefuses(String name, Provider provider) throws Exception {
        Cipher cipher = provider == null
                ? Cipher.getInstance("RSA/ECB/NoPadding")
                : Cipher.getInstance("RSA/ECB/NoPadding", provider);
        cipher.init(Cipher.ENCRYPT_MODE, KEY);
        byte[] n = unsigned(N, 256);
        assertThatThrownBy(() -> cipher.doFinal(n)).isInstanceOf(Exception.class);
        byte[] nPlusOne = unsigned(N.add(BigInteger.ONE), 256);
        assertThatThrownBy(() -> cipher.doFinal(nPlusOne)).isInstanceOf(Exception.class);
        byte[] allOnes = new byte[256];
        Arrays.fill(allOnes, (byte) 0xff);
        assertThatThrownBy(() -> cipher.doFinal(allOnes)).isInstanceOf(Exception.class);
        byte[] below = unsigned(N.subtract(BigInteger.ONE), 256);
        assertThat(new BigInteger(1, cipher.doFinal(below)))
                .isEqualTo(N.subtract(BigInteger.ONE).modPow(E, N));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("providers")
    void proveWhenWitnessIsWrongThenBadSignatureWithEveryProvider(String name, Provider provider) {
        byte[] wrong = SIG.clone();
        wrong[10] ^= 1;
        assertThatAssertion(() -> RsaSignatureProof.prove(MSG, wrong, KEY, 80, new SecureRandom(), provider))
                .hasCode(ErrorCode.BAD_SIGNATURE);
    }

    private static byte[] unsigned(BigInteger v, int len) {
        byte[] raw = v.toByteArray();
        byte[] out = new byte[len];
        int from = Math.max(0, raw.length - len);
        System.arraycopy(raw, from, out, len - (raw.length - from), raw.length - from);
        return out;
    }
}
