package io.spiffeidt.perf.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report over two recorded deployments (src/test/resources/report-fixture/runs: {@code embedded} with
 * {@code pooled+refresh-ahead}, {@code compose} with {@code thesis+refresh-ahead}, LSVID only, numbers
 * chosen by hand so that each expected cell is worked out in its test).
 */
class DeploymentColumnsTests {

    private static Path runs() {
        try {
            return Path.of(DeploymentColumnsTests.class
                            .getResource("/report-fixture/runs/compose/run.properties")
                            .toURI())
                    .getParent()
                    .getParent();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Report report() {
        return new Report(PerfData.loadAll(runs(), Report.deploymentOrder()), List.of()).compute();
    }

    private static Table table(Report r, String titleStart) {
        return r.tables.stream()
                .filter(t -> t.title().startsWith(titleStart))
                .findFirst()
                .orElseThrow();
    }

    private static List<String> row(Table t, String... start) {
        return t.rows().stream()
                .filter(r -> r.subList(0, start.length).equals(List.of(start)))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no row " + List.of(start) + " in " + t.title()));
    }

    @Test
    void loadAllLabelsEachRunByItsDeploymentInTheMappingsOrder() {
        Report r = report();

        assertThat(r.runs).containsOnlyKeys("embedded", "compose");
        assertThat(r.runs.keySet()).containsExactly("embedded", "compose");
        // the thesis' two deployments keep their columns even without a run
        assertThat(r.deployments()).containsExactly("embedded", "compose", "kubernetes");
        assertThat(r.primary()).isEqualTo("embedded");
    }

    @Test
    void loadAllOfOneRunWithoutALabelNamesItByItsTarget() {
        Path single = runs().getParent().resolve("perf-data");

        assertThat(PerfData.loadAll(single, Report.deploymentOrder())).containsOnlyKeys("embedded");
    }

    @Test
    void tableFourteenHasAColumnGroupPerDeploymentAndTheThesisUnderComposeAndKubernetes() {
        Table t = table(report(), "Table 14");

        assertThat(t.head())
                .containsExactly(
                        "Mode",
                        "Configuration",
                        "embedded: total (ms)",
                        "embedded: highest operation, mean (ms), share",
                        "compose: total (ms)",
                        "compose: highest operation, mean (ms), share",
                        "kubernetes: total (ms)",
                        "kubernetes: highest operation, mean (ms), share");
        // embedded, target-wl, use: 10 requests in 0.01 s = 1.00 ms; validate 10 in 0.005 s = 0.50 ms, 50 %;
        // compose ran no pooled+refresh-ahead: its cells are missing
        assertThat(row(t, "lsvid", "pooled+refresh-ahead"))
                .containsExactly(
                        "lsvid",
                        "pooled+refresh-ahead",
                        "1.00",
                        "local verification (validate): 0.50, 50.0 %",
                        "–",
                        "–",
                        "–",
                        "–");
        // compose: 10 in 0.02 s = 2.00 ms; validate 10 in 0.01 s = 1.00 ms, 50 %
        assertThat(row(t, "lsvid", "thesis+refresh-ahead"))
                .containsExactly(
                        "lsvid",
                        "thesis+refresh-ahead",
                        "–",
                        "–",
                        "2.00",
                        "local verification (validate): 1.00, 50.0 %",
                        "–",
                        "–");
        assertThat(row(t, "lsvid", "thesis (Go)"))
                .containsExactly(
                        "lsvid",
                        "thesis (Go)",
                        "–",
                        "–",
                        "0.63 ± 0.16",
                        "LSVID validation (validate): 0.42 ± 0.11, 66.7 %",
                        "0.63 ± 0.22",
                        "LSVID validation (validate): 0.42 ± 0.19, 66.7 %");
        // a mode neither run measured has only the thesis' row
        assertThat(t.rows()).filteredOn(r -> r.get(0).equals("dvid")).hasSize(1);
    }

    @Test
    void tableTwelveTakesEachDeploymentsMintFromItsOwnAssertingWorkload() {
        Table t = table(report(), "Table 12");

        // embedded: 20 mints in 0.10 s = 5.00 ms, mint 20 in 0.04 s = 2.00 ms, 40 %
        assertThat(row(t, "lsvid", "pooled+refresh-ahead").subList(2, 4))
                .containsExactly("5.00", "minting (mint): 2.00, 40.0 %");
        // compose: 10 mints in 0.2 s = 20.00 ms, mint 10 in 0.1 s = 10.00 ms, 50 %
        assertThat(row(t, "lsvid", "thesis+refresh-ahead").subList(4, 6))
                .containsExactly("20.00", "minting (mint): 10.00, 50.0 %");
    }

    @Test
    void resourcesTakeEachFigureFromTheBestSourceAndSayWhich() {
        Table t = table(report(), "Resources");

        assertThat(t.head())
                .contains(
                        "embedded: CPU (% of a core)",
                        "compose: CPU per request (ms)", "kubernetes: memory (MB)", "thesis Compose (Go): memory (MB)");
        // embedded, 10 s: the asserting-wl's threads 500 ms = 5.0 %, 25.00 ms per mint (20); no memory per workload
        assertThat(row(t, "pooled+refresh-ahead", "lsvid-mint", "asserting-wl"))
                .containsExactly(
                        "pooled+refresh-ahead",
                        "lsvid-mint",
                        "asserting-wl",
                        "5.0 [threads]",
                        "25.00",
                        "–",
                        "–",
                        "–",
                        "–",
                        "–",
                        "–",
                        "–",
                        "–",
                        "–");
        // shared = GC 180 + IdP 20 ms; all = 700 ms, 35.00 per mint, the JVM's 512000 kB resident
        assertThat(row(t, "pooled+refresh-ahead", "lsvid-mint", "shared").subList(3, 6))
                .containsExactly("2.0 [threads]", "10.00", "–");
        assertThat(row(t, "pooled+refresh-ahead", "lsvid-mint", "all").subList(3, 6))
                .containsExactly("7.0 [threads]", "35.00", "500.0 [rss]");
        // compose without container counters for asserting-wl: process_cpu_time 2 s = 20.0 %, 200.00 per mint;
        // jvm_memory_used 200 + 50 MB
        assertThat(row(t, "thesis+refresh-ahead", "lsvid-mint", "asserting-wl").subList(3, 9))
                .containsExactly("–", "–", "–", "20.0 [process]", "200.00", "250.0 [jvm]");
        // compose m-tier: the cgroup's 500 ms wins over process_cpu_time's 900 ms; 20 requests (balance + deposit);
        // memory.stat rss 40 MB; the thesis' LSVID m-tier 13.11 % and 17.0–23.3 MB
        assertThat(row(t, "thesis+refresh-ahead", "lsvid-use", "m-tier"))
                .containsExactly(
                        "thesis+refresh-ahead",
                        "lsvid-use",
                        "m-tier",
                        "–",
                        "–",
                        "–",
                        "5.0 [cgroup]",
                        "25.00",
                        "40.0 [cgroup rss]",
                        "–",
                        "–",
                        "–",
                        "13.11",
                        "17.0–23.3");
        // no rss in memory.stat: memory.usage_in_bytes, 60 MB
        assertThat(row(t, "thesis+refresh-ahead", "lsvid-use", "target-wl").subList(6, 9))
                .containsExactly("2.5 [cgroup]", "12.50", "60.0 [cgroup usage]");
        // the sum of the four needs all four: subject-wl and asserting-wl have nothing in the use phase
        assertThat(row(t, "thesis+refresh-ahead", "lsvid-use", "all").subList(6, 9))
                .containsExactly("–", "–", "–");
    }

    @Test
    void endToEndAndEnvironmentHaveEveryDeployment() {
        Report r = report();

        assertThat(table(r, "Environment").head()).containsExactly("What", "embedded", "compose");
        assertThat(row(table(r, "Environment"), "Target").get(2)).isEqualTo("http://localhost:8080");
        // 20 measured mints (the 5 of the warm-up left out), 10 s
        assertThat(row(table(r, "End to end"), "embedded", "pooled+refresh-ahead", "lsvid", "mint")
                        .subList(4, 6))
                .containsExactly("20", "0");
        assertThat(row(table(r, "End to end"), "compose", "thesis+refresh-ahead", "lsvid", "balance")
                        .get(4))
                .isEqualTo("10");
    }

    @Test
    void generateWritesTheDeploymentColumnsIntoTheMarkdownAndTheHtml(@TempDir Path out) throws IOException {
        Path index = ReportMain.generate(runs(), out, null);

        assertThat(Files.readString(out.resolve("report.md")))
                .contains("| Mode | Configuration | embedded: total (ms) |")
                .contains("| lsvid | thesis+refresh-ahead | – | – | 2.00 |");
        assertThat(Files.readString(index)).contains("<th>compose: total (ms)</th>");
    }
}
