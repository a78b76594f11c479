package io.spiffeidt.perf.report;

import io.spiffeidt.perf.report.PerfData.Phase;
import io.spiffeidt.perf.report.PerfData.Request;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The report's sections on what each mode carries and proves (docs/comparison.md): bytes on the wire
 * per hop, the document's size at each hop, and the comparison table of every mode of the run. The
 * bytes come from the callers' {@code spiffeidt.http.client.bytes} and {@code
 * spiffeidt.http.client.document.size} (docs/operations.md "Bytes on the wire") between the scrapes
 * around a measured phase; the qualitative columns from {@link ModeProfile}.
 */
final class Comparison {

    /** Prometheus names of the summaries the downstream client records. */
    static final String BYTES = "spiffeidt_http_client_bytes";

    static final String DOCUMENT = "spiffeidt_http_client_document_size_bytes";
    static final String MINTED = "spiffeidt_document_size_bytes";

    /** The configuration of the comparison's latency, CPU and bytes columns. */
    static final String POOLED = "pooled+refresh-ahead";

    static final String NOT_MEASURED = "not measured in this run";

    private Comparison() {}

    /**
     * One hop's bytes in a measured phase, per request the phase sent (mint; balance and deposit each
     * count).
     *
     * @param from the calling workload (whose scrape recorded it)
     * @param to the downstream
     * @param endpoints the paths called
     * @param calls calls per request
     * @param sent request bytes per request
     * @param received answer bytes per request
     * @param document mean document characters per call that carried one, NaN for none
     */
    record HopBytes(
            String from,
            String to,
            List<String> endpoints,
            double calls,
            double sent,
            double received,
            double document) {

        String name() {
            return from + " → " + to;
        }
    }

    /** Every hop of {@code mode} seen in {@code phase}, per request of {@code requests}. */
    static List<HopBytes> hops(Phase phase, String mode, long requests) {
        List<HopBytes> out = new ArrayList<>();
        if (phase == null || requests <= 0) {
            return out;
        }
        for (String from : Report.WORKLOADS) {
            Prometheus after = phase.after().getOrDefault(from, Prometheus.EMPTY);
            Prometheus before = phase.before().getOrDefault(from, Prometheus.EMPTY);
            for (String to : after.labelValues(BYTES + "_count", "downstream", Map.of("mode", mode))) {
                Map<String, String> sentLabels = Map.of("mode", mode, "downstream", to, "direction", "sent");
                Map<String, String> receivedLabels = Map.of("mode", mode, "downstream", to, "direction", "received");
                Map<String, String> docLabels = Map.of("mode", mode, "downstream", to);
                double calls = delta(after, before, BYTES + "_count", sentLabels);
                if (calls <= 0) {
                    continue;
                }
                double docCalls = delta(after, before, DOCUMENT + "_count", docLabels);
                out.add(new HopBytes(
                        from,
                        to,
                        after.labelValues(BYTES + "_count", "endpoint", sentLabels),
                        calls / requests,
                        delta(after, before, BYTES + "_sum", sentLabels) / requests,
                        delta(after, before, BYTES + "_sum", receivedLabels) / requests,
                        docCalls > 0 ? delta(after, before, DOCUMENT + "_sum", docLabels) / docCalls : Double.NaN));
            }
        }
        return out;
    }

    private static double delta(Prometheus after, Prometheus before, String name, Map<String, String> labels) {
        return after.sum(name, labels) - before.sum(name, labels);
    }

    /** Mean size of the documents asserting-wl minted in a mint phase (depth 1), NaN when none. */
    static double minted(Phase phase, String mode) {
        if (phase == null) {
            return Double.NaN;
        }
        Prometheus a = phase.after().getOrDefault("asserting-wl", Prometheus.EMPTY);
        Prometheus b = phase.before().getOrDefault("asserting-wl", Prometheus.EMPTY);
        Map<String, String> labels = Map.of("mode", mode, "depth", "1");
        double count = delta(a, b, MINTED + "_count", labels);
        return count > 0 ? delta(a, b, MINTED + "_sum", labels) / count : Double.NaN;
    }

    /**
     * The modes of a run, in {@link Report#MODES}' order: those with requests or measured phases, then
     * any mode the run has that this build does not know (a run of an older or newer build).
     */
    static List<String> modesOf(PerfData d) {
        List<String> seen = new ArrayList<>();
        d.requests().stream().map(Request::mode).forEach(m -> addOnce(seen, m));
        d.phases().values().forEach(byPhase -> byPhase.keySet().forEach(k -> {
            int dash = k.lastIndexOf('-');
            if (dash > 0) {
                addOnce(seen, k.substring(0, dash));
            }
        }));
        List<String> out = new ArrayList<>();
        Report.MODES.stream().filter(seen::contains).forEach(out::add);
        seen.stream().filter(m -> !out.contains(m)).forEach(out::add);
        return out;
    }

    private static void addOnce(List<String> list, String value) {
        if (!list.contains(value)) {
            list.add(value);
        }
    }

    static String bytes(double v) {
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%,.0f", v);
    }

    private static String kb(double v) {
        return String.format(Locale.ROOT, "%.1f", v / 1000);
    }

    // ---------------------------------------------------------------- sections

    /** Adds the bytes table, the document table and the comparison table to {@code r}. */
    static void addTo(Report r) {
        r.tables.add(bytesTable(r));
        r.tables.add(documentTable(r));
        r.tables.add(comparisonTable(r));
    }

    static Table bytesTable(Report r) {
        Table t = Table.of(
                "Bytes on the wire per hop",
                "Per request the measured phase sent (mint; balance and deposit each count), from the callers'"
                        + " spiffeidt.http.client.bytes between the scrapes around the phase: the HTTP/1.1 request"
                        + " (request line, headers, body) and answer (status line, headers, body) as the connection"
                        + " wrote and read them, inside TLS (no TLS records, no handshakes); answers include the"
                        + " Server-Timing and Wire-Bytes headers. Document: the mean size of the document the"
                        + " hop's requests carried (spiffeidt.http.client.document.size). Deployment: "
                        + r.primary() + ".",
                "Configuration",
                "Mode",
                "Phase",
                "Hop",
                "Endpoints",
                "Calls per request",
                "Sent per request (B)",
                "Received per request (B)",
                "Document (B)");
        for (String config : r.configurations()) {
            for (String mode : modesOf(r.data)) {
                for (String phase : List.of("mint", "use")) {
                    Phase p = r.phase(config, mode, phase);
                    long n = Report.requestsIn(r.data, config, mode + "-" + phase);
                    for (HopBytes h : hops(p, mode, n)) {
                        t.row(
                                config,
                                mode,
                                phase,
                                h.name(),
                                String.join(" ", h.endpoints()),
                                String.format(Locale.ROOT, "%.2f", h.calls()),
                                bytes(h.sent()),
                                bytes(h.received()),
                                bytes(h.document()));
                    }
                }
            }
        }
        return t;
    }

    static Table documentTable(Report r) {
        String config = r.configurations().contains(POOLED)
                ? POOLED
                : r.configurations().isEmpty() ? null : r.configurations().get(0);
        Table t = Table.of(
                "Document size at each hop",
                "Mean characters of the document (token and ID-Mode certificate side-car, or the Txn-Token or access"
                        + " token a baseline's header carries; the encodings are ASCII,"
                        + " so bytes): as asserting-wl minted it (spiffeidt.document.size, depth 1, mint phase), and as"
                        + " each hop's requests carried it (spiffeidt.http.client.document.size, use phase);"
                        + " – where nothing travels (mtls-only's user header is no document). Configuration: "
                        + (config == null ? "–" : config)
                        + "; deployment: " + r.primary() + ".",
                "Mode",
                "minted (asserting-wl)",
                "subject-wl → m-tier",
                "m-tier → target-wl");
        if (config == null) {
            return t;
        }
        for (String mode : modesOf(r.data)) {
            List<HopBytes> use =
                    hops(r.phase(config, mode, "use"), mode, Report.requestsIn(r.data, config, mode + "-use"));
            t.row(
                    mode,
                    bytes(minted(r.phase(config, mode, "mint"), mode)),
                    bytes(document(use, "subject-wl", "m-tier")),
                    bytes(document(use, "m-tier", "target-wl")));
        }
        return t;
    }

    private static double document(List<HopBytes> hops, String from, String to) {
        return hops.stream()
                .filter(h -> h.from().equals(from) && h.to().equals(to))
                .mapToDouble(HopBytes::document)
                .findFirst()
                .orElse(Double.NaN);
    }

    static Table comparisonTable(Report r) {
        Map<String, ModeProfile> profiles = ModeProfile.load();
        String provider = r.mapping.getProperty("crypto.provider", "accp");
        Table t = Table.of(
                "Comparison of the approaches",
                "One row per mode of this run. Target learns / compromised m-tier: the modes' profiles"
                        + " (perf modes.properties, explained in docs/comparison.md). balance p50 / p99: end to end"
                        + " (Gatling) under `" + POOLED + "`; CPU: ms per request of the use phase per tier"
                        + " (subject-wl / asserting-wl / m-tier / target-wl, as in the resources table); bytes: per"
                        + " request of the use phase, sent / received in kB per hop (the bytes table); JMH: µs of one"
                        + " mint / extension / verification at the target (provider " + provider
                        + "; – where the mode has no such step). Deployment: " + r.primary() + ".",
                "Mode",
                "What travels",
                "Target learns the user",
                "the issuer",
                "the path",
                "the original token's validity",
                "needs a call to verify",
                "Compromised m-tier: forge the user",
                "forge the path",
                "replay elsewhere",
                "balance p50 / p99 (ms)",
                "CPU per request (ms)",
                "Bytes per hop (kB sent / received)",
                "JMH mint / extend / verify (µs)");
        for (String mode : modesOf(r.data)) {
            ModeProfile m = profiles.getOrDefault(mode, ModeProfile.unknown(mode));
            t.row(
                    mode,
                    m.carries(),
                    m.user(),
                    m.issuer(),
                    m.path(),
                    m.token(),
                    m.call(),
                    m.forgeUser(),
                    m.forgePath(),
                    m.replay(),
                    latency(r, mode),
                    cpu(r, mode),
                    bytesPerHop(r, mode),
                    jmh(r, m, provider));
        }
        return t;
    }

    private static String latency(Report r, String mode) {
        List<Request> rs = Report.measured(r.data, POOLED, mode, "balance");
        if (rs.stream().noneMatch(Request::ok)) {
            return NOT_MEASURED;
        }
        return Report.ms(Report.percentile(rs, 50)) + " / " + Report.ms(Report.percentile(rs, 99));
    }

    private static String cpu(Report r, String mode) {
        Phase p = r.phase(POOLED, mode, "use");
        long n = Report.requestsIn(r.data, POOLED, mode + "-use");
        if (p == null || n <= 0) {
            return NOT_MEASURED;
        }
        List<String> cells = new ArrayList<>();
        for (String w : Report.WORKLOADS) {
            double ms = Report.cpuMs(r.data, p, w).value();
            cells.add(Double.isNaN(ms) ? "–" : Report.ms(ms / n));
        }
        return cells.stream().allMatch("–"::equals) ? NOT_MEASURED : String.join(" / ", cells);
    }

    private static String bytesPerHop(Report r, String mode) {
        List<HopBytes> hops =
                hops(r.phase(POOLED, mode, "use"), mode, Report.requestsIn(r.data, POOLED, mode + "-use"));
        if (hops.isEmpty()) {
            return NOT_MEASURED;
        }
        List<String> cells = new ArrayList<>();
        for (HopBytes h : hops) {
            cells.add(h.name() + " " + kb(h.sent()) + " / " + kb(h.received()));
        }
        return String.join("; ", cells);
    }

    private static String jmh(Report r, ModeProfile m, String provider) {
        List<String> specs = List.of(m.jmhMint(), m.jmhExtend(), m.jmhVerify());
        if (specs.stream().allMatch("none"::equals)) {
            return "– (nothing to sign)";
        }
        if (r.jmh.isEmpty()) {
            return NOT_MEASURED;
        }
        List<String> cells = new ArrayList<>();
        for (String spec : specs) {
            if (spec.equals("none")) {
                cells.add("–");
                continue;
            }
            Double us = Jmh.sumMicros(r.jmh, spec, provider);
            cells.add(us == null ? NOT_MEASURED : String.format(Locale.ROOT, "%.1f", us));
        }
        return String.join(" / ", cells);
    }
}
