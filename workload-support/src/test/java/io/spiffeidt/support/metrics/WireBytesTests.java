package io.spiffeidt.support.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WireBytesTests {

    @AfterEach
    void unbind() {
        WireBytes.end();
    }

    @Test
    void headerValueWhenCallsAndDownstreamEntriesThenTheWholeTreeWithPrefixes() {
        WireBytes bytes = WireBytes.begin();

        WireBytes.recordDownstream(
                "m-tier",
                List.of("target-wl;desc=\"/dvid/balance\";sent=1200;received=400;document=900, "
                        + "asserting-wl;desc=\"/dvid/introspect\";sent=300;received=87000"));
        WireBytes.recordCall("m-tier", "/dvid/balance", 1500, 2000, 900);

        assertThat(bytes.headerValue())
                .isEqualTo("m-tier.target-wl;desc=\"/dvid/balance\";sent=1200;received=400;document=900, "
                        + "m-tier.asserting-wl;desc=\"/dvid/introspect\";sent=300;received=87000, "
                        + "m-tier;desc=\"/dvid/balance\";sent=1500;received=2000;document=900");
        assertThat(WireBytes.parse(bytes.headerValue()))
                .containsExactly(
                        new WireBytes.Entry("m-tier.target-wl", "/dvid/balance", 1200, 400, 900),
                        new WireBytes.Entry("m-tier.asserting-wl", "/dvid/introspect", 300, 87000, -1),
                        new WireBytes.Entry("m-tier", "/dvid/balance", 1500, 2000, 900));
    }

    @Test
    void parseWhenMalformedEntriesThenSkippedAndBadNumbersZero() {
        assertThat(WireBytes.parse("bad name;desc=\"/x\";sent=1, ok;desc=\"no-slash\";sent=2, "
                        + "ok;sent=3, fine;desc=\"/p\";sent=-4;received=x;document=-1;future=7"))
                .containsExactly(new WireBytes.Entry("fine", "/p", 0, 0, -1));
        assertThat(WireBytes.parse(null)).isEmpty();
    }

    @Test
    void recordWhenNothingBoundThenNoOp() {
        WireBytes.recordCall("m-tier", "/dvid/balance", 1, 2, 3);
        WireBytes.recordDownstream("m-tier", List.of("target-wl;desc=\"/a\";sent=1;received=2"));

        assertThat(WireBytes.current()).isNull();
        WireBytes bound = WireBytes.begin();
        assertThat(bound.entries()).isEmpty();
        assertThat(bound.headerValue()).isEmpty();
    }

    @Test
    void recordWhenDownstreamHeaderTooLongThenCut() {
        WireBytes bytes = WireBytes.begin();
        String entry = "target-wl;desc=\"/a\";sent=1;received=2, ";

        WireBytes.recordDownstream("m-tier", List.of(entry.repeat(WireBytes.MAX_HEADER_CHARS / entry.length() + 1)));
        WireBytes.recordDownstream("m-tier", List.of(entry.repeat(3 * WireBytes.MAX_ENTRIES)));

        assertThat(bytes.entries()).hasSize(WireBytes.MAX_ENTRIES);
    }
}
