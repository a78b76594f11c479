package io.spiffeidt.perf.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;

/**
 * The soak profile's samples and verdict (docs/measurement.md "Soak"): every sample holds the
 * stack's heap after a collection, resident memory, live threads, open sockets and the entries of every
 * memo; the run is flat when, after the warm-up, the last fifth of the samples does not exceed the first
 * fifth by more than the tolerances below.
 *
 * <p>Thread safety: stateless.
 */
public final class Soak {

    /** The columns of {@code soak.csv}. */
    public static final String HEADER = "epoch_ms,heap_after_gc_mb,rss_mb,threads,sockets,memo_entries";

    /** Heap after GC may grow by this factor plus {@link #HEAP_SLACK_MB}. */
    static final double HEAP_FACTOR = 1.25;

    static final double HEAP_SLACK_MB = 32;
    /** Resident memory may grow by this factor plus {@link #RSS_SLACK_MB} (the heap expands lazily). */
    static final double RSS_FACTOR = 1.25;

    static final double RSS_SLACK_MB = 96;
    /** Live threads may grow by this many (pools created on first use). */
    static final double THREAD_SLACK = 8;
    /**
     * Open sockets may grow by this many (pooled connections opened on demand). Sockets are judged by
     * the median of each fifth, not the maximum: the count moves by tens from one sample to the next
     * as connections are closed and opened, while a leak raises every sample after it (the quiet
     * 30-minute soak of 2026-11-27 failed on two single samples of 140 and 133 among 84–99).
     */
    static final double SOCKET_SLACK = 16;

    private Soak() {}

    /**
     * One sample; NaN where the figure could not be read (a deployment without the stack's process).
     *
     * @param heapAfterGcMb heap used right after a full collection (embedded: {@code jcmd GC.run}), else the
     *     workloads' live data size after their last major collection, summed
     * @param rssMb the stack JVM's resident set
     * @param threads live threads (the JVM's, or the workloads' summed)
     * @param sockets open sockets of the stack JVM
     * @param memoEntries entries of every memo of every workload ({@code spiffeidt.memo.size})
     */
    public record Sample(
            long epochMs, double heapAfterGcMb, double rssMb, double threads, double sockets, double memoEntries) {

        String csv() {
            return String.format(
                    Locale.ROOT,
                    "%d,%.1f,%.1f,%.0f,%.0f,%.0f",
                    epochMs,
                    heapAfterGcMb,
                    rssMb,
                    threads,
                    sockets,
                    memoEntries);
        }
    }

    /**
     * A sample from the workloads' Prometheus texts (workload name to text).
     *
     * @param oneJvm the workloads share one JVM (the embedded stack): JVM figures are read once
     * @param rssMb resident memory measured by the caller, or NaN
     * @param sockets open sockets counted by the caller, or NaN
     */
    public static Sample sample(
            long epochMs, Map<String, String> scrapes, boolean oneJvm, double rssMb, double sockets) {
        double heap = 0;
        double threads = 0;
        double memo = 0;
        boolean first = true;
        for (String text : scrapes.values()) {
            Prometheus p = Prometheus.parse(text);
            memo += p.sum("spiffeidt_memo_size", Map.of());
            if (oneJvm && !first) {
                continue;
            }
            first = false;
            heap += oneJvm
                    ? p.sum("jvm_memory_used_bytes", Map.of("area", "heap"))
                    : p.sum("jvm_gc_live_data_size_bytes", Map.of());
            threads += p.sum("jvm_threads_live_threads", Map.of());
        }
        return new Sample(
                epochMs,
                scrapes.isEmpty() ? Double.NaN : heap / 1048576.0,
                rssMb,
                scrapes.isEmpty() ? Double.NaN : threads,
                sockets,
                memo);
    }

    /** Whether the samples after the warm-up stayed flat, and what grew. */
    public record Verdict(boolean flat, List<String> findings, List<String> figures) {}

    /** Judges the samples: the first fifth after the warm-up against the last fifth. */
    public static Verdict judge(List<Sample> samples, Duration warmUp) {
        if (samples.isEmpty()) {
            return new Verdict(false, List.of("no samples"), List.of());
        }
        long from = samples.get(0).epochMs() + warmUp.toMillis();
        List<Sample> kept = samples.stream().filter(s -> s.epochMs() >= from).toList();
        if (kept.size() < 5) {
            return new Verdict(false, List.of("fewer than 5 samples after the warm-up: run longer"), List.of());
        }
        int fifth = Math.max(1, kept.size() / 5);
        List<Sample> head = kept.subList(0, fifth);
        List<Sample> tail = kept.subList(kept.size() - fifth, kept.size());
        List<String> findings = new ArrayList<>();
        List<String> figures = new ArrayList<>();
        check(
                "heap after GC (MB)",
                head,
                tail,
                Sample::heapAfterGcMb,
                MAX,
                HEAP_FACTOR,
                HEAP_SLACK_MB,
                findings,
                figures);
        check("resident memory (MB)", head, tail, Sample::rssMb, MAX, RSS_FACTOR, RSS_SLACK_MB, findings, figures);
        check("live threads", head, tail, Sample::threads, MAX, 1, THREAD_SLACK, findings, figures);
        check("open sockets", head, tail, Sample::sockets, MEDIAN, 1, SOCKET_SLACK, findings, figures);
        check("memo entries", head, tail, Sample::memoEntries, MAX, Double.POSITIVE_INFINITY, 0, findings, figures);
        return new Verdict(findings.isEmpty(), findings, figures);
    }

    /** How a fifth of the samples is summed up: its maximum, or its median. */
    private record Summary(String name, ToDoubleFunction<double[]> of) {}

    private static final Summary MAX =
            new Summary("max", v -> Arrays.stream(v).max().orElse(Double.NaN));

    private static final Summary MEDIAN = new Summary("median", v -> {
        if (v.length == 0) {
            return Double.NaN;
        }
        double[] sorted = v.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    });

    private static void check(
            String what,
            List<Sample> head,
            List<Sample> tail,
            ToDoubleFunction<Sample> f,
            Summary summary,
            double factor,
            double slack,
            List<String> findings,
            List<String> figures) {
        double a = summary.of().applyAsDouble(head.stream().mapToDouble(f).toArray());
        double b = summary.of().applyAsDouble(tail.stream().mapToDouble(f).toArray());
        if (Double.isNaN(a) || Double.isNaN(b)) {
            figures.add(what + ": not measured");
            return;
        }
        String figure = String.format(
                Locale.ROOT, "%s: %.1f at the start, %.1f at the end (%s of each fifth)", what, a, b, summary.name());
        figures.add(figure);
        if (!Double.isInfinite(factor) && b > a * factor + slack) {
            findings.add(what + " grew: " + figure);
        }
    }

    /** Reads {@code soak.csv} of a run directory. */
    public static List<Sample> read(Path runDir) {
        Path f = runDir.resolve("soak.csv");
        if (!Files.isRegularFile(f)) {
            return List.of();
        }
        try {
            List<String> lines = Files.readAllLines(f);
            List<Sample> out = new ArrayList<>();
            for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
                String[] c = line.split(",");
                if (c.length == 6) {
                    out.add(new Sample(
                            Long.parseLong(c[0]),
                            Double.parseDouble(c[1]),
                            Double.parseDouble(c[2]),
                            Double.parseDouble(c[3]),
                            Double.parseDouble(c[4]),
                            Double.parseDouble(c[5])));
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + f, e);
        }
    }

    /** Appends one sample to {@code soak.csv} (creating it with its header). */
    public static void append(Path runDir, Sample s) {
        Path f = runDir.resolve("soak.csv");
        try {
            if (!Files.exists(f)) {
                Files.writeString(f, HEADER + "\n");
            }
            Files.writeString(f, s.csv() + "\n", java.nio.file.StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + f, e);
        }
    }

    /**
     * Writes {@code soak.md} and {@code soak.png} (each figure over time) into {@code outDir} and returns the
     * verdict.
     *
     * @param summary lines put first (requests sent, errors, rate, duration, load)
     */
    public static Verdict report(Path runDir, Path outDir, Duration warmUp, List<String> summary) {
        List<Sample> samples = read(runDir);
        Verdict v = judge(samples, warmUp);
        try {
            Files.createDirectories(outDir);
            StringBuilder md = new StringBuilder("# SPIFFE-IdT soak\n\n");
            summary.forEach(l -> md.append("- ").append(l).append('\n'));
            md.append("- samples: ")
                    .append(samples.size())
                    .append(", warm-up excluded: ")
                    .append(warmUp.toSeconds())
                    .append(" s\n");
            v.figures().forEach(l -> md.append("- ").append(l).append('\n'));
            md.append("\n**")
                    .append(v.flat() ? "Flat." : "Not flat: " + String.join("; ", v.findings()))
                    .append("**\n\n");
            if (!samples.isEmpty()) {
                System.setProperty("java.awt.headless", "true");
                XYChart c = new XYChartBuilder()
                        .width(800)
                        .height(450)
                        .title("Soak: resources over time")
                        .xAxisTitle("minutes")
                        .yAxisTitle("MB / count")
                        .build();
                long t0 = samples.get(0).epochMs();
                double[] x = samples.stream()
                        .mapToDouble(s -> (s.epochMs() - t0) / 60000.0)
                        .toArray();
                series(c, "heap after GC (MB)", x, samples, Sample::heapAfterGcMb);
                series(c, "resident (MB)", x, samples, Sample::rssMb);
                series(c, "threads", x, samples, Sample::threads);
                series(c, "sockets", x, samples, Sample::sockets);
                series(c, "memo entries / 10", x, samples, s -> s.memoEntries() / 10);
                md.append("![soak](").append(Charts.save(c, outDir, "soak")).append(")\n");
            }
            Files.writeString(outDir.resolve("soak.md"), md.toString());
            return v;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void series(XYChart c, String name, double[] x, List<Sample> s, ToDoubleFunction<Sample> f) {
        double[] y = s.stream().mapToDouble(f).toArray();
        for (double v : y) {
            if (Double.isNaN(v)) {
                return;
            }
        }
        c.addSeries(name, x, y);
    }
}
