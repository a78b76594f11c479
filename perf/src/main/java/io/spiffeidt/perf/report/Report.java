package io.spiffeidt.perf.report;

import io.spiffeidt.perf.report.PerfData.Phase;
import io.spiffeidt.perf.report.PerfData.Request;
import io.spiffeidt.perf.report.PerfData.Stat;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The numbers of the report, computed from one run's {@link PerfData}, the mapping (resource {@code
 * mapping.properties}), the thesis' figures (resource {@code thesis-tables.csv}) and, when present,
 * JMH's results.
 */
final class Report {

    static final List<String> MODES = List.of("dvid", "id-mode", "anon-mode", "lsvid");
    static final String OPERATION = "spiffeidt_operation_seconds";
    static final String HTTP = "http_server_requests_seconds";

    final PerfData data;
    final Properties mapping;
    final List<String[]> thesis;
    final List<Jmh.Result> jmh;
    final List<Table> tables = new ArrayList<>();
    final List<String> statements = new ArrayList<>();

    Report(PerfData data, List<Jmh.Result> jmh) {
        this.data = data;
        this.mapping = resourceProperties("mapping.properties");
        this.thesis = resourceCsv("thesis-tables.csv");
        this.jmh = jmh;
    }

    // ---------------------------------------------------------------- small helpers

    static String ms(double v) {
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%.2f", v);
    }

    static String pm(Stat s) {
        if (s.count() <= 0) {
            return "–";
        }
        return ms(s.meanMs()) + (Double.isNaN(s.sdMs()) ? "" : " ± " + ms(s.sdMs()));
    }

    static String pct(double v) {
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%.1f %%", v);
    }

    List<String> configurations() {
        List<String> c = new ArrayList<>(data.phases().keySet());
        // pooled first, then the thesis profile, then the rest: the two of the closing note lead
        c.sort((a, b) -> Integer.compare(rank(a), rank(b)) != 0 ? Integer.compare(rank(a), rank(b)) : a.compareTo(b));
        return c;
    }

    private static int rank(String config) {
        String[] order = {"pooled+refresh-ahead", "thesis+refresh-ahead", "non-pooled+refresh-ahead"};
        int i = Arrays.asList(order).indexOf(config);
        return i < 0 ? order.length : i;
    }

    String labelOf(String operation) {
        if (mapping.getProperty("display." + operation) != null) {
            return mapping.getProperty("display." + operation);
        }
        for (String k : mapping.stringPropertyNames()) {
            if (k.startsWith("label.") && mapping.getProperty(k).equals(operation)) {
                return k.substring("label.".length());
            }
        }
        return operation;
    }

    String operationOf(String label) {
        return mapping.getProperty("label." + label, label);
    }

    Phase phase(String config, String mode, String phase) {
        return data.phases().getOrDefault(config, Map.of()).get(mode + "-" + phase);
    }

    /** The total of thesis table {@code t}: request handling time at its workload in its phase. */
    Stat total(String config, String mode, String t) {
        Phase p = phase(config, mode, mapping.getProperty("table." + t + ".phase"));
        return p == null
                ? Stat.NONE
                : PerfData.delta(p, mapping.getProperty("table." + t + ".workload"), HTTP, Map.of());
    }

    /** One operation of one mode at the workload of table {@code t}. */
    Stat operation(String config, String mode, String t, String operation) {
        Phase p = phase(config, mode, mapping.getProperty("table." + t + ".phase"));
        if (p == null) {
            return Stat.NONE;
        }
        return PerfData.delta(
                p,
                mapping.getProperty("table." + t + ".workload"),
                OPERATION,
                Map.of("mode", mode, "operation", operation, "outcome", "success"));
    }

    /** Operations seen at the workload of table {@code t} (in the after scrape). */
    List<String> operations(String config, String mode, String t) {
        Phase p = phase(config, mode, mapping.getProperty("table." + t + ".phase"));
        if (p == null) {
            return List.of();
        }
        Prometheus a = p.after().getOrDefault(mapping.getProperty("table." + t + ".workload"), Prometheus.EMPTY);
        return a.labelValues(OPERATION + "_count", "operation", Map.of("mode", mode, "outcome", "success"));
    }

    /** Time per handled request spent in an operation (ms): Δsum(operation) / Δcount(requests). */
    double perRequest(String config, String mode, String t, String operation) {
        Stat op = operation(config, mode, t, operation);
        Stat tot = total(config, mode, t);
        if (op.count() <= 0 || tot.count() <= 0) {
            return 0;
        }
        return op.meanMs() * op.count() / tot.count();
    }

    /** The highest operation (by time per request) of table t, or null. */
    String highest(String config, String mode, String t) {
        List<String> exclude =
                Arrays.asList(mapping.getProperty("highest.exclude", "").split("\\s*,\\s*"));
        String best = null;
        double bestV = -1;
        for (String op : operations(config, mode, t)) {
            if (exclude.contains(op)) {
                continue;
            }
            double v = perRequest(config, mode, t, op);
            if (v > bestV) {
                bestV = v;
                best = op;
            }
        }
        return best;
    }

    List<Request> measured(String config, String mode, String request) {
        return data.requests().stream()
                .filter(r -> r.configuration().equals(config)
                        && r.mode().equals(mode)
                        && r.request().equals(request)
                        && !r.scenario().endsWith("warm-up"))
                .toList();
    }

    /** The nearest-rank percentile of successful response times (ms), NaN when none. */
    static double percentile(List<Request> rs, double p) {
        long[] v = rs.stream()
                .filter(Request::ok)
                .mapToLong(Request::responseMs)
                .sorted()
                .toArray();
        if (v.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(p / 100.0 * v.length);
        return v[Math.max(0, Math.min(v.length - 1, rank - 1))];
    }

    double p50(String config, String mode, String request) {
        return percentile(measured(config, mode, request), 50);
    }

    double measureSeconds() {
        return Double.parseDouble(data.run().getProperty("measure.seconds", "NaN"));
    }

    // ---------------------------------------------------------------- sections

    Report compute() {
        environment();
        for (String t : List.of("12", "13", "14")) {
            thesisTable(t);
        }
        strategies();
        endToEnd();
        resources();
        overhead();
        return this;
    }

    private void environment() {
        Table t = Table.of(
                "Environment", "Recorded by the run; the machine may be shared, see the load.", "What", "Value");
        String[][] keys = {
            {"JDK", "java.version"},
            {"JVM", "java.vm"},
            {"Crypto provider (workloads)", "crypto.provider"},
            {"CPU model", "cpu.model"},
            {"Cores", "cpu.cores"},
            {"OS", "os"},
            {"Load before (1, 5, 15 min)", "load.before"},
            {"Load after (1, 5, 15 min)", "load.after"},
            {"Git revision", "git.revision"},
            {"Target", "target"},
            {"Profile", "profile"},
            {"Rates (mint, use per second) / warm-up / measured seconds", "rates"},
            {"Started", "started"},
            {"Finished", "finished"}
        };
        for (String[] k : keys) {
            String v = k[1].equals("crypto.provider") ? provider() : data.run().getProperty(k[1], "–");
            t.row(k[0], v);
        }
        tables.add(t);
    }

    private String provider() {
        for (Map<String, Phase> byPhase : data.phases().values()) {
            for (Phase p : byPhase.values()) {
                for (Prometheus prom : p.after().values()) {
                    List<String> v = prom.labelValues(OPERATION + "_count", "crypto_provider", Map.of());
                    if (!v.isEmpty()) {
                        return String.join(", ", v);
                    }
                }
            }
        }
        return data.run().getProperty("crypto.provider", "–");
    }

    private void thesisTable(String t) {
        Table table = Table.of(
                mapping.getProperty("table." + t + ".title", "Table " + t),
                "Ours: request handling time at " + mapping.getProperty("table." + t + ".workload")
                        + " (http.server.requests) in the " + mapping.getProperty("table." + t + ".phase")
                        + " phase, mean ± standard deviation (ours estimated from the histogram buckets), ms; highest"
                        + " operation by time per request (spiffeidt.operation). Thesis: Cochak 2025, tables 12–14.",
                "Mode",
                "Source",
                "Total (ms)",
                "Highest operation",
                "Highest (ms)",
                "Share");
        for (String mode : MODES) {
            for (String config : configurations()) {
                Stat tot = total(config, mode, t);
                if (tot.count() <= 0) {
                    continue;
                }
                String h = highest(config, mode, t);
                Stat hs = h == null ? Stat.NONE : operation(config, mode, t, h);
                double share = h == null ? Double.NaN : 100 * perRequest(config, mode, t, h) / tot.meanMs();
                table.row(
                        mode,
                        "ours " + config,
                        pm(tot),
                        h == null ? "–" : labelOf(h) + " (" + h + ")",
                        pm(hs),
                        pct(share));
            }
            for (String[] r : thesis) {
                if (r[0].equals(t) && r[1].equals(mode)) {
                    table.row(
                            mode,
                            "thesis " + r[2],
                            r[3] + " ± " + r[4],
                            r[5] + " (" + operationOf(r[5]) + ")",
                            r[6] + " ± " + r[7],
                            r[8] + " %");
                }
            }
        }
        tables.add(table);
    }

    private void strategies() {
        String st = mapping.getProperty("claim.strategy-table", "13");
        String conn = mapping.getProperty("claim.connection", "mtls_client_setup");
        List<String> profiles = new ArrayList<>();
        for (String c : configurations()) {
            if (c.endsWith("+refresh-ahead")) {
                profiles.add(c.substring(0, c.indexOf('+')));
            }
        }
        List<String> head = new ArrayList<>(List.of("Mode"));
        for (String p : profiles) {
            head.add(p + ": m-tier validation (ms)");
            head.add(p + ": balance p50 (ms)");
        }
        Table t = new Table(
                "Connection strategies (JWKS refresh-ahead)",
                head,
                new ArrayList<>(),
                "Validation time = request handling at the m-tier (Table 13 total, mean) under each pooling profile;"
                        + " balance p50 = end to end.");
        for (String mode : MODES) {
            List<Object> row = new ArrayList<>(List.of(mode));
            for (String p : profiles) {
                String c = p + "+refresh-ahead";
                row.add(ms(total(c, mode, st).meanMs()));
                row.add(ms(p50(c, mode, "balance")));
            }
            t.row(row.toArray());
        }
        tables.add(t);

        // JWKS none vs refresh-ahead, for mint
        Table j = Table.of(
                "JWKS cache: mint at asserting-wl",
                "Table 12 total (ms) and the JWKS fetch's time per mint request, per pooling profile present with both caches.",
                "Mode",
                "Pooling",
                "refresh-ahead: mint (ms)",
                "refresh-ahead: JWKS fetch per mint (ms)",
                "none: mint (ms)",
                "none: JWKS fetch per mint (ms)");
        String jwks = mapping.getProperty("claim.jwks", "jwks_fetch");
        for (String mode : MODES) {
            for (String p : PROFILES_ALL) {
                String ra = p + "+refresh-ahead";
                String no = p + "+none";
                if (!data.phases().containsKey(ra) && !data.phases().containsKey(no)) {
                    continue;
                }
                j.row(
                        mode,
                        p,
                        ms(total(ra, mode, "12").meanMs()),
                        ms(perRequest(ra, mode, "12", jwks)),
                        ms(total(no, mode, "12").meanMs()),
                        ms(perRequest(no, mode, "12", jwks)));
            }
        }
        tables.add(j);

        statements.add(connectionClaim(st, conn));
        statements.add(jwksClaim(jwks));
        statements.add(lsvidClaim());
        statements.add(depthClaim());
    }

    static final List<String> PROFILES_ALL = List.of("thesis", "pooled", "non-pooled", "fresh-source");

    /**
     * Claim 1: the connection setup share of validation at the strategy table's tier, per mode: (total
     * under the unpooled profile − total under pooled) / total under the unpooled profile; the mode where
     * it is largest is reported. REPRODUCED when that share is at least 50 %.
     */
    private String connectionClaim(String st, String conn) {
        String unpooled = null;
        for (String p : List.of("non-pooled", "fresh-source", "thesis")) {
            if (data.phases().containsKey(p + "+refresh-ahead")) {
                unpooled = p + "+refresh-ahead";
                break;
            }
        }
        String pooled = "pooled+refresh-ahead";
        if (unpooled == null || !data.phases().containsKey(pooled)) {
            return "Claim 1 (connection setup dominates): not measured in this run (needs `pooled` and one of"
                    + " `non-pooled`, `fresh-source`, `thesis`, with refresh-ahead).";
        }
        String worst = null;
        double worstShare = Double.NEGATIVE_INFINITY;
        double worstSetup = 0;
        for (String mode : MODES) {
            double u = total(unpooled, mode, st).meanMs();
            double p = total(pooled, mode, st).meanMs();
            if (Double.isNaN(u) || Double.isNaN(p)) {
                continue;
            }
            double share = 100 * (u - p) / u;
            if (share > worstShare) {
                worstShare = share;
                worst = mode;
                worstSetup = u - p;
            }
        }
        if (worst == null) {
            return "Claim 1 (connection setup dominates): no validation data.";
        }
        double setupOp = perRequest(unpooled, worst, st, conn);
        boolean reproduced = worstShare >= 50;
        return String.format(
                Locale.ROOT,
                "Claim 1 (connection setup dominates): %s — at %s, `%s` costs %.2f ms more per request than `pooled`"
                        + " in %s, %.1f %% of its validation time (the largest share over the modes; thesis ~100 ms,"
                        + " >90 %%)%s; end to end, %s balance p50 is %s ms under `%s` and %s ms under `pooled`.",
                reproduced ? "REPRODUCED" : "REFUTED",
                mapping.getProperty("table." + st + ".workload"),
                unpooled.substring(0, unpooled.indexOf('+')),
                worstSetup,
                worst,
                worstShare,
                setupOp > 0 ? String.format(Locale.ROOT, "; %s alone %.2f ms per request", conn, setupOp) : "",
                worst,
                ms(p50(unpooled, worst, "balance")),
                unpooled.substring(0, unpooled.indexOf('+')),
                ms(p50(pooled, worst, "balance")));
    }

    private String jwksClaim(String jwks) {
        String none = null;
        for (String p : PROFILES_ALL) {
            if (data.phases().containsKey(p + "+none")) {
                none = p + "+none";
                break;
            }
        }
        if (none == null) {
            String ra = configurations().isEmpty() ? null : configurations().get(0);
            double max = 0;
            for (String mode : MODES) {
                Stat tot = ra == null ? Stat.NONE : total(ra, mode, "12");
                if (tot.count() > 0) {
                    max = Math.max(max, 100 * perRequest(ra, mode, "12", jwks) / tot.meanMs());
                }
            }
            return String.format(
                    Locale.ROOT,
                    "Claim 2 (JWKS fetching dominates minting when not cached): not measured without a cache in this run"
                            + " (run `-Dspiffeidt.perf.matrix=full`); with `refresh-ahead` the JWKS fetch is at most %.1f %%"
                            + " of minting.",
                    max);
        }
        double min = Double.MAX_VALUE;
        double max = 0;
        for (String mode : MODES) {
            Stat tot = total(none, mode, "12");
            if (tot.count() > 0) {
                double share = 100 * perRequest(none, mode, "12", jwks) / tot.meanMs();
                min = Math.min(min, share);
                max = Math.max(max, share);
            }
        }
        boolean reproduced = min >= 50;
        return String.format(
                Locale.ROOT,
                "Claim 2 (JWKS fetching dominates minting when not cached): %s — under `%s` the JWKS fetch is %.1f–%.1f"
                        + " %% of minting (thesis 80–96 %% for the nested modes and LSVID).",
                reproduced ? "REPRODUCED" : "REFUTED",
                none,
                min == Double.MAX_VALUE ? Double.NaN : min,
                max);
    }

    private String lsvidClaim() {
        String vt = mapping.getProperty("claim.validation-table", "14");
        List<String> parts = new ArrayList<>();
        boolean all = true;
        boolean any = false;
        for (String c : configurations()) {
            double lsvid = total(c, "lsvid", vt).meanMs();
            if (Double.isNaN(lsvid)) {
                continue;
            }
            String cheapest = "lsvid";
            double min = lsvid;
            for (String mode : MODES) {
                double v = total(c, mode, vt).meanMs();
                if (!Double.isNaN(v) && v < min) {
                    min = v;
                    cheapest = mode;
                }
            }
            any = true;
            all &= cheapest.equals("lsvid");
            parts.add(String.format(Locale.ROOT, "%s: cheapest %s (%.2f ms), LSVID %.2f ms", c, cheapest, min, lsvid));
        }
        if (!any) {
            return "Claim 3 (LSVID is the cheapest mode at the target): not measured in this run.";
        }
        return "Claim 3 (LSVID is the cheapest mode at the target): " + (all ? "REPRODUCED" : "REFUTED") + " — "
                + String.join("; ", parts) + ".";
    }

    private String depthClaim() {
        String provider = mapping.getProperty("crypto.provider", "accp");
        TreeMap<Integer, Double> id = Jmh.byDepth(jmh, "IdModeBenchmarks.verify", provider);
        TreeMap<Integer, Double> anon = Jmh.byDepth(jmh, "AnonModeBenchmarks.verify", provider);
        if (id.size() < 2) {
            return "Claim 4 (ID-Mode validation grows linearly with depth; Anon-Mode is slower per layer, its token"
                    + " smaller): not measured (no JMH results with IdModeBenchmarks.verify at several depths; run"
                    + " `./mvnw -pl perf exec:exec@jmh` first).";
        }
        double[] fi = Jmh.fit(id);
        double[] fa = anon.size() >= 2 ? Jmh.fit(anon) : new double[] {Double.NaN, Double.NaN, Double.NaN};
        boolean linear = fi[2] >= 0.95;
        boolean slower = !Double.isNaN(fa[0]) && fa[0] > fi[0];
        Map<String, TreeMap<Integer, Double>> sizes = documentSizes();
        TreeMap<Integer, Double> sid = sizes.getOrDefault("id-mode", new TreeMap<>());
        TreeMap<Integer, Double> san = sizes.getOrDefault("anon-mode", new TreeMap<>());
        String smaller = "sizes not compared";
        boolean small = true;
        for (Integer d : sid.keySet()) {
            if (san.containsKey(d)) {
                small = san.get(d) < sid.get(d);
                smaller = String.format(
                        Locale.ROOT, "at depth %d Anon-Mode %.0f B vs ID-Mode %.0f B", d, san.get(d), sid.get(d));
                break;
            }
        }
        return String.format(
                Locale.ROOT,
                "Claim 4 (ID-Mode validation linear in depth; Anon-Mode slower per layer, smaller token): %s — ID-Mode"
                        + " verify %.1f µs per layer (R² %.3f), Anon-Mode %.1f µs per layer; %s.",
                linear && slower && small ? "REPRODUCED" : "REFUTED",
                fi[0],
                fi[2],
                fa[0],
                smaller);
    }

    /** Mean document size by mode and depth over every workload, from the last scrape of each phase. */
    Map<String, TreeMap<Integer, Double>> documentSizes() {
        Map<String, TreeMap<Integer, double[]>> acc = new TreeMap<>();
        for (Map<String, Phase> byPhase : data.phases().values()) {
            for (Phase p : byPhase.values()) {
                for (Prometheus prom : p.after().values()) {
                    for (Prometheus.Sample s : prom.samples()) {
                        boolean count = s.name().equals("spiffeidt_document_size_bytes_count");
                        boolean sum = s.name().equals("spiffeidt_document_size_bytes_sum");
                        if ((count || sum) && s.labels().containsKey("depth")) {
                            double[] cs = acc.computeIfAbsent(s.labels().get("mode"), k -> new TreeMap<>())
                                    .computeIfAbsent(Integer.parseInt(s.labels().get("depth")), k -> new double[2]);
                            cs[count ? 0 : 1] += s.value();
                        }
                    }
                }
            }
        }
        Map<String, TreeMap<Integer, Double>> out = new TreeMap<>();
        acc.forEach((mode, byDepth) -> {
            TreeMap<Integer, Double> m = new TreeMap<>();
            byDepth.forEach((d, cs) -> {
                if (cs[0] > 0) {
                    m.put(d, cs[1] / cs[0]);
                }
            });
            out.put(mode, m);
        });
        return out;
    }

    private void endToEnd() {
        Table t = Table.of(
                "End to end (Gatling, measured phases only)",
                "Response times in ms of successful requests (nearest rank); throughput = requests / measured seconds.",
                "Configuration",
                "Mode",
                "Request",
                "Requests",
                "Errors",
                "p50",
                "p95",
                "p99",
                "Throughput (req/s)");
        for (String c : configurations()) {
            for (String mode : MODES) {
                for (String r : List.of("mint", "balance", "deposit")) {
                    List<Request> rs = measured(c, mode, r);
                    if (rs.isEmpty()) {
                        continue;
                    }
                    long errors = rs.stream().filter(x -> !x.ok()).count();
                    t.row(
                            c,
                            mode,
                            r,
                            rs.size(),
                            errors,
                            ms(percentile(rs, 50)),
                            ms(percentile(rs, 95)),
                            ms(percentile(rs, 99)),
                            ms(rs.size() / measureSeconds()));
                }
            }
        }
        tables.add(t);
    }

    /** Workload of a stack thread, by the port in its name ({@code ...-<port>-exec-N}). */
    String workloadOfThread(String name) {
        for (String k : data.run().stringPropertyNames()) {
            if (k.startsWith("port.")) {
                String port = data.run().getProperty(k);
                if (name.contains("-" + port + "-") || name.endsWith("-" + port)) {
                    String component = k.substring("port.".length());
                    return component.endsWith(".management")
                            ? component.substring(0, component.length() - ".management".length())
                            : component;
                }
            }
        }
        return "shared";
    }

    /** CPU ms by workload during a phase (thread attribution; "shared" = GC, JIT, Workload API, ...). */
    Map<String, Double> cpuByWorkload(Phase p) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (String w : List.of("subject-wl", "asserting-wl", "m-tier", "target-wl", "idp", "shared")) {
            out.put(w, 0.0);
        }
        p.threadsAfter().forEach((name, after) -> {
            double delta = after - p.threadsBefore().getOrDefault(name, 0.0);
            out.merge(workloadOfThread(name), Math.max(0, delta), Double::sum);
        });
        return out;
    }

    private void resources() {
        Table t = Table.of(
                "Resources (thesis Tables 8–11)",
                "CPU as % of one core over the measured phase, by the workload's own threads (name carries its port;"
                        + " `shared` = JVM, GC, JIT, Workload API, unnamed pools). In one JVM the memory is the stack's"
                        + " resident set and heap, not per workload. Thesis (Compose, validation): DVID 27.67/19.99/21.47 %,"
                        + " ID-Mode 18.57/17.01/18.49 %, Anon-Mode 16.03/15.00/16.46 %, LSVID 13.01/13.11/13.16 %"
                        + " (asserting/m-tier/target); memory 17–35 MB per workload.",
                "Configuration",
                "Phase",
                "subject-wl",
                "asserting-wl",
                "m-tier",
                "target-wl",
                "idp",
                "shared",
                "RSS (MB)",
                "Heap used (MB)");
        double seconds = measureSeconds();
        for (String c : configurations()) {
            for (var e : data.phases().get(c).entrySet()) {
                Phase p = e.getValue();
                List<Object> row = new ArrayList<>(List.of(c, e.getKey()));
                if (!p.threadsAfter().isEmpty()) {
                    cpuByWorkload(p).values().forEach(v -> row.add(pct(v / (seconds * 10))));
                } else {
                    for (String w : List.of("subject-wl", "asserting-wl", "m-tier", "target-wl")) {
                        Prometheus a = p.after().getOrDefault(w, Prometheus.EMPTY);
                        Prometheus b = p.before().getOrDefault(w, Prometheus.EMPTY);
                        double cpu = a.sum("process_cpu_time_ns_total", Map.of())
                                - b.sum("process_cpu_time_ns_total", Map.of());
                        row.add(cpu > 0 ? pct(cpu / 1e6 / (seconds * 10)) : "–");
                    }
                    row.add("–");
                    row.add("–");
                }
                row.add(p.rssKb() > 0 ? ms(p.rssKb() / 1024.0) : "–");
                Prometheus any = p.after().values().stream().findFirst().orElse(Prometheus.EMPTY);
                double heap = any.sum("jvm_memory_used_bytes", Map.of("area", "heap"));
                row.add(heap > 0 ? ms(heap / 1048576.0) : "–");
                t.row(row.toArray());
            }
        }
        tables.add(t);
    }

    /** The JMH cost (ms) of the crypto one balance request performs in {@code mode}, NaN if unknown. */
    double cryptoMs(String mode) {
        String spec = mapping.getProperty("crypto." + mode);
        if (spec == null || jmh.isEmpty()) {
            return Double.NaN;
        }
        String provider = mapping.getProperty("crypto.provider", "accp");
        double total = 0;
        for (String item : spec.split("\\s*,\\s*")) {
            int times = 1;
            String s = item.trim();
            int x = s.lastIndexOf(" x");
            if (x > 0) {
                times = Integer.parseInt(s.substring(x + 2).trim());
                s = s.substring(0, x).trim();
            }
            Integer depth = null;
            int at = s.indexOf('@');
            if (at > 0) {
                depth = Integer.parseInt(s.substring(at + 1));
                s = s.substring(0, at);
            }
            Double us = Jmh.score(jmh, s, provider, depth);
            if (us == null) {
                return Double.NaN;
            }
            total += times * us / 1000;
        }
        return total;
    }

    private void overhead() {
        Table t = Table.of(
                "Overhead ratio",
                "End-to-end p50 of balance under `pooled` divided by the JMH cost (provider "
                        + mapping.getProperty("crypto.provider", "accp")
                        + ") of the crypto that request performs (mapping.properties crypto.<mode>); near 1 means the"
                        + " service layer costs nothing.",
                "Mode",
                "balance p50, pooled (ms)",
                "JMH crypto (ms)",
                "Ratio");
        for (String mode : MODES) {
            double e2e = p50("pooled+refresh-ahead", mode, "balance");
            double crypto = cryptoMs(mode);
            t.row(
                    mode,
                    ms(e2e),
                    Double.isNaN(crypto) ? "– (no JMH results)" : String.format(Locale.ROOT, "%.3f", crypto),
                    ms(e2e / crypto));
        }
        tables.add(t);
    }

    // ---------------------------------------------------------------- resources

    static Properties resourceProperties(String name) {
        Properties p = new Properties();
        try (InputStream in = Report.class.getResourceAsStream(name)) {
            p.load(new java.io.InputStreamReader(in, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p;
    }

    static List<String[]> resourceCsv(String name) {
        try (InputStream in = Report.class.getResourceAsStream(name)) {
            List<String[]> rows = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    rows.add(line.trim().split(","));
                }
            }
            return rows;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The source line of the thesis figures (first comment of the data file). */
    static String thesisSource() {
        try (InputStream in = Report.class.getResourceAsStream("thesis-tables.csv")) {
            String first = new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")[0];
            return first.replaceFirst("^#\\s*", "");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
