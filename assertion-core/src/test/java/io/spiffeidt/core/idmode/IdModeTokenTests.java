package io.spiffeidt.core.idmode;

import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.internal.Codec;
import io.spiffeidt.core.internal.Es256;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The segment arithmetic parser (docs/formats/id-mode.md "Wire format", "Verification" step 1). */
class IdModeTokenTests {

    private static final IdModePresentation VALID = IdModeWorld.pocPath();

    @Test
    void verifyWhenParsedThenSigningInputsAreSlicesOfTheReceivedText() {
        IdModeToken t = IdModeToken.parse(VALID.token(), Limits.defaults());
        String[] parts = VALID.token().split("\\.");
        assertThat(t.depth()).isEqualTo(3);
        assertThat(t.signingInput(0)).isEqualTo(parts[2]);
        assertThat(t.signingInput(1)).isEqualTo(String.join(".", parts[1], parts[2], parts[3]));
        assertThat(t.signingInput(2)).isEqualTo(String.join(".", List.of(parts).subList(0, 5)));
        assertThat(t.prefix(3)).isEqualTo(VALID.token());
        assertThat(t.prefix(1)).isEqualTo(parts[2] + "." + parts[3]);
        assertThat(t.payloadSegment(2)).isEqualTo(parts[0]);
        assertThat(t.signatureSegment(2)).isEqualTo(parts[5]);
        assertThat(Codec.b64url(t.signature(1))).isEqualTo(parts[4]);
        assertThat(t.claims(1).issuer()).isEqualTo(IdModeWorld.SUBJECT.spiffeId());
        assertThat(t.toString()).doesNotContain(parts[0]);
    }

    @Test
    void verifyWhenSignatureCopiedOutThenTokenUnchanged() {
        IdModeToken t = IdModeToken.parse(VALID.token(), Limits.defaults());
        byte[] sig = t.signature(0);
        sig[0] ^= 1;
        assertThat(t.signature(0)).isNotEqualTo(sig);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "a",
                "a.b.c",
                "e30",
                "e30.",
                ".e30",
                "e30..e30.e30",
                "e30.e30",
                "e30=.e30",
                "e30.e30\n",
                " e30.e30",
                "W10.e30",
                "bnVsbA.e30"
            })
    void verifyWhenNotATokenThenMalformed(String text) {
        assertThatAssertion(() -> IdModeToken.parse(text, Limits.defaults())).hasCode(ErrorCode.MALFORMED);
    }

    @Test
    void verifyWhenDotsAloneExceedDepthThenLimitExceededBeforeDecoding() {
        String manyDots = ".".repeat(2 * 40 - 1);
        assertThatAssertion(() -> IdModeToken.parse(manyDots, Limits.defaults()))
                .hasCode(ErrorCode.LIMIT_EXCEEDED);
    }

    @Test
    void verifyWhenClaimOverLengthLimitThenLimitExceeded() {
        String longDpr = "x".repeat(3000);
        String json = "{\"aud\":\"spiffe://example.org/a\",\"dpr\":\"" + longDpr
                + "\",\"iat\":1,\"iss\":\"spiffe://example.org/b\"}";
        String token = Codec.b64url(json) + "." + Codec.b64url(new byte[] {1});
        assertThatAssertion(() -> IdModeToken.parse(token, Limits.defaults())).hasCode(ErrorCode.LIMIT_EXCEEDED);
    }

    @Test
    void verifyWhenIatMissingOrNotANumberThenMalformed() {
        for (String json : List.of(
                "{\"aud\":\"spiffe://example.org/a\",\"iss\":\"spiffe://example.org/b\"}",
                "{\"aud\":\"spiffe://example.org/a\",\"iat\":\"1\",\"iss\":\"spiffe://example.org/b\"}",
                "{\"aud\":[\"spiffe://example.org/a\"],\"iat\":1,\"iss\":\"spiffe://example.org/b\"}")) {
            String token = Codec.b64url(json) + "." + Codec.b64url(new byte[] {1});
            assertThatAssertion(() -> IdModeToken.parse(token, Limits.defaults()))
                    .hasCode(ErrorCode.MALFORMED);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"1e999999999", "1e9999999999", "-1", "1E+20", "253402300800", "\"1\"", "true"})
    void verifyWhenIatIsAnUnusableNumberThenMalformedPromptly(String iat) {
        String json = "{\"aud\":\"spiffe://example.org/a\",\"iat\":" + iat + ",\"iss\":\"spiffe://example.org/b\"}";
        String token = Codec.b64url(json) + "." + Codec.b64url(new byte[] {1});
        assertThatAssertion(() -> IdModeToken.parse(token, Limits.defaults())).hasCode(ErrorCode.MALFORMED);
    }

    @Test
    void verifyWhenIatHasAFractionThenTruncated() {
        String json = "{\"aud\":\"spiffe://example.org/a\",\"iat\":1700000000.9,\"iss\":\"spiffe://example.org/b\"}";
        String token = Codec.b64url(json) + "." + Codec.b64url(new byte[] {1});
        assertThat(IdModeToken.parse(token, Limits.defaults())
                        .claims(0)
                        .issuedAt()
                        .getEpochSecond())
                .isEqualTo(1700000000L);
    }

    @Test
    void verifyWhenPresentationHasHugeExponentThenMalformed() {
        assertThatAssertion(() -> IdModePresentation.parse("{\"token\":1e9999999999}", Limits.defaults()))
                .hasCode(ErrorCode.MALFORMED);
        assertThatAssertion(() -> IdModeArtifacts.parse("[[1e9999999999]]", Limits.defaults()))
                .hasCode(ErrorCode.MALFORMED);
    }

    @Test
    void verifyWhenDerSignatureNotCanonicalThenRejectedByTheChecker() {
        byte[] der = IdModeToken.parse(VALID.token(), Limits.defaults()).signature(0);
        assertThat(Es256.isCanonicalDer(der)).isTrue();
        byte[] longForm = new byte[der.length + 1];
        longForm[0] = 0x30;
        longForm[1] = (byte) 0x81;
        longForm[2] = der[1];
        System.arraycopy(der, 2, longForm, 3, der.length - 2);
        assertThat(Es256.isCanonicalDer(longForm)).isFalse();
        byte[] trailing = java.util.Arrays.copyOf(der, der.length + 1);
        assertThat(Es256.isCanonicalDer(trailing)).isFalse();
        byte[] zeroR = {0x30, 0x06, 0x02, 0x01, 0x00, 0x02, 0x01, 0x01};
        assertThat(Es256.isCanonicalDer(zeroR)).isFalse();
        byte[] paddedR = {0x30, 0x07, 0x02, 0x02, 0x00, 0x01, 0x02, 0x01, 0x01};
        assertThat(Es256.isCanonicalDer(paddedR)).isFalse();
        byte[] minimal = {0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01};
        assertThat(Es256.isCanonicalDer(minimal)).isTrue();
    }
}
