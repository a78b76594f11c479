package io.spiffeidt.core.x509;

import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.testkit.TestPki;
import java.security.cert.CertificateEncodingException;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The public chain check gives the verdicts of the verifiers' own (covered by X509SvidsChainTests). */
class X509SvidChainsTests {

    private static final Instant AT = Instant.parse("2030-01-01T00:00:00Z");

    private final TestPki ca = TestPki.newCa("example.org");
    private final TestPki.Svid svid = ca.issue("/wl");

    @Test
    void validateWhenParsedChainOfTheBundleThenTheLeafsId() throws CertificateEncodingException {
        byte[] der = svid.chain().get(0).getEncoded();

        assertThat(X509SvidChains.validate(X509SvidChains.parse(der), ca.bundle(), AT, TestPki.BC))
                .isEqualTo(ca.id("/wl"));
        assertThat(X509SvidChains.validate(svid.chain(), ca.bundle(), AT, null)).isEqualTo(ca.id("/wl"));
    }

    @Test
    void validateWhenAnotherRootOfTheTrustDomainThenUntrustedKey() {
        TestPki other = TestPki.newCa("example.org");

        assertThatAssertion(() -> X509SvidChains.validate(svid.chain(), other.bundle(), AT, null))
                .hasCode(ErrorCode.UNTRUSTED_KEY);
    }

    @Test
    void validateWhenAfterTheLeafExpiredThenUntrustedKey() {
        assertThatAssertion(() ->
                        X509SvidChains.validate(svid.chain(), ca.bundle(), TestPki.NOT_AFTER.plusSeconds(1), null))
                .hasCode(ErrorCode.UNTRUSTED_KEY);
    }

    @Test
    void parseWhenNotACertificateThenMalformed() {
        assertThatAssertion(() -> X509SvidChains.parse(new byte[] {0x30, 0x03, 0x02, 0x01, 0x01}))
                .hasCode(ErrorCode.MALFORMED);
    }
}
