package io.spiffeidt.core.idmode;

import static io.spiffeidt.core.idmode.IdModeWorld.ASSERTING;
import static io.spiffeidt.core.idmode.IdModeWorld.CA;
import static io.spiffeidt.core.idmode.IdModeWorld.SUBJECT;
import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.testkit.TestPki;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The artifacts side-car: its JSON form, the original PEM form, and what neither accepts. */
class IdModeArtifactsTests {

    private static final TestPki INTERMEDIATE = CA.intermediate();
    private static final IdModeCredentials VIA_INTERMEDIATE = IdModeWorld.credentials(INTERMEDIATE.issue("m-tier"));

    @Test
    void verifyWhenJsonFormWrittenThenArrayOfArraysOfStdBase64LeafFirst() {
        IdModeArtifacts a = IdModeArtifacts.of(List.of(ASSERTING.chain(), VIA_INTERMEDIATE.chain()));
        String b64Root = Base64.getEncoder().encodeToString(encoded(ASSERTING.leaf()));
        String b64Leaf = Base64.getEncoder().encodeToString(encoded(VIA_INTERMEDIATE.leaf()));
        String b64Mid = Base64.getEncoder().encodeToString(encoded(INTERMEDIATE.cert()));
        assertThat(a.toJson()).isEqualTo("[[\"" + b64Root + "\"],[\"" + b64Leaf + "\",\"" + b64Mid + "\"]]");
        assertThat(a.encodedSize()).isEqualTo(a.toJson().length());
        IdModeArtifacts back = IdModeArtifacts.parse(a.toJson(), Limits.defaults());
        assertThat(back).isEqualTo(a).hasSameHashCodeAs(a);
        assertThat(back.chain(1)).containsExactly(VIA_INTERMEDIATE.leaf(), INTERMEDIATE.cert());
    }

    @Test
    void verifyWhenPemBlocksWithNewlinesOrNoSeparatorThenSameArtifacts() {
        String root = pem(ASSERTING.leaf());
        String subject = pem(SUBJECT.leaf());
        IdModeArtifacts glued = IdModeArtifacts.parse(root + subject, Limits.defaults());
        IdModeArtifacts spaced = IdModeArtifacts.parse("\n" + root + "\r\n\n" + subject + "\n", Limits.defaults());
        assertThat(glued).isEqualTo(spaced);
        assertThat(glued.chains()).containsExactly(List.of(ASSERTING.leaf()), List.of(SUBJECT.leaf()));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "[]",
                "[[]]",
                "[\"abc\"]",
                "[[1]]",
                "[[\"not base64!\"]]",
                "[[\"QUJD\"]]",
                "[[\"QUJDRA\"]]",
                "{}",
                "-----BEGIN CERTIFICATE-----QUJD-----END CERTIFICATE-----",
                "-----BEGIN CERTIFICATE-----\nQUJD\n",
                "-----BEGIN PRIVATE KEY-----\nQUJD\n-----END PRIVATE KEY-----",
                "garbage"
            })
    void verifyWhenArtifactsGarbageThenMalformed(String text) {
        assertThatAssertion(() -> IdModeArtifacts.parse(text, Limits.defaults()))
                .hasCode(ErrorCode.MALFORMED);
    }

    @Test
    void verifyWhenTextAfterLastPemBlockThenMalformed() {
        String text = pem(ASSERTING.leaf()) + "trailing";
        assertThatAssertion(() -> IdModeArtifacts.parse(text, Limits.defaults()))
                .hasCode(ErrorCode.MALFORMED);
    }

    @Test
    void verifyWhenTwoCertificatesInOneStringThenMalformed() {
        byte[] a = encoded(ASSERTING.leaf());
        byte[] b = encoded(SUBJECT.leaf());
        byte[] both = new byte[a.length + b.length];
        System.arraycopy(a, 0, both, 0, a.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        String json = "[[\"" + Base64.getEncoder().encodeToString(both) + "\"]]";
        assertThatAssertion(() -> IdModeArtifacts.parse(json, Limits.defaults()))
                .hasCode(ErrorCode.MALFORMED);
    }

    @Test
    void verifyWhenBytesAfterTheCertificateThenMalformed() {
        byte[] cert = encoded(ASSERTING.leaf());
        for (byte[] tail : List.of(new byte[] {0}, new byte[] {0x30, 0x00}, "x".getBytes(StandardCharsets.US_ASCII))) {
            byte[] withTail = Arrays.copyOf(cert, cert.length + tail.length);
            System.arraycopy(tail, 0, withTail, cert.length, tail.length);
            String json = "[[\"" + Base64.getEncoder().encodeToString(withTail) + "\"]]";
            assertThatAssertion(() -> IdModeArtifacts.parse(json, Limits.defaults()))
                    .hasCode(ErrorCode.MALFORMED);
        }
        String exact = "[[\"" + Base64.getEncoder().encodeToString(cert) + "\"]]";
        assertThat(IdModeArtifacts.parse(exact, Limits.defaults()).chain(0)).containsExactly(ASSERTING.leaf());
    }

    @Test
    void verifyWhenUnpaddedStdBase64ThenMalformed() {
        String b64 = Base64.getEncoder().encodeToString(encoded(ASSERTING.leaf()));
        String unpadded = b64.replace("=", "");
        String urlAlphabet = b64.replace('+', '-').replace('/', '_');
        for (String bad : List.of(unpadded, urlAlphabet)) {
            if (bad.equals(b64)) {
                continue;
            }
            assertThatAssertion(() -> IdModeArtifacts.parse("[[\"" + bad + "\"]]", Limits.defaults()))
                    .hasCode(ErrorCode.MALFORMED);
        }
    }

    @Test
    void verifyWhenMoreLayersThanDepthLimitThenLimitExceeded() {
        Limits two = new Limits(256 * 1024, 2, 2048, 80, 256);
        String json =
                IdModeArtifacts.of(Collections.nCopies(3, ASSERTING.chain())).toJson();
        String pems = pem(ASSERTING.leaf()).repeat(3);
        for (String text : List.of(json, pems)) {
            assertThatAssertion(() -> IdModeArtifacts.parse(text, two)).hasCode(ErrorCode.LIMIT_EXCEEDED);
        }
    }

    @Test
    void verifyWhenChainLongerThanLimitThenLimitExceeded() {
        List<X509Certificate> longChain = Collections.nCopies(IdModeArtifacts.MAX_CHAIN_LENGTH + 1, ASSERTING.leaf());
        List<List<String>> b64 = List.of(longChain.stream()
                .map(c -> Base64.getEncoder().encodeToString(encoded(c)))
                .toList());
        assertThatAssertion(() -> IdModeArtifacts.fromBase64(b64, Limits.defaults()))
                .hasCode(ErrorCode.LIMIT_EXCEEDED);
    }

    @Test
    void verifyWhenArtifactsTextOverSizeLimitThenLimitExceeded() {
        Limits small = new Limits(100, 32, 2048, 80, 256);
        String json = IdModeArtifacts.of(List.of(ASSERTING.chain())).toJson();
        assertThatAssertion(() -> IdModeArtifacts.parse(json, small)).hasCode(ErrorCode.LIMIT_EXCEEDED);
    }

    @Test
    void verifyWhenAppendedAndPrefixedThenLayersFollow() {
        IdModeArtifacts one = IdModeArtifacts.of(List.of(ASSERTING.chain()));
        IdModeArtifacts two = one.append(SUBJECT.chain());
        assertThat(two.size()).isEqualTo(2);
        assertThat(two.chain(1)).isEqualTo(SUBJECT.chain());
        assertThat(two.prefix(1)).isEqualTo(one);
        assertThat(one.size()).isEqualTo(1);
    }

    static String pem(X509Certificate cert) {
        return "-----BEGIN CERTIFICATE-----\n"
                + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(encoded(cert))
                + "\n-----END CERTIFICATE-----";
    }

    static byte[] encoded(X509Certificate c) {
        try {
            return c.getEncoded();
        } catch (java.security.cert.CertificateEncodingException e) {
            throw new IllegalStateException(e);
        }
    }
}
