package io.spiffeidt.perf.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real JFR recording of a thread named like a workload's, folded, ranked and drawn. */
class FlameTests {

    @TempDir
    Path dir;

    static volatile long sink;

    static long burn(long until) {
        long x = 1;
        while (System.nanoTime() < until) {
            for (int i = 0; i < 10_000; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
        }
        return x;
    }

    @Test
    void samplesAreFoldedUnderTheWorkloadOfTheirThread() throws Exception {
        Path file = dir.resolve("step.jfr");
        try (Recording r = new Recording()) {
            r.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(10));
            r.start();
            Thread t = new Thread(
                    () -> sink = burn(System.nanoTime() + 1_500_000_000L), "https-jsse-nio-127.0.0.1-8443-exec-1");
            t.start();
            t.join();
            r.stop();
            r.dump(file);
        }
        Flame f = Flame.read(file, name -> name.contains("-8443-") ? "asserting-wl" : "shared");
        assertThat(f.samples()).isPositive();
        assertThat(f.folded().keySet())
                .anyMatch(k -> k.startsWith("asserting-wl;") && k.endsWith("io.spiffeidt.perf.report.FlameTests.burn"));
        assertThat(f.shares().get("asserting-wl")).isGreaterThan(50.0);
        assertThat(f.topSelf(5).get("asserting-wl").get(0)).startsWith("io.spiffeidt.perf.report.FlameTests.burn (");
        String svg = f.svg("test <profile>");
        assertThat(svg)
                .startsWith("<svg")
                .contains("FlameTests.burn", "test &lt;profile&gt;")
                .endsWith("</svg>\n");
        assertThat(dir.resolve(f.write(dir, "flame-test", "t"))).exists();
    }
}
