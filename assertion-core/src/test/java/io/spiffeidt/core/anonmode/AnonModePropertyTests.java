package io.spiffeidt.core.anonmode;

import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.LayerInfo;
import io.spiffeidt.core.VerifiedResult;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Properties over random keys: Schnorr sign and verify agree, and so do extension and concatenated
 * verification at depths 1 to 8; any single change is caught.
 */
class AnonModePropertyTests {

    private static final int ROUNDS = 4;
    private static final AnonModeSettings SETTINGS = AnonModeVerifierTests.settingsAt(AnonModeVerifierTests.NOW);

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
    void signWhenRandomKeysAndMessagesThenVerifyAgrees(int seed) {
        Random random = new Random(seed);
        NonceSource nonces = NonceSource.secureRandom();
        for (int i = 0; i < ROUNDS; i++) {
            SchnorrKeyPair key = SchnorrKeyPair.generate(nonces);
            SchnorrKeyPair other = SchnorrKeyPair.generate(nonces);
            String message = randomText(random, 1 + random.nextInt(600));

            SchnorrSignature signature = Schnorr.sign(key, message, nonces);

            Schnorr.verify(key.publicKey(), message, signature);
            assertThat(SchnorrSignature.decode(signature.encode())).isEqualTo(signature);
            assertThat(Point.multiplyBase(signature.response()))
                    .isEqualTo(signature
                            .commitment()
                            .subtract(key.publicKey()
                                    .multiply(Schnorr.challenge(signature.commitment(), message, key.publicKey()))));
            assertThatAssertion(() -> Schnorr.verify(other.publicKey(), message, signature))
                    .hasCode(ErrorCode.BAD_SIGNATURE);
            assertThatAssertion(() -> Schnorr.verify(key.publicKey(), message + "x", signature))
                    .hasCode(ErrorCode.BAD_SIGNATURE);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
    void extendWhenRandomKeysAtDepthThenConcatenatedVerificationAgrees(int depth) {
        Random random = new Random(depth * 7919L);
        for (int round = 0; round < ROUNDS; round++) {
            String token = AnonModeVerifierTests.chain(SETTINGS, depth);
            AnonModeVerifier verifier = new AnonModeVerifier(SETTINGS);

            VerifiedResult result =
                    verifier.verify(token, depth == 1 ? AnonModeVerifierTests.SUBJECT : AnonModeVerifierTests.TARGET);

            assertThat(result.depth()).isEqualTo(depth);
            assertThat(token.split("\\.", -1)).hasSize(2 * depth);
            assertThat(result.layers()).extracting(LayerInfo::issuer).doesNotHaveDuplicates();

            // any single changed character in any segment is rejected with a typed error
            char[] chars = token.toCharArray();
            int at = random.nextInt(chars.length);
            char replacement = chars[at] == 'A' ? 'B' : 'A';
            if (chars[at] != '.') {
                chars[at] = replacement;
                String changed = new String(chars);
                assertThatAssertion(
                        () -> verifier.verify(changed, AnonModeVerifierTests.TARGET),
                        "change at %d of %d",
                        at,
                        chars.length);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 5, 8})
    void extendWhenDeterministicNoncesThenSameTokenTwice(int depth) {
        SecureRandom seedSource = new SecureRandom();
        List<Scalar> scalars = new ArrayList<>();
        for (int i = 0; i <= depth; i++) {
            scalars.add(Scalar.random(seedSource));
        }

        String first = build(NonceSource.sequence(scalars), depth);
        String second = build(NonceSource.sequence(scalars), depth);

        assertThat(first).isEqualTo(second);
        assertThat(new AnonModeVerifier(SETTINGS)
                        .verify(first, AnonModeVerifierTests.TARGET)
                        .depth())
                .isEqualTo(depth);
    }

    private static String build(NonceSource nonces, int depth) {
        String token = new AnonModeMinter(SETTINGS, nonces)
                .mint(AnonModeVerifierTests.SUBJECT, AnonModeVerifierTests.DPA, AnonModeVerifierTests.DPR)
                .token();
        for (int i = 1; i < depth; i++) {
            token = new AnonModeExtender(SETTINGS, nonces).extend(token, null);
        }
        return token;
    }

    private static String randomText(Random random, int length) {
        StringBuilder sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            sb.append((char) (0x20 + random.nextInt(0x5F)));
        }
        return sb.toString();
    }
}
