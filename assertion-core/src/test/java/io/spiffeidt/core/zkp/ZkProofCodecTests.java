package io.spiffeidt.core.zkp;

import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spiffeidt.core.ErrorCode;
import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The original wire form of a proof: exact writing, tolerant-but-strict reading. */
class ZkProofCodecTests {

    private static final ZkProof SMALL = new ZkProof(
            List.of(BigInteger.valueOf(15), new BigInteger("ABCDEF0123", 16)),
            List.of(BigInteger.valueOf(256), BigInteger.ONE));

    private static void assertCode(String json, ErrorCode code) {
        assertThatAssertion(() -> ZkProofCodec.parse(json)).hasCode(code);
    }

    @Test
    void verifyWhenWrittenThenCompactUpperCaseEvenDigitsIndexedKeys() {
        assertThat(ZkProofCodec.toJson(SMALL))
                .isEqualTo("{\"proofp\":[{\"0\":\"0F\"},{\"1\":\"ABCDEF0123\"}],"
                        + "\"proofc\":[{\"0\":\"0100\"},{\"1\":\"01\"}]}");
    }

    @Test
    void verifyWhenWrittenAndParsedThenSameProof() {
        assertThat(ZkProofCodec.parse(ZkProofCodec.toJson(SMALL))).isEqualTo(SMALL);
    }

    @Test
    void verifyWhenPrettyWithTabsNewlinesAndLowerCaseThenParsed() {
        String pretty = "{\n\t\"proofp\":\t[{\n\t\t\t\"0\":\t\"0f\"\n\t\t}, {\r\n\"1\" : \"abcdef0123\"}],"
                + "\n\t\"proofc\":\t[{\"0\":\"100\"},{\"1\":\"1\"}]\n}\n";
        assertThat(ZkProofCodec.parse(pretty)).isEqualTo(SMALL);
    }

    @Test
    void verifyWhenOddDigitCountOrZeroThenParsedForTheVerifierToJudge() {
        ZkProof zero = ZkProofCodec.parse("{\"proofp\":[{\"0\":\"0\"}],\"proofc\":[{\"0\":\"000\"}]}");
        assertThat(zero.p()).containsExactly(BigInteger.ZERO);
        assertThat(zero.c()).containsExactly(BigInteger.ZERO);
    }

    @ParameterizedTest
    @ValueSource(strings = {"-0F", "+0F", "0x0F", "0F ", " 0F", "", "0G", "ÿ", "1_000", "١٢"})
    void verifyWhenHexIsNotPlainUnsignedThenMalformed(String hex) {
        assertCode("{\"proofp\":[{\"0\":\"" + hex + "\"}],\"proofc\":[{\"0\":\"01\"}]}", ErrorCode.MALFORMED);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{\"proofp\":[{\"1\":\"01\"}],\"proofc\":[{\"0\":\"01\"}]}",
                "{\"proofp\":[{\"00\":\"01\"}],\"proofc\":[{\"0\":\"01\"}]}",
                "{\"proofp\":[{\"0\":\"01\",\"1\":\"02\"}],\"proofc\":[{\"0\":\"01\"}]}",
                "{\"proofp\":[{\"0\":\"01\"},{\"0\":\"02\"}],\"proofc\":[{\"0\":\"01\"},{\"1\":\"01\"}]}",
                "{\"proofp\":[{\"0\":1}],\"proofc\":[{\"0\":\"01\"}]}",
                "{\"proofp\":[{\"0\":null}],\"proofc\":[{\"0\":\"01\"}]}",
                "{\"proofp\":[\"01\"],\"proofc\":[{\"0\":\"01\"}]}",
                "{\"proofp\":[{}],\"proofc\":[{\"0\":\"01\"}]}",
                "{\"proofp\":[{\"0\":\"01\"}],\"proofc\":[{\"0\":\"01\"},{\"1\":\"01\"}]}",
                "{\"proofp\":[],\"proofc\":[]}",
                "{\"proofp\":[{\"0\":\"01\"}]}",
                "{\"proofp\":[{\"0\":\"01\"}],\"proofc\":[{\"0\":\"01\"}],\"extra\":1}",
                "{\"proofp\":[{\"0\":\"01\"}],\"proofc\":{\"0\":\"01\"}}",
                "{\"proofp\":[{\"0\":\"01\"}],\"proofp\":[{\"0\":\"01\"}],\"proofc\":[{\"0\":\"01\"}]}",
                "[{\"0\":\"01\"}]",
                "{\"proofp\":[{\"0\":\"01\"}],\"proofc\":[{\"0\":\"01\"}]} trailing",
                "{\"proofp\":[{\"0\":\"01\"}],\"proofc\":[{\"0\":\"01\"}]",
                ""
            })
    void verifyWhenStructureIsWrongThenMalformed(String json) {
        assertCode(json, ErrorCode.MALFORMED);
    }

    @Test
    void verifyWhenNullThenMalformed() {
        assertCode(null, ErrorCode.MALFORMED);
    }

    @Test
    void verifyWhenNumberHasTooManyDigitsThenMalformed() {
        String hex = "1".repeat(ZkProofCodec.MAX_HEX_DIGITS + 1);
        assertCode("{\"proofp\":[{\"0\":\"" + hex + "\"}],\"proofc\":[{\"0\":\"01\"}]}", ErrorCode.MALFORMED);
    }

    @Test
    void verifyWhenMoreThan256RoundsThenLimitExceeded() {
        StringBuilder array = new StringBuilder("[");
        for (int i = 0; i < 257; i++) {
            array.append(i == 0 ? "" : ",").append("{\"").append(i).append("\":\"01\"}");
        }
        array.append(']');
        assertCode("{\"proofp\":" + array + ",\"proofc\":" + array + "}", ErrorCode.LIMIT_EXCEEDED);
    }

    @Test
    void verifyWhenRecordBuiltThenListsAreCopiedAndShapeChecked() {
        java.util.ArrayList<BigInteger> p = new java.util.ArrayList<>(List.of(BigInteger.ONE));
        ZkProof proof = new ZkProof(p, List.of(BigInteger.TWO));
        p.add(BigInteger.TEN);
        assertThat(proof.p()).containsExactly(BigInteger.ONE);
        assertThat(proof.toString()).isEqualTo("ZkProof[rounds=1]");
        assertThatThrownBy(() -> new ZkProof(List.of(BigInteger.ONE), List.of()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> proof.p().add(BigInteger.ONE)).isInstanceOf(UnsupportedOperationException.class);
    }
}
