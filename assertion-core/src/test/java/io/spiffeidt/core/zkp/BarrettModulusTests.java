package io.spiffeidt.core.zkp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Barrett reduction against {@link BigInteger#mod}, the reference. */
class BarrettModulusTests {

    private static BigInteger modulus(int bits, Random random) {
        // top bit set, odd like an RSA modulus; an even one is checked below
        return new BigInteger(bits, random).setBit(bits - 1).setBit(0);
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 17, 64, 1024, 2048, 2049, 3072, 4096})
    void multiplyWhenOperandsBelowTheModulusThenSameAsBigIntegerMod(int bits) {
        Random random = new Random(bits);
        for (int m = 0; m < 5; m++) {
            BigInteger n = modulus(bits, random);
            BarrettModulus mod = new BarrettModulus(n);
            BigInteger top = n.subtract(BigInteger.ONE);
            assertThat(mod.multiply(top, top)).isEqualTo(top.multiply(top).mod(n));
            assertThat(mod.multiply(BigInteger.ZERO, top)).isZero();
            assertThat(mod.multiply(BigInteger.ONE, top)).isEqualTo(top);
            for (int i = 0; i < 2000; i++) {
                BigInteger a = new BigInteger(bits, random).mod(n);
                BigInteger b = new BigInteger(bits, random).mod(n);
                assertThat(mod.multiply(a, b))
                        .as("%s * %s mod %s", a, b, n)
                        .isEqualTo(a.multiply(b).mod(n));
            }
        }
    }

    @Test
    void multiplyWhenModulusEvenOrOperandsOutOfRangeThenStillTheRightResidue() {
        Random random = new Random(7);
        BigInteger n = modulus(2048, random).clearBit(0);
        BarrettModulus mod = new BarrettModulus(n);
        BigInteger big = n.multiply(BigInteger.valueOf(3)).add(BigInteger.TEN);
        BigInteger negative = BigInteger.valueOf(-5);
        BigInteger a = new BigInteger(2047, random);

        assertThat(mod.multiply(a, a)).isEqualTo(a.multiply(a).mod(n));
        assertThat(mod.multiply(big, a)).isEqualTo(big.multiply(a).mod(n));
        assertThat(mod.multiply(negative, a)).isEqualTo(negative.multiply(a).mod(n));
        assertThatThrownBy(() -> new BarrettModulus(BigInteger.ZERO)).isInstanceOf(IllegalArgumentException.class);
    }
}
