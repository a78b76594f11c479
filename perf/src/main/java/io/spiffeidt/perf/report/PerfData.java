package io.spiffeidt.perf.report;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The raw data of one run (written by the Gatling simulation): {@code requests.csv} (every
 * request's response time as Gatling measured it), {@code run.properties} (environment, and the
 * {@code deployment} label), and {@code scrapes/<configuration>/<mode>-<phase>/<before|after>/} ({@code
 * <workload>.prom}, {@code threads.csv}, {@code process.properties}, {@code containers.properties}).
 * Runs of several deployments sit side by side under one directory ({@link #loadAll}).
 */
record PerfData(Properties run, List<Request> requests, Map<String, Map<String, Phase>> phases) {

    /** The label of a run of the embedded stack when run.properties names none. */
    static final String EMBEDDED = "embedded";

    /** The label of a run against a running deployment when run.properties names none. */
    static final String DEPLOYMENT = "deployment";

    /** One request. */
    record Request(String configuration, String mode, String scenario, String request, long responseMs, boolean ok) {}

    /**
     * The scrapes around one measured phase; {@code containersBefore/After} are each workload's container
     * counters (cgroup files) when the run was given container names, else empty.
     */
    record Phase(
            Map<String, Prometheus> before,
            Map<String, Prometheus> after,
            Map<String, Double> threadsBefore,
            Map<String, Double> threadsAfter,
            long rssKb,
            Map<String, Container> containersBefore,
            Map<String, Container> containersAfter) {}

    /**
     * One workload container's cgroup counters at one point: CPU time (ns, cpuacct.usage or cpu.stat
     * usage_usec), memory usage (memory.usage_in_bytes or memory.current) and resident anonymous memory
     * (memory.stat rss or anon); -1 where the file was not readable.
     */
    record Container(long cpuNs, long memoryBytes, long rssBytes) {}

    /** The deployment this run measured: run.properties {@code deployment}, else by its target. */
    String deployment() {
        String d = run.getProperty("deployment");
        if (d != null && !d.isBlank()) {
            return d.trim();
        }
        String target = run.getProperty("target", "");
        return target.isEmpty() || target.startsWith("embedded") ? EMBEDDED : DEPLOYMENT;
    }

    /**
     * Every run under {@code dir} by deployment label: {@code dir} itself when it holds one run
     * ({@code run.properties} or {@code requests.csv}), else each subdirectory that does (e.g. {@code
     * target/runs/embedded}, {@code target/runs/compose}). In the order of {@code order}, then by label.
     */
    static Map<String, PerfData> loadAll(Path dir, List<String> order) {
        Map<String, PerfData> found = new TreeMap<>();
        if (isRun(dir)) {
            PerfData d = load(dir);
            found.put(d.deployment(), d);
        } else if (Files.isDirectory(dir)) {
            try {
                for (Path sub : list(dir)) {
                    if (isRun(sub)) {
                        PerfData d = load(sub);
                        found.put(
                                d.run().getProperty("deployment") == null
                                        ? sub.getFileName().toString()
                                        : d.deployment(),
                                d);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + dir, e);
            }
        }
        Map<String, PerfData> out = new LinkedHashMap<>();
        order.forEach(label -> {
            if (found.containsKey(label)) {
                out.put(label, found.remove(label));
            }
        });
        out.putAll(found);
        return out;
    }

    private static boolean isRun(Path dir) {
        return Files.isRegularFile(dir.resolve("run.properties")) || Files.isRegularFile(dir.resolve("requests.csv"));
    }

    static PerfData load(Path dir) {
        try {
            Properties run = new Properties();
            Path rp = dir.resolve("run.properties");
            if (Files.exists(rp)) {
                try (Reader r = Files.newBufferedReader(rp)) {
                    run.load(r);
                }
            }
            List<Request> requests = new ArrayList<>();
            Path rq = dir.resolve("requests.csv");
            if (Files.exists(rq)) {
                List<String> lines = Files.readAllLines(rq);
                for (String line : lines.subList(1, lines.size())) {
                    String[] f = line.split(",");
                    if (f.length == 7) {
                        requests.add(
                                new Request(f[0], f[1], f[2], f[3], Long.parseLong(f[5]), Boolean.parseBoolean(f[6])));
                    }
                }
            }
            Map<String, Map<String, Phase>> phases = new TreeMap<>();
            Path scrapes = dir.resolve("scrapes");
            if (Files.isDirectory(scrapes)) {
                for (Path config : list(scrapes)) {
                    Map<String, Phase> byPhase = new TreeMap<>();
                    for (Path phase : list(config)) {
                        Path b = phase.resolve("before");
                        Path a = phase.resolve("after");
                        if (!Files.isDirectory(a)) {
                            continue;
                        }
                        byPhase.put(
                                phase.getFileName().toString(),
                                new Phase(
                                        proms(b),
                                        proms(a),
                                        threads(b),
                                        threads(a),
                                        rss(a),
                                        containers(b),
                                        containers(a)));
                    }
                    phases.put(config.getFileName().toString(), byPhase);
                }
            }
            return new PerfData(run, List.copyOf(requests), phases);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + dir, e);
        }
    }

    private static List<Path> list(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(Files::isDirectory).sorted().toList();
        }
    }

    private static Map<String, Prometheus> proms(Path dir) throws IOException {
        Map<String, Prometheus> m = new LinkedHashMap<>();
        if (Files.isDirectory(dir)) {
            try (Stream<Path> s = Files.list(dir)) {
                for (Path p : s.sorted().toList()) {
                    String n = p.getFileName().toString();
                    if (n.endsWith(".prom")) {
                        m.put(n.substring(0, n.length() - 5), Prometheus.parse(Files.readString(p)));
                    }
                }
            }
        }
        return m;
    }

    private static Map<String, Double> threads(Path dir) throws IOException {
        Map<String, Double> m = new LinkedHashMap<>();
        Path f = dir.resolve("threads.csv");
        if (Files.exists(f)) {
            List<String> lines = Files.readAllLines(f);
            for (String line : lines.subList(1, lines.size())) {
                int c = line.lastIndexOf(',');
                m.merge(line.substring(0, c), Double.parseDouble(line.substring(c + 1)), Double::sum);
            }
        }
        return m;
    }

    private static long rss(Path dir) throws IOException {
        Path f = dir.resolve("process.properties");
        if (!Files.exists(f)) {
            return -1;
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(f)) {
            p.load(r);
        }
        return Long.parseLong(p.getProperty("rss_kb", "-1"));
    }

    /** {@code containers.properties}: {@code <workload>.cpu_ns}, {@code .memory_bytes}, {@code .rss_bytes}. */
    private static Map<String, Container> containers(Path dir) throws IOException {
        Map<String, Container> m = new TreeMap<>();
        Path f = dir.resolve("containers.properties");
        if (!Files.exists(f)) {
            return m;
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(f)) {
            p.load(r);
        }
        for (String k : p.stringPropertyNames()) {
            if (k.endsWith(".cpu_ns")) {
                String w = k.substring(0, k.length() - ".cpu_ns".length());
                m.put(
                        w,
                        new Container(
                                Long.parseLong(p.getProperty(k)),
                                Long.parseLong(p.getProperty(w + ".memory_bytes", "-1")),
                                Long.parseLong(p.getProperty(w + ".rss_bytes", "-1"))));
            }
        }
        return m;
    }

    /** Timer statistics (ms) of an operation or of request handling between two scrapes. */
    record Stat(double count, double meanMs, double sdMs) {
        static final Stat NONE = new Stat(0, Double.NaN, Double.NaN);
    }

    /**
     * The delta of a timer ({@code name} = Prometheus base name, e.g. {@code spiffeidt_operation_seconds})
     * between before and after at one workload: mean from sum/count, standard deviation estimated from
     * the histogram buckets (each observation at its bucket's midpoint) when there are buckets.
     */
    static Stat delta(Phase phase, String workload, String name, Map<String, String> labels) {
        Prometheus a = phase.after().getOrDefault(workload, Prometheus.EMPTY);
        Prometheus b = phase.before().getOrDefault(workload, Prometheus.EMPTY);
        double count = a.sum(name + "_count", labels) - b.sum(name + "_count", labels);
        double sum = a.sum(name + "_sum", labels) - b.sum(name + "_sum", labels);
        if (count <= 0) {
            return Stat.NONE;
        }
        double mean = sum / count * 1000;
        TreeMap<Double, Double> ba = a.buckets(name, labels);
        TreeMap<Double, Double> bb = b.buckets(name, labels);
        double sd = Double.NaN;
        if (!ba.isEmpty()) {
            double prevBound = 0;
            double prevCum = 0;
            double sq = 0;
            double n = 0;
            for (var e : ba.entrySet()) {
                double cum = e.getValue() - bb.getOrDefault(e.getKey(), 0.0);
                double inBucket = cum - prevCum;
                double bound = e.getKey();
                double mid = Double.isInfinite(bound) ? prevBound : (prevBound + bound) / 2;
                if (inBucket > 0) {
                    sq += inBucket * Math.pow(mid * 1000 - mean, 2);
                    n += inBucket;
                }
                prevCum = cum;
                prevBound = Double.isInfinite(bound) ? prevBound : bound;
            }
            sd = n > 1 ? Math.sqrt(sq / (n - 1)) : 0;
        }
        return new Stat(count, mean, sd);
    }
}
