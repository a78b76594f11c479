package io.spiffeidt.perf.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The soak verdict: flat samples pass, growth past a tolerance is named, the warm-up is not judged. */
class SoakTests {

    @TempDir
    Path dir;

    private static List<Soak.Sample> samples(int n, double heapGrowthPerSample, double threadsGrowthPerSample) {
        return samples(n, heapGrowthPerSample, threadsGrowthPerSample, i -> 40.0);
    }

    private static List<Soak.Sample> samples(
            int n, double heapGrowthPerSample, double threadsGrowthPerSample, IntToDoubleFunction sockets) {
        List<Soak.Sample> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            double warm = i < 5 ? 500 : 0; // a big heap during the first 50 s: the warm-up
            out.add(new Soak.Sample(
                    i * 10_000L,
                    100 + warm + i * heapGrowthPerSample,
                    600 + warm,
                    120 + i * threadsGrowthPerSample,
                    sockets.applyAsDouble(i),
                    5000));
        }
        return out;
    }

    @Test
    void flatSamplesPassAndTheWarmUpIsNotJudged() {
        Soak.Verdict v = Soak.judge(samples(60, 0.1, 0), Duration.ofSeconds(60));
        assertThat(v.flat()).as(v.findings().toString()).isTrue();
        assertThat(v.figures()).anyMatch(f -> f.startsWith("heap after GC (MB): 101.5 at the start"));
        assertThat(Soak.judge(samples(60, 0.1, 0), Duration.ZERO).flat())
                .as("with the warm-up judged, the first fifth is the big one: nothing grew either")
                .isTrue();
    }

    @Test
    void growthPastTheToleranceIsNamed() {
        Soak.Verdict heap = Soak.judge(samples(60, 2, 0), Duration.ofSeconds(60));
        assertThat(heap.flat()).isFalse();
        assertThat(heap.findings()).singleElement().asString().startsWith("heap after GC (MB) grew");
        Soak.Verdict threads = Soak.judge(samples(60, 0, 0.5), Duration.ofSeconds(60));
        assertThat(threads.findings()).singleElement().asString().startsWith("live threads grew");
        assertThat(Soak.judge(samples(6, 0, 0), Duration.ofSeconds(30)).flat())
                .as("too few samples after the warm-up")
                .isFalse();
    }

    @Test
    void socketsWhenSingleSamplesJumpThenFlatAndWhenEverySampleRisesThenGrew() {
        // the quiet soak's shape: 84-99 open sockets, two momentary samples of 140 and 133 in the last fifth
        Soak.Verdict spikes =
                Soak.judge(samples(60, 0, 0, i -> i == 55 ? 140 : i == 58 ? 133 : 84 + i % 16), Duration.ofSeconds(60));
        assertThat(spikes.flat()).as(spikes.findings().toString()).isTrue();
        assertThat(spikes.figures()).anyMatch(f -> f.startsWith("open sockets") && f.contains("median"));
        Soak.Verdict leak = Soak.judge(samples(60, 0, 0, i -> 40 + i), Duration.ofSeconds(60));
        assertThat(leak.findings()).singleElement().asString().startsWith("open sockets grew");
    }

    @Test
    void sampleReadsTheJvmOnceInOneJvmAndEveryMemo() throws Exception {
        String text = "jvm_memory_used_bytes{area=\"heap\",id=\"G1 Eden Space\"} 1048576\n"
                + "jvm_memory_used_bytes{area=\"heap\",id=\"G1 Old Gen\"} 2097152\n"
                + "jvm_memory_used_bytes{area=\"nonheap\",id=\"Metaspace\"} 9999999\n"
                + "jvm_threads_live_threads 50\n"
                + "spiffeidt_memo_size{name=\"lsvid-chain\"} 3\n"
                + "spiffeidt_memo_size{name=\"oauth-token\"} 4\n";
        Soak.Sample s = Soak.sample(1, Map.of("subject-wl", text, "m-tier", text), true, 700, 12);
        assertThat(s.heapAfterGcMb()).isEqualTo(3.0);
        assertThat(s.threads()).isEqualTo(50);
        assertThat(s.memoEntries()).isEqualTo(14);
        Soak.append(dir, s);
        Soak.append(dir, s);
        assertThat(Soak.read(dir)).hasSize(2).first().isEqualTo(new Soak.Sample(1, 3.0, 700, 50, 12, 14));
        Soak.Verdict v = Soak.report(dir, dir.resolve("out"), Duration.ZERO, List.of("requests answered: 2"));
        assertThat(v.flat()).isFalse();
        assertThat(Files.readString(dir.resolve("out").resolve("soak.md")))
                .contains("requests answered: 2", "fewer than 5");
    }
}
