package io.spiffeidt.core;

import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contract suite of negative cases every mode's verifier passes (docs/formats/common.md "Test
 * material"): a failure is always the typed {@link AssertionException}, never another exception
 * and never a crash. A mode's test extends this class and supplies the documents.
 */
public abstract class VerifierContractTests {

    /** The codes of a document refused before its contents are checked (shape, format, size). */
    private static final EnumSet<ErrorCode> PARSE_CODES =
            EnumSet.of(ErrorCode.MALFORMED, ErrorCode.UNSUPPORTED, ErrorCode.LIMIT_EXCEEDED);

    /** The negative cases each mode builds from its own valid document. */
    public enum ContractCase {
        TAMPERED_PAYLOAD,
        TAMPERED_SIGNATURE,
        REORDERED,
        DROPPED,
        WRONG_KEY,
        UNTRUSTED_CHAIN,
        EXPIRED,
        NOT_YET_VALID
    }

    /** A document that verifies with {@link #verify(String)}. */
    protected abstract String validDocument();

    /** Runs the mode's verifier with the test's settings. */
    protected abstract VerifiedResult verify(String document);

    /** The document for a case, or {@code null} where the case does not apply to the format. */
    protected abstract String document(ContractCase contractCase);

    /** The codes a case may fail with. */
    protected abstract Set<ErrorCode> expectedCodes(ContractCase contractCase);

    /** The limits the verifier under test runs with. */
    protected Limits limits() {
        return Limits.defaults();
    }

    @Test
    void verifyWhenValidThenResult() {
        VerifiedResult result = verify(validDocument());
        assertThat(result.depth()).isPositive();
        assertThat(result.layers()).hasSize(result.depth());
        assertThat(result.delegation().dpr()).isNotBlank();
    }

    @ParameterizedTest
    @EnumSource(ContractCase.class)
    void verifyWhenContractCaseThenTypedError(ContractCase contractCase) {
        String doc = document(contractCase);
        assumeThat(doc).as("case applies to this format").isNotNull();
        assertThatAssertion(() -> verify(doc)).hasCodeIn(expectedCodes(contractCase));
    }

    @ParameterizedTest
    @MethodSource("garbage")
    void verifyWhenGarbageThenMalformed(String garbage) {
        assertThatAssertion(() -> verify(garbage)).hasCodeIn(PARSE_CODES);
    }

    @Test
    void verifyWhenTruncatedAnywhereThenTypedError() {
        String valid = validDocument();
        int step = Math.max(1, valid.length() / 97);
        for (int cut = 0; cut < valid.length(); cut += step) {
            String truncated = valid.substring(0, cut);
            assertThatAssertion(() -> verify(truncated), "truncated at %d", cut);
        }
    }

    @Test
    void verifyWhenOversizeThenLimitExceeded() {
        String valid = validDocument();
        StringBuilder sb = new StringBuilder(valid);
        while (sb.length() <= limits().maxEncodedSize()) {
            sb.append(valid);
        }
        String oversize = sb.toString();
        assertThatAssertion(() -> verify(oversize)).hasCode(ErrorCode.LIMIT_EXCEEDED);
    }

    /**
     * Every one of 200 random single-character changes of a valid document is rejected, and only
     * with the typed {@link AssertionException}: a changed document that verifies fails the test,
     * and so does any other exception.
     */
    @Test
    void verifyWhenRandomByteFlipsThenEveryFlipRejectedWithTypedError() {
        String valid = validDocument();
        assertThat(verify(valid)).as("the unchanged document verifies").isNotNull();
        Random random = new Random(42);
        Set<ErrorCode> codes = EnumSet.noneOf(ErrorCode.class);
        for (int i = 0; i < 200; i++) {
            char[] chars = valid.toCharArray();
            int at = random.nextInt(chars.length);
            chars[at] = (char) (chars[at] ^ (1 + random.nextInt(63)));
            String flipped = new String(chars);
            assertThat(flipped).isNotEqualTo(valid);
            codes.add(assertThatAssertion(
                            () -> verify(flipped),
                            "flip at %d of %d (%s -> %s)",
                            at,
                            chars.length,
                            valid.charAt(at),
                            chars[at])
                    .actual()
                    .code());
        }
        // not only the parser: some flips leave a well-formed document that the checks after
        // parsing (signatures, proofs, names) must reject
        assertThat(codes).as("codes of the rejected flips").containsAnyElementsOf(EnumSet.complementOf(PARSE_CODES));
    }

    /** Inputs no format accepts, including the other modes' shapes (cross-mode input). */
    static Stream<String> garbage() {
        List<String> g = new ArrayList<>();
        g.add("");
        g.add(" ");
        g.add(".");
        g.add("..");
        g.add("....");
        g.add("a.b.c");
        g.add("eyJhbGciOiJub25lIn0.e30.");
        g.add("eyJ9.eyJ9.eyJ9");
        g.add("\u0000\u0001\u0002");
        g.add("{}");
        g.add("null");
        g.add(Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString("{\"token\":{}}".getBytes(StandardCharsets.UTF_8)));
        g.add(Base64.getUrlEncoder().withoutPadding().encodeToString("[1,2,3]".getBytes(StandardCharsets.UTF_8)));
        g.add("e30.e30.e30.e30.e30");
        g.add("%%%.%%%.%%%");
        g.add("é.ü.ß");
        return g.stream();
    }
}
