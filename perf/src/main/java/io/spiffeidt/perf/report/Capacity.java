package io.spiffeidt.perf.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;

/**
 * The capacity profile's results (docs/measurement.md "Capacity"): per run directory
 * ({@code target/capacity/<deployment>}) the answers of every step ({@code capacity.csv}), the steps
 * ({@code steps.csv}) and the scrapes around each step, turned into the capacity table (the highest
 * arrival rate held), the step table (what happened at every rate, past the knee too) and the knee plots
 * (p50 and p99 against throughput).
 *
 * <p>Thread safety: the static helpers are pure; instances are not shared.
 */
public final class Capacity {

    /** The columns of {@code capacity.csv}. */
    public static final String REQUESTS_HEADER =
            "configuration,mode,request,rate,end_epoch_ms,response_ms,status,retry_after";

    /** The columns of {@code steps.csv}. */
    public static final String STEPS_HEADER = "configuration,mode,request,rate,start_epoch_ms,end_epoch_ms,held";

    /**
     * What one step showed.
     *
     * @param held every answer 200 and p99 of them at most the limit
     * @param ok answers with 200
     * @param overloaded answers with 503
     * @param overloadedWithRetryAfter 503 answers that carried {@code Retry-After}
     * @param deadline answers with 504
     * @param other any other status, or no answer (status 0: time-out, connection refused or reset)
     * @param p50Ms p50 of the 200 answers' response times (NaN when none)
     * @param p99Ms p99 of the 200 answers' response times (NaN when none)
     */
    public record Verdict(
            boolean held,
            long ok,
            long overloaded,
            long overloadedWithRetryAfter,
            long deadline,
            long other,
            double p50Ms,
            double p99Ms) {

        /** One line for the console. */
        public String summary(long answers) {
            return String.format(
                    Locale.ROOT,
                    "%s: %d answers, %d ok (p50 %.0f ms, p99 %.0f ms), %d 503 (%d with Retry-After), %d 504, %d other",
                    held ? "held" : "missed",
                    answers,
                    ok,
                    p50Ms,
                    p99Ms,
                    overloaded,
                    overloadedWithRetryAfter,
                    deadline,
                    other);
        }
    }

    /** One step: its key, window and verdict. */
    public record Step(
            String configuration, String mode, String request, double rate, long startMs, long endMs, Verdict v) {

        public double seconds() {
            return Math.max(1, endMs - startMs) / 1000.0;
        }

        /** Requests per second answered 200 over the step's window. */
        public double throughput() {
            return v.ok() / seconds();
        }

        String phase() {
            return "cap-" + request + "-" + rateLabel(rate);
        }

        /** {@code configuration mode request rate/s}, for messages. */
        public String name() {
            return configuration + " " + mode + " " + request + " " + rateLabel(rate) + "/s";
        }
    }

    private final Map<String, PerfData> runs;
    private final Map<String, List<Step>> steps;
    private final Map<String, Path> dirs;

    private Capacity(Map<String, PerfData> runs, Map<String, List<Step>> steps, Map<String, Path> dirs) {
        this.runs = runs;
        this.steps = steps;
        this.dirs = dirs;
    }

    /** A rate as it appears in phase names: whole requests per second. */
    public static String rateLabel(double rate) {
        return Long.toString(Math.round(rate));
    }

    /**
     * The verdict over a step's answers, each {@code {status, response ms, retry-after present (1/0)}}: held
     * when there is at least one answer, every answer is 200 and p99 of them is at most {@code p99LimitMs}.
     */
    public static Verdict verdict(long[][] answers, long p99LimitMs) {
        long ok = 0;
        long overloaded = 0;
        long retry = 0;
        long deadline = 0;
        long other = 0;
        List<Long> times = new ArrayList<>();
        for (long[] a : answers) {
            if (a[0] == 200 && a[1] >= 0) {
                ok++;
                times.add(a[1]);
            } else if (a[0] == 503) {
                overloaded++;
                retry += a[2] > 0 ? 1 : 0;
            } else if (a[0] == 504) {
                deadline++;
            } else {
                other++;
            }
        }
        long[] sorted = times.stream().mapToLong(Long::longValue).sorted().toArray();
        double p50 = nearestRank(sorted, 50);
        double p99 = nearestRank(sorted, 99);
        boolean held = answers.length > 0 && ok == answers.length && p99 <= p99LimitMs;
        return new Verdict(held, ok, overloaded, retry, deadline, other, p50, p99);
    }

    static double nearestRank(long[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    /**
     * Loads every capacity run under {@code dir} ({@code dir} itself or its subdirectories, one per
     * deployment label); empty when there is none.
     *
     * @param p99LimitMs the limit a step is judged by (the run's, from {@code run.properties}, wins)
     */
    static Capacity load(Path dir, long p99LimitMs) {
        Map<String, PerfData> runs = PerfData.loadAll(dir, Report.deploymentOrder());
        Map<String, List<Step>> steps = new LinkedHashMap<>();
        Map<String, Path> dirs = new LinkedHashMap<>();
        runs.forEach((label, data) -> {
            Path runDir = Files.isRegularFile(dir.resolve("steps.csv")) ? dir : dir.resolve(label);
            dirs.put(label, runDir);
            long limit = Long.parseLong(data.run().getProperty("capacity.p99-ms", Long.toString(p99LimitMs)));
            steps.put(label, steps(runDir, limit));
        });
        steps.values().removeIf(List::isEmpty);
        runs.keySet().retainAll(steps.keySet());
        return new Capacity(runs, steps, dirs);
    }

    boolean isEmpty() {
        return steps.isEmpty();
    }

    /** The steps of one run directory, in the order they ran, each judged from {@code capacity.csv}. */
    public static List<Step> stepsOf(Path runDir, long p99LimitMs) {
        return steps(runDir, p99LimitMs);
    }

    static List<Step> steps(Path runDir, long p99LimitMs) {
        Path stepsFile = runDir.resolve("steps.csv");
        Path answersFile = runDir.resolve("capacity.csv");
        if (!Files.isRegularFile(stepsFile)) {
            return List.of();
        }
        try {
            Map<String, List<long[]>> answers = new LinkedHashMap<>();
            if (Files.isRegularFile(answersFile)) {
                List<String> lines = Files.readAllLines(answersFile);
                for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
                    String[] f = line.split(",");
                    if (f.length == 8) {
                        answers.computeIfAbsent(key(f[0], f[1], f[2], Double.parseDouble(f[3])), k -> new ArrayList<>())
                                .add(new long[] {Long.parseLong(f[6]), Long.parseLong(f[5]), Long.parseLong(f[7])});
                    }
                }
            }
            List<Step> out = new ArrayList<>();
            List<String> lines = Files.readAllLines(stepsFile);
            for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
                String[] f = line.split(",");
                if (f.length != 7) {
                    continue;
                }
                double rate = Double.parseDouble(f[3]);
                long[][] a = answers.getOrDefault(key(f[0], f[1], f[2], rate), List.of())
                        .toArray(new long[0][]);
                out.add(new Step(
                        f[0], f[1], f[2], rate, Long.parseLong(f[4]), Long.parseLong(f[5]), verdict(a, p99LimitMs)));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + runDir, e);
        }
    }

    private static String key(String config, String mode, String request, double rate) {
        return config + "," + mode + "," + request + "," + rateLabel(rate);
    }

    /** The highest step held of each (configuration, mode, request) staircase, or null when none was. */
    static Map<List<String>, Step> knees(List<Step> steps) {
        Map<List<String>, Step> out = new LinkedHashMap<>();
        for (Step s : steps) {
            List<String> k = List.of(s.configuration(), s.mode(), s.request());
            out.putIfAbsent(k, null);
            Step best = out.get(k);
            if (s.v().held() && (best == null || s.rate() > best.rate())) {
                out.put(k, s);
            }
        }
        return out;
    }

    /** The capacity table, then the table of every step. */
    List<Table> tables() {
        List<Table> out = new ArrayList<>();
        Table cap = Table.of(
                "Capacity: the highest arrival rate held",
                "Open model (Gatling), one staircase of arrival rates per mode and request, each step scraped like a"
                        + " measured phase. Held: every answer 200 and p99 ≤ the limit. CPU ms per request: the"
                        + " workload's CPU during the step over the requests answered 200 (sources as in the"
                        + " resources table); RSS: resident memory after the step. Past the knee: the highest rate"
                        + " run, its throughput, the share answered 503 (with Retry-After) and anything else.",
                "Deployment",
                "Configuration",
                "Mode",
                "Request",
                "Held (req/s offered)",
                "Throughput (req/s)",
                "p50 (ms)",
                "p99 (ms)",
                "CPU ms/request subject-wl",
                "asserting-wl",
                "m-tier",
                "target-wl",
                "all",
                "RSS (MB)",
                "Past the knee: offered / 200 per s",
                "503 (Retry-After)",
                "other errors",
                "p99 admitted (ms)");
        steps.forEach((label, list) -> {
            PerfData d = runs.get(label);
            Map<List<String>, Step> knees = knees(list);
            knees.forEach((k, knee) -> {
                Step last = list.stream()
                        .filter(s -> List.of(s.configuration(), s.mode(), s.request())
                                .equals(k))
                        .reduce((a, b) -> b)
                        .orElseThrow();
                List<String> row = new ArrayList<>(List.of(label, k.get(0), k.get(1), k.get(2)));
                if (knee == null) {
                    row.addAll(List.of("none", "–", "–", "–", "–", "–", "–", "–", "–", "–"));
                } else {
                    row.add(rateLabel(knee.rate()));
                    row.add(fmt(knee.throughput(), "%.0f"));
                    row.add(Report.ms(knee.v().p50Ms()));
                    row.add(Report.ms(knee.v().p99Ms()));
                    PerfData.Phase p = Report.phase(d, knee.configuration(), knee.mode(), knee.phase());
                    for (String w : List.of("subject-wl", "asserting-wl", "m-tier", "target-wl", "all")) {
                        Report.Figure cpu = p == null ? Report.Figure.NONE : Report.cpuMs(d, p, w);
                        row.add(
                                knee.v().ok() > 0 && !Double.isNaN(cpu.value())
                                        ? fmt(cpu.value() / knee.v().ok(), "%.2f")
                                        : "–");
                    }
                    Report.Figure mem = p == null ? Report.Figure.NONE : Report.memoryMb(d, p, "all");
                    row.add(Double.isNaN(mem.value()) ? "–" : fmt(mem.value(), "%.0f"));
                }
                long answers = last.v().ok()
                        + last.v().overloaded()
                        + last.v().deadline()
                        + last.v().other();
                row.add(rateLabel(last.rate()) + " / " + fmt(last.throughput(), "%.0f"));
                row.add(
                        answers == 0
                                ? "–"
                                : Report.pct(100.0 * last.v().overloaded() / answers) + " ("
                                        + last.v().overloadedWithRetryAfter() + "/"
                                        + last.v().overloaded() + ")");
                row.add(Long.toString(last.v().deadline() + last.v().other()));
                row.add(Report.ms(last.v().p99Ms()));
                cap.rows().add(row);
            });
        });
        out.add(cap);
        Table all = Table.of(
                "Capacity: every step",
                "Each step's offered rate, throughput (200 answers per second of its window), latency of the 200"
                        + " answers, and the other answers.",
                "Deployment",
                "Configuration",
                "Mode",
                "Request",
                "Offered (req/s)",
                "Throughput (req/s)",
                "p50 (ms)",
                "p99 (ms)",
                "503",
                "504",
                "other",
                "Held");
        steps.forEach((label, list) -> list.forEach(s -> all.row(
                label,
                s.configuration(),
                s.mode(),
                s.request(),
                rateLabel(s.rate()),
                fmt(s.throughput(), "%.0f"),
                Report.ms(s.v().p50Ms()),
                Report.ms(s.v().p99Ms()),
                s.v().overloaded(),
                s.v().deadline(),
                s.v().other(),
                s.v().held() ? "yes" : "no")));
        out.add(all);
        Table cpu = Table.of(
                "Capacity: where the CPU goes at the highest throughput",
                "JFR execution samples (settings=profile, about every 10-20 ms per running thread) of the step with"
                        + " the highest throughput of each staircase, by the workload whose thread ran them; the five"
                        + " methods most often on CPU (the sample's top frame) with their share of that workload's"
                        + " samples. The flame graphs (flame-*.svg) show the whole stacks.",
                "Deployment",
                "Configuration",
                "Mode",
                "Request",
                "Step (req/s)",
                "Workload",
                "Share of samples",
                "Top five methods on CPU");
        forEachProfile((label, top, flame) -> {
            Map<String, Double> shares = flame.shares();
            flame.topSelf(5)
                    .forEach((w, methods) -> cpu.row(
                            label,
                            top.configuration(),
                            top.mode(),
                            top.request(),
                            rateLabel(top.rate()),
                            w,
                            Report.pct(shares.getOrDefault(w, Double.NaN)),
                            String.join("; ", methods)));
        });
        if (!cpu.rows().isEmpty()) {
            out.add(cpu);
        }
        return out;
    }

    /** A step's JFR profile. */
    interface ProfileConsumer {
        void accept(String label, Step step, Flame flame);
    }

    /** Each staircase's step of highest throughput that has a JFR recording, read. */
    void forEachProfile(ProfileConsumer consumer) {
        steps.forEach((label, list) -> knees(list).keySet().forEach(k -> list.stream()
                .filter(s -> List.of(s.configuration(), s.mode(), s.request()).equals(k))
                .filter(s -> Files.isRegularFile(jfr(label, s)))
                .max(java.util.Comparator.comparingDouble(Step::throughput))
                .ifPresent(top -> consumer.accept(
                        label, top, Flame.read(jfr(label, top), t -> Report.workloadOfThread(runs.get(label), t))))));
    }

    private Path jfr(String label, Step s) {
        return dirs.get(label).resolve("jfr").resolve(s.configuration()).resolve(s.mode() + "-" + s.phase() + ".jfr");
    }

    /**
     * One knee plot per deployment, configuration and request (p50 and p99 against throughput, per mode),
     * then a flame graph per staircase that was recorded.
     */
    List<String> plots(Path dir) {
        List<String> files = new ArrayList<>();
        forEachProfile((label, top, flame) -> files.add(flame.write(
                dir,
                ("flame-" + label + "-" + top.configuration() + "-" + top.mode() + "-" + top.request())
                        .replaceAll("[^A-Za-z0-9._-]", "_"),
                "CPU samples: " + top.mode() + " " + top.request() + " at " + rateLabel(top.rate()) + "/s offered, "
                        + label + ", " + top.configuration())));
        steps.forEach((label, list) -> {
            Map<List<String>, List<Step>> byPlot = list.stream()
                    .collect(Collectors.groupingBy(
                            s -> List.of(s.configuration(), s.request()), LinkedHashMap::new, Collectors.toList()));
            byPlot.forEach((k, ss) -> {
                XYChart c = new XYChartBuilder()
                        .width(800)
                        .height(450)
                        .title("Latency against throughput: " + k.get(1) + " (" + label + ", " + k.get(0) + ")")
                        .xAxisTitle("throughput (requests/s answered 200)")
                        .yAxisTitle("response time (ms)")
                        .build();
                c.getStyler().setYAxisLogarithmic(true);
                int series = 0;
                Map<String, List<Step>> byMode = ss.stream()
                        .filter(s -> s.v().ok() > 0)
                        .collect(Collectors.groupingBy(Step::mode, LinkedHashMap::new, Collectors.toList()));
                for (var e : byMode.entrySet()) {
                    series += add(c, e.getKey() + " p50", e.getValue(), s -> s.v().p50Ms());
                    series += add(c, e.getKey() + " p99", e.getValue(), s -> s.v().p99Ms());
                }
                if (series > 0) {
                    String name =
                            ("knee-" + label + "-" + k.get(0) + "-" + k.get(1)).replaceAll("[^A-Za-z0-9._-]", "_");
                    files.add(Charts.save(c, dir, name));
                }
            });
        });
        return files;
    }

    private static int add(XYChart c, String name, List<Step> steps, Function<Step, Double> y) {
        double[] xs = steps.stream().mapToDouble(Step::throughput).toArray();
        double[] ys = steps.stream().mapToDouble(s -> Math.max(0.5, y.apply(s))).toArray();
        XYSeries s = c.addSeries(name, xs, ys);
        s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        return 1;
    }

    private static String fmt(double v, String f) {
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, f, v);
    }

    /**
     * Writes {@code capacity.md} and the knee plots into {@code outDir}; returns the Markdown's path, or
     * null when {@code dataDir} holds no capacity run.
     */
    public static Path generate(Path dataDir, Path outDir) {
        Capacity c = load(dataDir, 100);
        if (c.isEmpty()) {
            return null;
        }
        try {
            Files.createDirectories(outDir);
            System.setProperty("java.awt.headless", "true");
            StringBuilder md = new StringBuilder("# SPIFFE-IdT capacity\n\n");
            c.runs.forEach((label, d) -> md.append("- ")
                    .append(label)
                    .append(": ")
                    .append(Arrays.stream(new String[] {"started", "git.revision", "java.version", "cpu.cores"})
                            .map(k -> k + " " + d.run().getProperty(k, "?"))
                            .collect(Collectors.joining(", ")))
                    .append("; load average before ")
                    .append(d.run().getProperty("load.before", "?"))
                    .append(", after ")
                    .append(d.run().getProperty("load.after", "?"))
                    .append('\n'));
            md.append('\n');
            c.tables().forEach(t -> md.append(t.markdown()));
            c.plots(outDir)
                    .forEach(p ->
                            md.append("![").append(p).append("](").append(p).append(")\n\n"));
            Path out = outDir.resolve("capacity.md");
            Files.writeString(out, md.toString());
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
