package io.spiffeidt.support.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ServerTimingTests {

    @AfterEach
    void unbind() {
        ServerTiming.end();
    }

    @Test
    void appendMillisWhenFiniteThenAsFormatWithThreeDecimals() {
        Random random = new Random(3);
        for (int i = 0; i < 100_000; i++) {
            // whole microseconds plus a third of one: never an exact tie
            double millis = (random.nextInt(100_000_000) + 0.3) / 1000;
            if (i % 3 == 0) {
                millis = -millis;
            }
            StringBuilder sb = new StringBuilder();
            ServerTiming.appendMillis(sb, millis);
            assertThat(sb).as("%s", millis).hasToString(String.format(Locale.ROOT, "%.3f", millis));
        }
    }

    @Test
    void appendMillisWhenEdgesThenPlainDecimals() {
        assertThat(appended(0)).isEqualTo("0.000");
        assertThat(appended(1.5)).isEqualTo("1.500");
        assertThat(appended(0.0004)).isEqualTo("0.000");
        assertThat(appended(-0.0004)).isEqualTo("0.000");
        assertThat(appended(0.0996)).isEqualTo("0.100");
        assertThat(appended(123456.789)).isEqualTo("123456.789");
        assertThat(appended(Double.NaN)).isEqualTo("0.000");
        assertThat(appended(Double.POSITIVE_INFINITY)).isEqualTo("0.000");
        assertThat(appended(1e300)).isEqualTo("0.000");
    }

    @Test
    void isNameWhenAnyCharacterThenAsTheTokenGrammarAsFirstWritten() {
        Pattern token = Pattern.compile("[A-Za-z0-9!#$%&'*+.^_`|~-]{1,200}");
        for (int c = 0; c <= Character.MAX_VALUE; c++) {
            String one = String.valueOf((char) c);
            assertThat(ServerTiming.isName(one))
                    .as("U+%04X", c)
                    .isEqualTo(token.matcher(one).matches());
            String inside = "m-tier." + one + ".x";
            assertThat(ServerTiming.isName(inside))
                    .as("U+%04X inside", c)
                    .isEqualTo(token.matcher(inside).matches());
        }
        assertThat(ServerTiming.isName("")).isFalse();
        assertThat(ServerTiming.isName("a".repeat(200))).isTrue();
        assertThat(ServerTiming.isName("a".repeat(201))).isFalse();
    }

    private static String appended(double millis) {
        StringBuilder sb = new StringBuilder();
        ServerTiming.appendMillis(sb, millis);
        return sb.toString();
    }

    @Test
    void headerValueWhenOperationsRecordedThenTotalFirstThenEachWithDurationAndStart() {
        ServerTiming timing = ServerTiming.begin();
        ServerTiming.recordOperation("validate", 2_500_000);
        ServerTiming.recordOperation("extend", 1_000_000);

        List<ServerTiming.Entry> parsed = ServerTiming.parse(timing.headerValue());

        assertThat(parsed).extracting(ServerTiming.Entry::name).containsExactly("total", "validate", "extend");
        assertThat(parsed.get(1).durationMillis()).isEqualTo(2.5);
        assertThat(parsed.get(2).durationMillis()).isEqualTo(1.0);
        assertThat(parsed.get(0).durationMillis())
                .isGreaterThanOrEqualTo(parsed.get(2).startMillis());
    }

    @Test
    void recordDownstreamWhenHeaderThenPrefixedAndShiftedByCallStart() {
        ServerTiming timing = ServerTiming.begin();
        long callStart = System.nanoTime();
        ServerTiming.recordDownstream(
                "m-tier",
                callStart,
                List.of("total;dur=5;start=0, validate;dur=1.5;start=0.5", "target-wl.db_query;dur=0.25;start=3"));

        List<ServerTiming.Entry> entries = timing.entries();

        assertThat(entries)
                .extracting(ServerTiming.Entry::name)
                .containsExactly("m-tier.total", "m-tier.validate", "m-tier.target-wl.db_query");
        double shift = entries.get(0).startMillis();
        assertThat(entries.get(1).startMillis()).isEqualTo(shift + 0.5);
        assertThat(entries.get(2).startMillis()).isEqualTo(shift + 3);
        assertThat(entries.get(2).durationMillis()).isEqualTo(0.25);
    }

    @Test
    void parseWhenMalformedEntriesThenSkippedOrZero() {
        List<ServerTiming.Entry> parsed =
                ServerTiming.parse("ok;dur=1, bad name;dur=2, ;dur=3, neg;dur=-4;start=x, \"q\";dur=1, cache;desc=hit");

        assertThat(parsed).extracting(ServerTiming.Entry::name).containsExactly("ok", "neg", "cache");
        assertThat(parsed.get(1).durationMillis()).isZero();
        assertThat(parsed.get(1).startMillis()).isZero();
    }

    @Test
    void recordWhenNoRequestBoundThenNothingHappens() {
        ServerTiming.recordOperation("validate", 1_000);
        ServerTiming.recordDownstream("m-tier", System.nanoTime(), List.of("total;dur=1"));
        assertThat(ServerTiming.current()).isNull();
    }

    @Test
    void recordDownstreamWhenHugeTreeThenBounded() {
        ServerTiming timing = ServerTiming.begin();
        String many = String.join(", ", java.util.Collections.nCopies(500, "x;dur=1"));
        ServerTiming.recordDownstream("m-tier", System.nanoTime(), List.of(many));
        assertThat(timing.entries()).hasSize(ServerTiming.MAX_ENTRIES);
    }
}
