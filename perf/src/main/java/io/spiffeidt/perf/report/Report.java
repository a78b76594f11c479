package io.spiffeidt.perf.report;

import io.spiffeidt.core.Mode;
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
 * The numbers of the report, computed from the runs' {@link PerfData} (one per deployment label), the
 * mapping (resource {@code mapping.properties}), the thesis' figures (resources {@code thesis-tables.csv},
 * {@code thesis-resources.csv}) and, when present, JMH's results. Tables 12–14 and the resources have a
 * column group per deployment; the other sections and the claims read the first run ({@link #data}).
 */
final class Report {

    /** Every mode this build knows, in {@link Mode}'s order (a mode added there is a row of every table). */
    static final List<String> MODES =
            Arrays.stream(Mode.values()).map(Mode::pathSegment).toList();

    static final String OPERATION = "spiffeidt_operation_seconds";
    static final String HTTP = "http_server_requests_seconds";

    static final List<String> WORKLOADS = List.of("subject-wl", "asserting-wl", "m-tier", "target-wl");

    /**
     * The modes of the runs, in {@link #MODES}' order (then any the build does not know): the rows of
     * every table; every mode of this build when no run has data.
     */
    List<String> modes() {
        List<String> out = new ArrayList<>();
        for (PerfData d : runs.values()) {
            Comparison.modesOf(d).stream().filter(m -> !out.contains(m)).forEach(out::add);
        }
        if (out.isEmpty()) {
            return MODES;
        }
        List<String> ordered =
                new ArrayList<>(MODES.stream().filter(out::contains).toList());
        out.stream().filter(m -> !ordered.contains(m)).forEach(ordered::add);
        return ordered;
    }

    /** {@link #modes()} and every mode the thesis has figures of (rows of Tables 12–14), in MODES' order. */
    List<String> modesWithThesis() {
        List<String> out = new ArrayList<>(modes());
        thesis.stream().map(r -> r[1]).filter(m -> !out.contains(m)).forEach(out::add);
        List<String> ordered =
                new ArrayList<>(MODES.stream().filter(out::contains).toList());
        out.stream().filter(m -> !ordered.contains(m)).forEach(ordered::add);
        return ordered;
    }

    /** Every run by deployment label, in the mapping's order. */
    final Map<String, PerfData> runs;
    /** The first run: the one the claims, strategies, end-to-end plots and overhead ratio read. */
    final PerfData data;

    final Properties mapping;
    final List<String[]> thesis;
    final List<String[]> thesisResources;
    final List<Jmh.Result> jmh;
    final List<Table> tables = new ArrayList<>();
    final List<String> statements = new ArrayList<>();

    Report(PerfData data, List<Jmh.Result> jmh) {
        this(Map.of(data.deployment(), data), jmh);
    }

    Report(Map<String, PerfData> runs, List<Jmh.Result> jmh) {
        this.runs = new LinkedHashMap<>(runs);
        this.data = runs.isEmpty()
                ? new PerfData(new Properties(), List.of(), Map.of())
                : runs.values().iterator().next();
        this.mapping = resourceProperties("mapping.properties");
        this.thesis = resourceCsv("thesis-tables.csv");
        this.thesisResources = resourceCsv("thesis-resources.csv");
        this.jmh = jmh;
    }

    /** The deployment labels in the mapping's order ({@code deployments}). */
    static List<String> deploymentOrder() {
        return List.of(resourceProperties("mapping.properties")
                .getProperty("deployments", PerfData.EMBEDDED)
                .split("\\s*,\\s*"));
    }

    /** The columns: the mapping's deployments (thesis figures have a place there), then every other run. */
    List<String> deployments() {
        List<String> d = new ArrayList<>(deploymentOrder());
        runs.keySet().stream().filter(k -> !d.contains(k)).forEach(d::add);
        return d;
    }

    /** The label of the first run, named in the notes of the sections that read only it. */
    String primary() {
        return runs.isEmpty() ? "–" : runs.keySet().iterator().next();
    }

    /** Every configuration of any run, in the report's order. */
    List<String> allConfigurations() {
        List<String> c = new ArrayList<>();
        runs.values()
                .forEach(d ->
                        d.phases().keySet().stream().filter(k -> !c.contains(k)).forEach(c::add));
        c.sort(Report::compareConfigurations);
        return c;
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
        c.sort(Report::compareConfigurations);
        return c;
    }

    // pooled first, then the thesis profile, then the rest: the two of the closing note lead
    private static int compareConfigurations(String a, String b) {
        return Integer.compare(rank(a), rank(b)) != 0 ? Integer.compare(rank(a), rank(b)) : a.compareTo(b);
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
        return phase(data, config, mode, phase);
    }

    static Phase phase(PerfData d, String config, String mode, String phase) {
        return d.phases().getOrDefault(config, Map.of()).get(mode + "-" + phase);
    }

    /** The total of thesis table {@code t}: request handling time at its workload in its phase. */
    Stat total(String config, String mode, String t) {
        return total(data, config, mode, t);
    }

    Stat total(PerfData d, String config, String mode, String t) {
        Phase p = phase(d, config, mode, mapping.getProperty("table." + t + ".phase"));
        return p == null
                ? Stat.NONE
                : PerfData.delta(p, mapping.getProperty("table." + t + ".workload"), HTTP, Map.of());
    }

    /** One operation of one mode at the workload of table {@code t}. */
    Stat operation(String config, String mode, String t, String operation) {
        return operation(data, config, mode, t, operation);
    }

    Stat operation(PerfData d, String config, String mode, String t, String operation) {
        Phase p = phase(d, config, mode, mapping.getProperty("table." + t + ".phase"));
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
        return operations(data, config, mode, t);
    }

    List<String> operations(PerfData d, String config, String mode, String t) {
        Phase p = phase(d, config, mode, mapping.getProperty("table." + t + ".phase"));
        if (p == null) {
            return List.of();
        }
        Prometheus a = p.after().getOrDefault(mapping.getProperty("table." + t + ".workload"), Prometheus.EMPTY);
        return a.labelValues(OPERATION + "_count", "operation", Map.of("mode", mode, "outcome", "success"));
    }

    /** Time per handled request spent in an operation (ms): Δsum(operation) / Δcount(requests). */
    double perRequest(String config, String mode, String t, String operation) {
        return perRequest(data, config, mode, t, operation);
    }

    double perRequest(PerfData d, String config, String mode, String t, String operation) {
        Stat op = operation(d, config, mode, t, operation);
        Stat tot = total(d, config, mode, t);
        if (op.count() <= 0 || tot.count() <= 0) {
            return 0;
        }
        return op.meanMs() * op.count() / tot.count();
    }

    /** The highest operation (by time per request) of table t, or null. */
    String highest(String config, String mode, String t) {
        return highest(data, config, mode, t);
    }

    String highest(PerfData d, String config, String mode, String t) {
        List<String> exclude =
                Arrays.asList(mapping.getProperty("highest.exclude", "").split("\\s*,\\s*"));
        String best = null;
        double bestV = -1;
        for (String op : operations(d, config, mode, t)) {
            if (exclude.contains(op)) {
                continue;
            }
            double v = perRequest(d, config, mode, t, op);
            if (v > bestV) {
                bestV = v;
                best = op;
            }
        }
        return best;
    }

    List<Request> measured(String config, String mode, String request) {
        return measured(data, config, mode, request);
    }

    static List<Request> measured(PerfData d, String config, String mode, String request) {
        return d.requests().stream()
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
        return measureSeconds(data);
    }

    static double measureSeconds(PerfData d) {
        return Double.parseDouble(d.run().getProperty("measure.seconds", "NaN"));
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
        Comparison.addTo(this);
        return this;
    }

    private void environment() {
        List<String> head = new ArrayList<>(List.of("What"));
        head.addAll(runs.keySet());
        Table t = new Table(
                "Environment",
                head,
                new ArrayList<>(),
                "Recorded by each run (one column per deployment); the machine may be shared, see the load.");
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
            {"Metrics scraped", "metrics"},
            {"Containers (cgroup files)", "containers"},
            {"Profile", "profile"},
            {"Rates (mint, use per second) / warm-up / measured seconds", "rates"},
            {"Started", "started"},
            {"Finished", "finished"}
        };
        for (String[] k : keys) {
            List<Object> row = new ArrayList<>(List.of(k[0]));
            for (PerfData d : runs.values()) {
                row.add(k[1].equals("crypto.provider") ? provider(d) : d.run().getProperty(k[1], "–"));
            }
            t.row(row.toArray());
        }
        tables.add(t);
    }

    private static String provider(PerfData data) {
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
        List<String> deployments = deployments();
        List<String> head = new ArrayList<>(List.of("Mode", "Configuration"));
        for (String d : deployments) {
            head.add(d + ": total (ms)");
            head.add(d + ": highest operation, mean (ms), share");
        }
        Table table = new Table(
                mapping.getProperty("table." + t + ".title", "Table " + t),
                head,
                new ArrayList<>(),
                "One column group per deployment (the run's label); – where that deployment has no run, no such"
                        + " configuration or no data. Ours: request handling time at "
                        + mapping.getProperty("table." + t + ".workload")
                        + " (http.server.requests) in the " + mapping.getProperty("table." + t + ".phase")
                        + " phase, mean ± standard deviation (ours estimated from the histogram buckets), ms; highest"
                        + " operation by time per request (spiffeidt.operation). The row `thesis (Go)` holds Cochak"
                        + " 2025, tables 12–14: its Compose figures under "
                        + thesisColumn("Compose") + ", its K8s (Minikube) figures under " + thesisColumn("K8s")
                        + ".");
        for (String mode : modesWithThesis()) {
            for (String config : allConfigurations()) {
                List<Object> row = new ArrayList<>(List.of(mode, config));
                boolean any = false;
                for (String dep : deployments) {
                    PerfData d = runs.get(dep);
                    Stat tot = d == null ? Stat.NONE : total(d, config, mode, t);
                    if (tot.count() <= 0) {
                        row.add("–");
                        row.add("–");
                        continue;
                    }
                    any = true;
                    String h = highest(d, config, mode, t);
                    Stat hs = h == null ? Stat.NONE : operation(d, config, mode, t, h);
                    double share = h == null ? Double.NaN : 100 * perRequest(d, config, mode, t, h) / tot.meanMs();
                    row.add(pm(tot));
                    row.add(h == null ? "–" : labelOf(h) + " (" + h + "): " + pm(hs) + ", " + pct(share));
                }
                if (any) {
                    table.row(row.toArray());
                }
            }
            List<Object> row = new ArrayList<>(List.of(mode, "thesis (Go)"));
            for (String dep : deployments) {
                String[] r = thesisRow(t, mode, dep);
                row.add(r == null ? "–" : r[3] + " ± " + r[4]);
                row.add(
                        r == null
                                ? "–"
                                : r[5] + " (" + operationOf(r[5]) + "): " + r[6] + " ± " + r[7] + ", " + r[8] + " %");
            }
            table.row(row.toArray());
        }
        tables.add(table);
    }

    /** Our column of one of the thesis' deployments ({@code deployment.thesis.<deploy>}). */
    String thesisColumn(String deploy) {
        return mapping.getProperty("deployment.thesis." + deploy, deploy);
    }

    private String[] thesisRow(String t, String mode, String deployment) {
        for (String[] r : thesis) {
            if (r[0].equals(t) && r[1].equals(mode) && thesisColumn(r[2]).equals(deployment)) {
                return r;
            }
        }
        return null;
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
                        + " balance p50 = end to end. Deployment: " + primary() + ".");
        for (String mode : modes()) {
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
                "Table 12 total (ms) and the JWKS fetch's time per mint request, per pooling profile present with both"
                        + " caches. Deployment: " + primary() + ".",
                "Mode",
                "Pooling",
                "refresh-ahead: mint (ms)",
                "refresh-ahead: JWKS fetch per mint (ms)",
                "none: mint (ms)",
                "none: JWKS fetch per mint (ms)");
        String jwks = mapping.getProperty("claim.jwks", "jwks_fetch");
        for (String mode : modes()) {
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
        for (String mode : modes()) {
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
            for (String mode : modes()) {
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
        for (String mode : modes()) {
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
            for (String mode : modes()) {
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
                "Deployment",
                "Configuration",
                "Mode",
                "Request",
                "Requests",
                "Errors",
                "p50",
                "p95",
                "p99",
                "Throughput (req/s)");
        runs.forEach((dep, d) -> {
            List<String> configs = new ArrayList<>(d.phases().keySet());
            d.requests().stream()
                    .map(Request::configuration)
                    .filter(c -> !configs.contains(c))
                    .distinct()
                    .forEach(configs::add);
            configs.sort(Report::compareConfigurations);
            for (String c : configs) {
                for (String mode : modes()) {
                    for (String r : List.of("mint", "balance", "deposit")) {
                        List<Request> rs = measured(d, c, mode, r);
                        if (rs.isEmpty()) {
                            continue;
                        }
                        long errors = rs.stream().filter(x -> !x.ok()).count();
                        t.row(
                                dep,
                                c,
                                mode,
                                r,
                                rs.size(),
                                errors,
                                ms(percentile(rs, 50)),
                                ms(percentile(rs, 95)),
                                ms(percentile(rs, 99)),
                                ms(rs.size() / measureSeconds(d)));
                    }
                }
            }
        });
        tables.add(t);
    }

    /** Workload of a stack thread, by the port in its name ({@code ...-<port>-exec-N}). */
    String workloadOfThread(String name) {
        return workloadOfThread(data, name);
    }

    static String workloadOfThread(PerfData d, String name) {
        for (String k : d.run().stringPropertyNames()) {
            if (k.startsWith("port.")) {
                String port = d.run().getProperty(k);
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
        return cpuByWorkload(data, p);
    }

    static Map<String, Double> cpuByWorkload(PerfData d, Phase p) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (String w : List.of("subject-wl", "asserting-wl", "m-tier", "target-wl", "idp", "shared")) {
            out.put(w, 0.0);
        }
        p.threadsAfter().forEach((name, after) -> {
            double delta = after - p.threadsBefore().getOrDefault(name, 0.0);
            out.merge(workloadOfThread(d, name), Math.max(0, delta), Double::sum);
        });
        return out;
    }

    /** A resource figure and where it comes from (the tag printed beside it). */
    record Figure(double value, String source) {
        static final Figure NONE = new Figure(Double.NaN, null);

        String cell(String unitFormat) {
            return Double.isNaN(value) ? "–" : String.format(Locale.ROOT, unitFormat, value) + " [" + source + "]";
        }
    }

    static final String ALL = "all";
    static final String SHARED = "shared";

    /**
     * CPU milliseconds of one workload (or {@code shared}, or {@code all}) during a measured phase: the
     * container's cgroup counter, else the embedded stack's thread attribution, else the workload's own
     * {@code process_cpu_time_ns_total}.
     */
    static Figure cpuMs(PerfData d, Phase p, String workload) {
        if (workload.equals(ALL)) {
            if (!p.threadsAfter().isEmpty() && p.containersAfter().isEmpty()) {
                return new Figure(
                        cpuByWorkload(d, p).values().stream()
                                .mapToDouble(x -> x)
                                .sum(),
                        "threads");
            }
            return sum(WORKLOADS.stream().map(w -> cpuMs(d, p, w)).toList());
        }
        PerfData.Container a = p.containersAfter().get(workload);
        PerfData.Container b = p.containersBefore().get(workload);
        if (a != null && b != null && a.cpuNs() >= 0 && b.cpuNs() >= 0) {
            return new Figure((a.cpuNs() - b.cpuNs()) / 1e6, "cgroup");
        }
        if (!p.threadsAfter().isEmpty()) {
            Map<String, Double> byWorkload = cpuByWorkload(d, p);
            Double v =
                    workload.equals(SHARED) ? byWorkload.get(SHARED) + byWorkload.get("idp") : byWorkload.get(workload);
            return v == null ? Figure.NONE : new Figure(v, "threads");
        }
        if (workload.equals(SHARED)) {
            return Figure.NONE;
        }
        Prometheus pa = p.after().get(workload);
        Prometheus pb = p.before().get(workload);
        if (pa == null || pb == null || pa.sum("process_cpu_time_ns_total", Map.of()) <= 0) {
            return Figure.NONE;
        }
        double ns = pa.sum("process_cpu_time_ns_total", Map.of()) - pb.sum("process_cpu_time_ns_total", Map.of());
        return new Figure(ns / 1e6, "process");
    }

    /**
     * Memory (MB) of one workload after a measured phase: the container's resident anonymous memory
     * (cgroup memory.stat), else its cgroup usage, else the workload's JVM memory used (heap and non-heap,
     * Prometheus); in the embedded stack only {@code all}, the JVM's resident set.
     */
    static Figure memoryMb(PerfData d, Phase p, String workload) {
        if (workload.equals(ALL)) {
            if (!p.threadsAfter().isEmpty() && p.containersAfter().isEmpty()) {
                return p.rssKb() > 0 ? new Figure(p.rssKb() / 1024.0, "rss") : Figure.NONE;
            }
            return sum(WORKLOADS.stream().map(w -> memoryMb(d, p, w)).toList());
        }
        PerfData.Container c = p.containersAfter().get(workload);
        if (c != null && c.rssBytes() >= 0) {
            return new Figure(c.rssBytes() / 1048576.0, "cgroup rss");
        }
        if (c != null && c.memoryBytes() >= 0) {
            return new Figure(c.memoryBytes() / 1048576.0, "cgroup usage");
        }
        if (!p.threadsAfter().isEmpty() || workload.equals(SHARED)) {
            return Figure.NONE; // one JVM: no per-workload memory
        }
        double used = p.after().getOrDefault(workload, Prometheus.EMPTY).sum("jvm_memory_used_bytes", Map.of());
        return used > 0 ? new Figure(used / 1048576.0, "jvm") : Figure.NONE;
    }

    /** The sum of the four workloads' figures, or none when one is missing. */
    private static Figure sum(List<Figure> parts) {
        double total = 0;
        List<String> sources = new ArrayList<>();
        for (Figure f : parts) {
            if (Double.isNaN(f.value())) {
                return Figure.NONE;
            }
            total += f.value();
            if (!sources.contains(f.source())) {
                sources.add(f.source());
            }
        }
        return new Figure(total, "sum " + String.join("+", sources));
    }

    /** Requests sent in a measured phase ({@code <mode>-<phase>}) of a configuration. */
    static long requestsIn(PerfData d, String config, String phaseKey) {
        int dash = phaseKey.lastIndexOf('-');
        String mode = phaseKey.substring(0, dash);
        String phase = phaseKey.substring(dash + 1);
        return d.requests().stream()
                .filter(r -> r.configuration().equals(config)
                        && r.mode().equals(mode)
                        && r.scenario().equals(phase))
                .count();
    }

    /** The thesis' figure ({@code cpu} or {@code memory}) of a mode and workload, or "–". */
    String thesisResource(String kind, String mode, String workload) {
        for (String[] r : thesisResources) {
            if (r[0].equals(kind) && r[1].equals(mode) && (r[2].equals(workload) || r[2].equals("*"))) {
                return r[3];
            }
        }
        return "–";
    }

    private void resources() {
        List<String> deployments = deployments();
        List<String> head = new ArrayList<>(List.of("Configuration", "Phase", "Workload"));
        for (String dep : deployments) {
            head.add(dep + ": CPU (% of a core)");
            head.add(dep + ": CPU per request (ms)");
            head.add(dep + ": memory (MB)");
        }
        head.add("thesis Compose (Go): CPU (% of a core)");
        head.add("thesis Compose (Go): memory (MB)");
        Table t = new Table(
                "Resources per workload and deployment (thesis Tables 8–11)",
                head,
                new ArrayList<>(),
                "One column group per deployment; – where that deployment has no run or no such figure. CPU over"
                        + " the measured phase (between the scrapes before and after it) as % of one core, and per"
                        + " request the phase sent (mint; balance and deposit each count); memory after the phase."
                        + " The tag says where each figure comes from: [cgroup] the container's cpuacct.usage"
                        + " (cgroup v2: cpu.stat usage_usec), [cgroup rss] its memory.stat rss (v2: anon), [cgroup"
                        + " usage] memory.usage_in_bytes (v2: memory.current), both read by the run around the phase"
                        + " (-Dspiffeidt.perf.containers); [process] the workload's own process_cpu_time_ns_total and"
                        + " [jvm] its jvm_memory_used_bytes (heap and non-heap, not the resident set) from"
                        + " /actuator/prometheus; [threads] the embedded stack's per-thread CPU (jcmd), attributed"
                        + " to a workload by the port in the thread's name, `shared` = GC, JIT, the development"
                        + " Workload API, the IdP, unnamed pools; [rss] the embedded stack JVM's resident set (one"
                        + " JVM: no memory per workload). `all` = the whole embedded JVM, or the sum of the four"
                        + " workloads of a deployment (without the IdP, PostgreSQL and SPIRE). Thesis: the Go"
                        + " workloads on Compose during validation (use phase), CPU per workload and memory as the"
                        + " range over the workloads; 17–35 MB per Go workload in all.");
        List<String> rows = new ArrayList<>(WORKLOADS);
        rows.add(SHARED);
        rows.add(ALL);
        for (String config : allConfigurations()) {
            for (String mode : modes()) {
                for (String phase : List.of("mint", "use")) {
                    String key = mode + "-" + phase;
                    boolean present = runs.values().stream().anyMatch(d -> phase(d, config, mode, phase) != null);
                    if (!present) {
                        continue;
                    }
                    for (String w : rows) {
                        List<Object> row = new ArrayList<>(List.of(config, key, w));
                        for (String dep : deployments) {
                            PerfData d = runs.get(dep);
                            Phase p = d == null ? null : phase(d, config, mode, phase);
                            if (p == null) {
                                row.add("–");
                                row.add("–");
                                row.add("–");
                                continue;
                            }
                            Figure cpu = cpuMs(d, p, w);
                            double seconds = measureSeconds(d);
                            long n = requestsIn(d, config, key);
                            row.add(new Figure(cpu.value() / (seconds * 10), cpu.source()).cell("%.1f"));
                            row.add(n > 0 && !Double.isNaN(cpu.value()) ? ms(cpu.value() / n) : "–");
                            row.add(memoryMb(d, p, w).cell("%.1f"));
                        }
                        boolean thesisRow = phase.equals("use") && WORKLOADS.contains(w) && !w.equals("subject-wl");
                        row.add(thesisRow ? thesisResource("cpu", mode, w) : "–");
                        row.add(thesisRow ? thesisResource("memory", mode, w) : "–");
                        t.row(row.toArray());
                    }
                }
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
                        + " service layer costs nothing. Deployment: " + primary() + ".",
                "Mode",
                "balance p50, pooled (ms)",
                "JMH crypto (ms)",
                "Ratio");
        for (String mode : modes()) {
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

    static String resourceText(String name) {
        try (InputStream in = Report.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
