package io.spiffeidt.subject.page;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.http.HttpServletRequest;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.security.web.firewall.HttpFirewall;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.security.web.firewall.StrictHttpFirewall;

/** {@link HeaderFirewall} decides every header as the stock {@link StrictHttpFirewall} does. */
class HeaderFirewallTests {

    private final HttpFirewall stock = new StrictHttpFirewall();
    private final HttpFirewall fast = HeaderFirewall.strict();

    /** Every BMP character, supplementary code points (assigned and not), lone surrogates. */
    private static List<String> samples() {
        List<String> out = new ArrayList<>();
        for (int c = 0; c <= 0xFFFF; c++) {
            out.add("a" + (char) c + "b");
        }
        for (int cp : new int[] {0x10000, 0x1F600, 0x2FFFF, 0x30000, 0xE0001, 0xE007F, 0xEFFFF, 0xF0000, 0x10FFFF}) {
            out.add("x" + new String(Character.toChars(cp)) + "y");
        }
        out.add("\uD800");
        out.add("z\uDC00");
        out.add("\uDBFF\uD800");
        out.add("");
        out.add("Bearer eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1c2VyMDAwMSJ9.c2ln");
        return out;
    }

    private static boolean valueAccepted(HttpFirewall firewall, String value) {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/api/lsvid/balance");
        request.addHeader("Authorization", value);
        try {
            HttpServletRequest checked = firewall.getFirewalledRequest(request);
            checked.getHeader("Authorization");
            return true;
        } catch (RequestRejectedException e) {
            return false;
        }
    }

    private static boolean nameAccepted(HttpFirewall firewall, String name) {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/api/lsvid/balance");
        request.addHeader(name, "v");
        try {
            HttpServletRequest checked = firewall.getFirewalledRequest(request);
            checked.getHeader(name);
            return true;
        } catch (RequestRejectedException e) {
            return false;
        }
    }

    @Test
    void headerValueWhenAnyCharacterThenSameDecisionAsStockFirewall() {
        List<String> differ = new ArrayList<>();
        int rejected = 0;
        for (String value : samples()) {
            boolean expected = valueAccepted(stock, value);
            if (!expected) {
                rejected++;
            }
            if (valueAccepted(fast, value) != expected) {
                differ.add(value.codePoints()
                        .mapToObj(Integer::toHexString)
                        .toList()
                        .toString());
            }
        }
        assertThat(differ).isEmpty();
        // the samples exercise both answers (controls, unassigned code points)
        assertThat(rejected).isGreaterThan(1000);
    }

    @Test
    void headerNameWhenAnyCharacterThenSameDecisionAsStockFirewall() {
        List<String> differ = new ArrayList<>();
        for (String name : samples()) {
            if (name.isEmpty()) {
                continue;
            }
            if (nameAccepted(fast, name) != nameAccepted(stock, name)) {
                differ.add(name.codePoints()
                        .mapToObj(Integer::toHexString)
                        .toList()
                        .toString());
            }
        }
        assertThat(differ).isEmpty();
    }

    @Test
    void headerValueWhenTabThenAcceptedAndNameWithTabRejected() {
        assertThat(HeaderFirewall.allowedValue("a\tb")).isTrue();
        assertThat(HeaderFirewall.allowedName("a\tb")).isFalse();
        assertThat(HeaderFirewall.allowedValue("a\r\nb")).isFalse();
    }
}
