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
 * request's response time as Gatling measured it), {@code run.properties} (environment), and {@code
 * scrapes/<configuration>/<mode>-<phase>/<before|after>/} ({@code <workload>.prom}, {@code
 * threads.csv}, {@code process.properties}).
 */
record PerfData(Properties run, List<Request> requests, Map<String, Map<String, Phase>> phases) {

    /** One request. */
    record Request(String configuration, String mode, String scenario, String request, long responseMs, boolean ok) {}

    /** The scrapes around one measured phase. */
    record Phase(
            Map<String, Prometheus> before,
            Map<String, Prometheus> after,
            Map<String, Double> threadsBefore,
            Map<String, Double> threadsAfter,
            long rssKb) {}

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
                                new Phase(proms(b), proms(a), threads(b), threads(a), rss(a)));
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
