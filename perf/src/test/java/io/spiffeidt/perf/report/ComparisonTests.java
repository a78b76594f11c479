package io.spiffeidt.perf.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spiffeidt.core.Mode;
import io.spiffeidt.perf.report.PerfData.Container;
import io.spiffeidt.perf.report.PerfData.Phase;
import io.spiffeidt.perf.report.PerfData.Request;
import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * The bytes, document and comparison tables from a hand-made run: two modes (dvid, and txn-token,
 * which this build need not know), the pooled configuration, scrapes whose differences are chosen so
 * that every expected figure is a round number (written beside each assertion).
 */
class ComparisonTests {

    private static final String POOLED = "pooled+refresh-ahead";

    /** One summary sample set of the downstream client, as a workload's Prometheus text. */
    private static String bytes(String mode, String to, String endpoint, long calls, long sent, long received) {
        String labels = "mode=\"" + mode + "\",downstream=\"" + to + "\",endpoint=\"" + endpoint + "\"";
        return "spiffeidt_http_client_bytes_count{" + labels + ",direction=\"sent\"} " + calls + "\n"
                + "spiffeidt_http_client_bytes_sum{" + labels + ",direction=\"sent\"} " + sent + "\n"
                + "spiffeidt_http_client_bytes_count{" + labels + ",direction=\"received\"} " + calls + "\n"
                + "spiffeidt_http_client_bytes_sum{" + labels + ",direction=\"received\"} " + received + "\n";
    }

    private static String document(String mode, String to, String endpoint, long calls, long sum) {
        String labels = "mode=\"" + mode + "\",downstream=\"" + to + "\",endpoint=\"" + endpoint + "\"";
        return "spiffeidt_http_client_document_size_bytes_count{" + labels + "} " + calls + "\n"
                + "spiffeidt_http_client_document_size_bytes_sum{" + labels + "} " + sum + "\n";
    }

    private static Map<String, Prometheus> scrape(String subject, String mtier, String asserting) {
        Map<String, Prometheus> m = new LinkedHashMap<>();
        m.put("subject-wl", Prometheus.parse(subject));
        m.put("m-tier", Prometheus.parse(mtier));
        m.put("asserting-wl", Prometheus.parse(asserting));
        return m;
    }

    private static Map<String, Container> cpu(long subjectMs, long assertingMs, long mtierMs, long targetMs) {
        Map<String, Container> m = new LinkedHashMap<>();
        m.put("subject-wl", new Container(subjectMs * 1_000_000, -1, -1));
        m.put("asserting-wl", new Container(assertingMs * 1_000_000, -1, -1));
        m.put("m-tier", new Container(mtierMs * 1_000_000, -1, -1));
        m.put("target-wl", new Container(targetMs * 1_000_000, -1, -1));
        return m;
    }

    /**
     * The dvid use phase: 10 requests; subject-wl → m-tier 10 calls, 20,000 B sent, 12,000 received,
     * documents of 1,500; m-tier → asserting-wl 10 calls at /dvid/validate, 5,000 sent, 870,000
     * received; m-tier → target-wl 10 calls, 22,000 sent, 6,000 received, documents of 1,500 (before:
     * an earlier phase's counts, which must be subtracted). CPU 10, 20, 30, 40 ms over the phase.
     */
    private static Phase dvidUse() {
        Map<String, Prometheus> before = scrape(
                bytes("dvid", "m-tier", "/dvid/balance", 5, 9_000, 5_000)
                        + document("dvid", "m-tier", "/dvid/balance", 5, 7_500),
                bytes("dvid", "target-wl", "/dvid/balance", 5, 11_000, 3_000)
                        + document("dvid", "target-wl", "/dvid/balance", 5, 7_500)
                        + bytes("dvid", "asserting-wl", "/dvid/validate", 5, 2_500, 400_000),
                "");
        Map<String, Prometheus> after = scrape(
                bytes("dvid", "m-tier", "/dvid/balance", 15, 29_000, 17_000)
                        + document("dvid", "m-tier", "/dvid/balance", 15, 22_500),
                bytes("dvid", "target-wl", "/dvid/balance", 15, 33_000, 9_000)
                        + document("dvid", "target-wl", "/dvid/balance", 15, 22_500)
                        + bytes("dvid", "asserting-wl", "/dvid/validate", 15, 7_500, 1_270_000),
                "");
        return new Phase(before, after, Map.of(), Map.of(), -1, cpu(100, 100, 100, 100), cpu(110, 120, 130, 140));
    }

    /** The dvid mint phase: 4 mints of 1,400-character DVIDs at asserting-wl. */
    private static Phase dvidMint() {
        Map<String, Prometheus> before = scrape("", "", "");
        Map<String, Prometheus> after = scrape(
                bytes("dvid", "asserting-wl", "/dvid/mint", 4, 4_000, 8_000),
                "",
                "spiffeidt_document_size_bytes_count{mode=\"dvid\",depth=\"1\"} 4\n"
                        + "spiffeidt_document_size_bytes_sum{mode=\"dvid\",depth=\"1\"} 5600\n");
        return new Phase(before, after, Map.of(), Map.of(), -1, Map.of(), Map.of());
    }

    /** The txn-token use phase: 5 requests, subject-wl → m-tier 2,500 sent and 1,000 received in all. */
    private static Phase txnUse() {
        Map<String, Prometheus> after =
                scrape(bytes("txn-token", "m-tier", "/txn-token/balance", 5, 2_500, 1_000), "", "");
        return new Phase(scrape("", "", ""), after, Map.of(), Map.of(), -1, Map.of(), Map.of());
    }

    private static List<Request> requests(String mode, String phase, String request, int n, long firstMs) {
        List<Request> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new Request(POOLED, mode, phase, request, firstMs + i, true));
        }
        return out;
    }

    private static PerfData run() {
        Properties props = new Properties();
        props.setProperty("measure.seconds", "10");
        List<Request> requests = new ArrayList<>();
        requests.addAll(requests("dvid", "mint", "mint", 4, 10));
        // balance response times 1..5 ms, deposits 100..104: p50 of balance 3, p99 5
        requests.addAll(requests("dvid", "use", "balance", 5, 1));
        requests.addAll(requests("dvid", "use", "deposit", 5, 100));
        requests.addAll(requests("txn-token", "use", "balance", 3, 7));
        requests.addAll(requests("txn-token", "use", "deposit", 2, 9));
        Map<String, Phase> phases = new LinkedHashMap<>();
        phases.put("dvid-mint", dvidMint());
        phases.put("dvid-use", dvidUse());
        phases.put("txn-token-use", txnUse());
        return new PerfData(props, requests, Map.of(POOLED, phases));
    }

    private static Report report(List<Jmh.Result> jmh) {
        return new Report(run(), jmh);
    }

    private static List<String> row(Table t, String... start) {
        return t.rows().stream()
                .filter(r -> r.subList(0, start.length).equals(List.of(start)))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no row " + List.of(start) + " in " + t.rows()));
    }

    @Test
    void hopsWhenPhaseScrapedThenPerRequestDifferencesOfEveryHop() {
        List<Comparison.HopBytes> hops = Comparison.hops(dvidUse(), "dvid", 10);

        assertThat(hops)
                .extracting(Comparison.HopBytes::name)
                .containsExactly("subject-wl → m-tier", "m-tier → target-wl", "m-tier → asserting-wl");
        Comparison.HopBytes toMtier = hops.get(0);
        // (29,000 - 9,000) / 10 requests, (17,000 - 5,000) / 10, documents (22,500 - 7,500) / (15 - 5)
        assertThat(toMtier.sent()).isEqualTo(2_000);
        assertThat(toMtier.received()).isEqualTo(1_200);
        assertThat(toMtier.calls()).isEqualTo(1);
        assertThat(toMtier.document()).isEqualTo(1_500);
        Comparison.HopBytes toAsserting = hops.get(2);
        assertThat(toAsserting.endpoints()).containsExactly("/dvid/validate");
        assertThat(toAsserting.received()).isEqualTo(87_000);
        assertThat(toAsserting.document()).isNaN();
    }

    @Test
    void bytesTableWhenRunThenOneRowPerModePhaseAndHop() {
        Table t = Comparison.bytesTable(report(List.of()));

        assertThat(row(t, POOLED, "dvid", "use", "m-tier → asserting-wl"))
                .containsExactly(
                        POOLED, "dvid", "use", "m-tier → asserting-wl", "/dvid/validate", "1.00", "500", "87,000", "–");
        assertThat(row(t, POOLED, "dvid", "use", "m-tier → target-wl"))
                .containsExactly(
                        POOLED, "dvid", "use", "m-tier → target-wl", "/dvid/balance", "1.00", "2,200", "600", "1,500");
        // the mint phase: 4 mints, 1,000 sent and 2,000 received each
        assertThat(row(t, POOLED, "dvid", "mint", "subject-wl → asserting-wl"))
                .containsExactly(
                        POOLED,
                        "dvid",
                        "mint",
                        "subject-wl → asserting-wl",
                        "/dvid/mint",
                        "1.00",
                        "1,000",
                        "2,000",
                        "–");
        // a mode this build may not know is a row as well: 2,500 / 5 and 1,000 / 5
        assertThat(row(t, POOLED, "txn-token", "use", "subject-wl → m-tier"))
                .containsExactly(
                        POOLED,
                        "txn-token",
                        "use",
                        "subject-wl → m-tier",
                        "/txn-token/balance",
                        "1.00",
                        "500",
                        "200",
                        "–");
        assertThat(t.markdown()).startsWith("### Bytes on the wire per hop");
    }

    @Test
    void documentTableWhenRunThenMintedSizeAndEveryHopsDocument() {
        Table t = Comparison.documentTable(report(List.of()));

        // 5,600 / 4 minted; 1,500 at both hops (a DVID is forwarded unchanged); txn-token: no document
        assertThat(row(t, "dvid")).containsExactly("dvid", "1,400", "1,500", "1,500");
        assertThat(row(t, "txn-token")).containsExactly("txn-token", "–", "–", "–");
    }

    @Test
    void comparisonTableWhenNoJmhResultsThenOneRowPerModeOfTheRunAndJmhNotMeasured() {
        Table t = Comparison.comparisonTable(report(List.of()));

        assertThat(t.rows()).extracting(r -> r.get(0)).containsExactly("dvid", "txn-token");
        List<String> dvid = row(t, "dvid");
        ModeProfile profile = ModeProfile.load().get("dvid");
        assertThat(dvid.subList(1, 10))
                .containsExactly(
                        profile.carries(),
                        profile.user(),
                        profile.issuer(),
                        profile.path(),
                        profile.token(),
                        profile.call(),
                        profile.forgeUser(),
                        profile.forgePath(),
                        profile.replay());
        // balance 1..5 ms: p50 3, p99 5; CPU (110-100, 120-100, 130-100, 140-100) ms / 10 requests
        assertThat(dvid.get(10)).isEqualTo("3.00 / 5.00");
        assertThat(dvid.get(11)).isEqualTo("1.00 / 2.00 / 3.00 / 4.00");
        assertThat(dvid.get(12))
                .isEqualTo("subject-wl → m-tier 2.0 / 1.2; m-tier → target-wl 2.2 / 0.6;"
                        + " m-tier → asserting-wl 0.5 / 87.0");
        assertThat(dvid.get(13)).isEqualTo(Comparison.NOT_MEASURED);
        // txn-token's use phase has no CPU figures
        assertThat(row(t, "txn-token").get(11)).isEqualTo(Comparison.NOT_MEASURED);
    }

    @Test
    void comparisonTableWhenJmhResultsThenSummedMicrosPerStepAndMissingOnesSaidSo() {
        List<Jmh.Result> jmh = List.of(
                new Jmh.Result("DvidBenchmarks.mint", Map.of("provider", "accp"), 100, "us/op"),
                new Jmh.Result("DvidBenchmarks.mint", Map.of("provider", "sun"), 999, "us/op"),
                new Jmh.Result("DvidBenchmarks.zkpProve80", Map.of(), 2.5, "ms/op"),
                new Jmh.Result("DvidBenchmarks.verify", Map.of("provider", "accp"), 40_000, "ns/op"));

        Table t = Comparison.comparisonTable(report(jmh));

        // mint 100 µs + 2,500 µs; no extension; verify 40 µs
        assertThat(row(t, "dvid").get(13)).isEqualTo("2600.0 / – / 40.0");
        // txn-token's benchmarks (mint, replace, verify) are not in these results
        assertThat(row(t, "txn-token").get(13))
                .isEqualTo(String.join(" / ", Collections.nCopies(3, Comparison.NOT_MEASURED)));
    }

    @Test
    void reportWhenComputedThenTheThreeSectionsAfterTheOthers() {
        Report r = report(List.of()).compute();

        assertThat(r.tables)
                .extracting(Table::title)
                .endsWith("Bytes on the wire per hop", "Document size at each hop", "Comparison of the approaches");
        assertThat(r.tables.get(r.tables.size() - 1).html()).contains("<td>txn-token</td>");
    }

    @Test
    void reportWhenRunHasSomeModesThenEveryTableHasRowsForThoseOnly() {
        Report r = report(List.of()).compute();

        assertThat(r.modes()).containsExactly("dvid", "txn-token");
        assertThat(r.tables.stream().filter(t -> t.title().equals("Overhead ratio")))
                .singleElement()
                .satisfies(
                        t -> assertThat(t.rows()).extracting(row -> row.get(0)).containsExactly("dvid", "txn-token"));
    }

    @Test
    void profilesWhenLoadedThenEveryModeOfThisBuild() {
        Map<String, ModeProfile> profiles = ModeProfile.load();

        assertThat(profiles.keySet())
                .containsExactly(
                        "dvid", "id-mode", "anon-mode", "lsvid", "mtls-only", "bearer-forward", "txn-token", "wimse");
        for (Mode mode : Mode.values()) {
            assertThat(profiles).containsKey(mode.pathSegment());
        }
        // the deliberately weak modes say so
        assertThat(profiles.get("mtls-only").forgeUser()).startsWith("YES");
        assertThat(profiles.get("bearer-forward").replay()).startsWith("YES");
    }

    @Test
    void profilesWhenAFieldIsMissingOrUnknownThenRefused() throws IOException {
        String missing = "dvid.carries = x\n";
        Properties p = new Properties();
        p.load(new StringReader(missing));
        assertThatThrownBy(() -> ModeProfile.parse(p, missing))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("dvid.user missing");

        StringBuilder full = new StringBuilder();
        for (String f : ModeProfile.FIELDS) {
            full.append("dvid.").append(f).append(" = x\n");
        }
        full.append("dvid.colour = blue\n");
        Properties q = new Properties();
        q.load(new StringReader(full.toString()));
        assertThatThrownBy(() -> ModeProfile.parse(q, full.toString()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("dvid.colour");
    }
}
