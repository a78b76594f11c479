package io.spiffeidt.core.wimse;

import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.ErrorCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link WimseHeaders} and {@link TokenHash}: the WPT authentication scheme and the token hash. */
class WimseHeadersTests {

    @Test
    void wptFromAuthorizationWhenSchemeInAnyCaseThenToken() {
        assertThat(WimseHeaders.wptFromAuthorization("WPT a.b.c")).isEqualTo("a.b.c");
        assertThat(WimseHeaders.wptFromAuthorization("wpt   a.b.c")).isEqualTo("a.b.c");
        assertThat(WimseHeaders.wptFromAuthorization(WimseHeaders.authorization("x.y.z")))
                .isEqualTo("x.y.z");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "WPT", "WPT ", "Bearer a.b.c", "WPTa.b.c", "WPT a.b.c d", "WPT a=b"})
    void wptFromAuthorizationWhenNotOneWptToken68ThenMalformed(String value) {
        assertThatAssertion(() -> WimseHeaders.wptFromAuthorization(value)).hasCode(ErrorCode.MALFORMED);
    }

    @Test
    void tokenHashWhenKnownInputThenBase64UrlSha256() {
        // SHA-256("abc"), FIPS 180-2 appendix B.1, in base64url without padding
        assertThat(TokenHash.of("abc")).isEqualTo("ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0");
    }

    @Test
    void tokenHashWhenNotAsciiThenMalformed() {
        assertThatAssertion(() -> TokenHash.of("a.b.é")).hasCode(ErrorCode.MALFORMED);
    }
}
