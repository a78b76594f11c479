package io.spiffeidt.core.zkp;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.internal.Json;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The wire form of a {@link ZkProof}, compatible with the original C code (docs/formats/dvid.md
 * "Serialization"): {@code {"proofp":[{"0":"<HEX>"},{"1":"<HEX>"},…],"proofc":[{"0":"<HEX>"},…]}}
 * where the key of element {@code i} is the decimal index {@code i}, counted from 0 in each array.
 *
 * <p>Writing: compact, upper-case hex with an even number of digits, no sign. Reading: any JSON
 * whitespace, either hex case, an odd number of digits (as OpenSSL's {@code BN_hex2bn} reads); a
 * sign, a {@code 0x} prefix, a wrong or missing index key, extra members or arrays of different
 * lengths are {@link ErrorCode#MALFORMED}; more rounds than {@link #MAX_ROUNDS} is {@link
 * ErrorCode#LIMIT_EXCEEDED}. Parsing checks structure only; {@link RsaSignatureProof#verify} checks
 * the values.
 *
 * <p>Thread safety: stateless.
 */
public final class ZkProofCodec {

    /** The most rounds any proof may have (one challenge bit per bit of SHA-256). */
    public static final int MAX_ROUNDS = 256;

    /** The most hex digits of one number (a 16384-bit modulus). */
    public static final int MAX_HEX_DIGITS = 4096;

    private static final String PROOF_P = "proofp";
    private static final String PROOF_C = "proofc";

    private ZkProofCodec() {}

    /** The compact original form of {@code proof}. */
    public static String toJson(ZkProof proof) {
        StringBuilder sb = new StringBuilder(proof.rounds() * 2 * 530 + 32);
        sb.append("{\"").append(PROOF_P).append("\":");
        appendArray(sb, proof.p());
        sb.append(",\"").append(PROOF_C).append("\":");
        appendArray(sb, proof.c());
        sb.append('}');
        return sb.toString();
    }

    /**
     * Parses the original form (pretty or compact).
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED} for any structural problem, {@link
     *     ErrorCode#LIMIT_EXCEEDED} for more than {@link #MAX_ROUNDS} rounds
     */
    public static ZkProof parse(String json) {
        if (json == null) {
            throw new AssertionException(ErrorCode.MALFORMED, "missing proof");
        }
        Map<String, Object> root = Json.parseObject(json);
        if (root.size() != 2 || !root.containsKey(PROOF_P) || !root.containsKey(PROOF_C)) {
            throw new AssertionException(ErrorCode.MALFORMED, "proof must have exactly proofp and proofc");
        }
        List<BigInteger> p = numbers(root.get(PROOF_P), PROOF_P);
        List<BigInteger> c = numbers(root.get(PROOF_C), PROOF_C);
        if (p.size() != c.size()) {
            throw new AssertionException(ErrorCode.MALFORMED, "proofp and proofc differ in length");
        }
        return new ZkProof(p, c);
    }

    /** Upper-case hex with an even number of digits, as OpenSSL's {@code BN_bn2hex} writes. */
    static String hex(BigInteger value) {
        if (value.signum() < 0) {
            throw new IllegalArgumentException("negative proof value");
        }
        String h = value.toString(16).toUpperCase(Locale.ROOT);
        return (h.length() % 2 == 0) ? h : "0" + h;
    }

    private static void appendArray(StringBuilder sb, List<BigInteger> values) {
        sb.append('[');
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append("{\"")
                    .append(i)
                    .append("\":\"")
                    .append(hex(values.get(i)))
                    .append("\"}");
        }
        sb.append(']');
    }

    private static List<BigInteger> numbers(Object value, String name) {
        if (!(value instanceof List<?> list)) {
            throw new AssertionException(ErrorCode.MALFORMED, name + " is not an array");
        }
        if (list.isEmpty()) {
            throw new AssertionException(ErrorCode.MALFORMED, name + " is empty");
        }
        if (list.size() > MAX_ROUNDS) {
            throw new AssertionException(ErrorCode.LIMIT_EXCEEDED, name + " has more than " + MAX_ROUNDS + " rounds");
        }
        List<BigInteger> out = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            if (!(list.get(i) instanceof Map<?, ?> element) || element.size() != 1) {
                throw new AssertionException(ErrorCode.MALFORMED, name + "[" + i + "] is not a one-member object");
            }
            Object hex = element.get(Integer.toString(i));
            if (!(hex instanceof String text)) {
                throw new AssertionException(ErrorCode.MALFORMED, name + "[" + i + "] lacks the key \"" + i + "\"");
            }
            out.add(parseHex(text, name, i));
        }
        return out;
    }

    private static BigInteger parseHex(String text, String name, int index) {
        if (text.isEmpty() || text.length() > MAX_HEX_DIGITS) {
            throw new AssertionException(ErrorCode.MALFORMED, name + "[" + index + "] has a bad length");
        }
        for (int k = 0; k < text.length(); k++) {
            char ch = text.charAt(k);
            boolean ok = (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F');
            if (!ok) {
                throw new AssertionException(ErrorCode.MALFORMED, name + "[" + index + "] is not unsigned hex");
            }
        }
        return new BigInteger(text, 16);
    }
}
