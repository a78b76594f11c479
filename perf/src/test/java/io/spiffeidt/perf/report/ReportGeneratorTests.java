package io.spiffeidt.perf.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report generator on a recorded run (src/test/resources/report-fixture: the quick run's requests
 * and Prometheus scrapes, reduced to the metrics the report reads) and hand-written JMH results. The
 * expected numbers were computed by hand from those files (see each test).
 */
class ReportGeneratorTests {

    private static Path fixture() {
        try {
            return Path.of(ReportGeneratorTests.class
                            .getResource("/report-fixture/perf-data/run.properties")
                            .toURI())
                    .getParent();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Path jmhFixture() {
        return fixture().getParent().resolve("jmh-results.json");
    }

    private static Report report() {
        return new Report(PerfData.load(fixture()), Jmh.load(jmhFixture())).compute();
    }

    private static Table table(Report r, String titleStart) {
        return r.tables.stream()
                .filter(t -> t.title().startsWith(titleStart))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void generateWritesTheHtmlTheMarkdownAndEveryPlot(@TempDir Path out) throws IOException {
        Path index = ReportMain.generate(fixture(), out, jmhFixture());

        assertThat(index).exists();
        assertThat(out.resolve("report.md")).exists();
        for (String png : List.of(
                "latency-dvid.png",
                "latency-id-mode.png",
                "latency-anon-mode.png",
                "latency-lsvid.png",
                "strategies.png",
                "operations-asserting-wl.png",
                "operations-m-tier.png",
                "operations-target-wl.png",
                "jmh-verify-depth.png",
                "size-depth.png")) {
            assertThat(out.resolve(png)).isNotEmptyFile();
            assertThat(Files.readString(index)).contains("<img src=\"" + png + "\"");
            // a PNG signature
            assertThat(Files.readAllBytes(out.resolve(png))).startsWith(new byte[] {(byte) 0x89, 'P', 'N', 'G'});
        }
        assertThat(Files.readString(out.resolve("report.md")))
                .contains("Cochak 2025, tables 12–14")
                .contains("### Table 12")
                .contains("### Table 13")
                .contains("### Table 14");
    }

    @Test
    void tablesTwelveToFourteenHaveOurRowsPerModeAndConfigurationBesideTheThesis() {
        Report r = report();
        assertThat(r.modes()).containsExactly("dvid", "id-mode", "anon-mode", "lsvid");
        for (String t : List.of("Table 12", "Table 13", "Table 14")) {
            Table table = table(r, t);
            for (String mode : r.modes()) {
                assertThat(table.rows())
                        .filteredOn(row -> row.get(0).equals(mode))
                        .extracting(row -> row.get(1))
                        .containsExactly("pooled+refresh-ahead", "thesis+refresh-ahead", "thesis (Go)");
            }
        }
        // one embedded run: its column is filled, the thesis' Compose and K8s figures sit in theirs
        assertThat(table(r, "Table 12").rows())
                .contains(List.of(
                        "dvid",
                        "thesis (Go)",
                        "–",
                        "–",
                        "59.35 ± 11.57",
                        "ZKP generation (zkp_generation): 30.65 ± 3.24, 51.6 %",
                        "63.98 ± 21.11",
                        "ZKP generation (zkp_generation): 30.60 ± 15.54, 47.8 %"));
        assertThat(table(r, "Table 12").rows())
                .filteredOn(row -> row.get(1).equals("pooled+refresh-ahead"))
                .allSatisfy(row -> assertThat(row.subList(4, 8)).containsOnly("–"));
    }

    @Test
    void theMintTotalIsTheDeltaOfTheAssertingWorkloadsRequestTimer() {
        // by hand, pooled+refresh-ahead/dvid-mint, asserting-wl.prom, http_server_requests_seconds:
        // count 62 − 14 = 48 (the 48 measured mints), sum 9.348945628 − 2.515692595 = 6.833253033 s,
        // mean 6.833253033 / 48 = 142.3594 ms
        Report r = report();
        PerfData.Stat s = r.total("pooled+refresh-ahead", "dvid", "12");

        assertThat(s.count()).isEqualTo(48);
        assertThat(s.meanMs()).isCloseTo(142.3594, org.assertj.core.data.Offset.offset(0.005));
    }

    @Test
    void endToEndPercentilesAreNearestRankOverMeasuredRequestsOnly() {
        // by hand from requests.csv (pooled+refresh-ahead, lsvid, balance, scenario "use"):
        // 48 measured requests (the warm-up's are "use-warm-up"); sorted, rank 24 = 21 ms, rank 48 = 82 ms
        Report r = report();
        List<PerfData.Request> rs = r.measured("pooled+refresh-ahead", "lsvid", "balance");

        assertThat(rs).hasSize(48);
        assertThat(Report.percentile(rs, 50)).isEqualTo(21);
        assertThat(Report.percentile(rs, 99)).isEqualTo(82);
    }

    @Test
    void theOverheadRatioDividesTheBalanceMedianByTheJmhCostOfItsCrypto() {
        // crypto.dvid = DvidBenchmarks.verify x2 (250 us) + zkpVerify80 (2000 us) = 2.5 ms;
        // crypto.id-mode = extend@1 50 + verify@2 200 + extend@2 60 + verify@3 300 = 610 us (accp, not sun)
        Report r = report();

        assertThat(r.cryptoMs("dvid")).isCloseTo(2.5, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(r.cryptoMs("id-mode")).isCloseTo(0.61, org.assertj.core.data.Offset.offset(1e-9));
        double p50 = r.p50("pooled+refresh-ahead", "dvid", "balance");
        assertThat(table(r, "Overhead ratio").rows())
                .contains(List.of("dvid", Report.ms(p50), "2.500", Report.ms(p50 / 2.5)));
    }

    @Test
    void theHeadlineStatementsAreComputedFromTheNumbers() {
        Report r = report();

        assertThat(r.statements).hasSize(4);
        assertThat(r.statements.get(0))
                .startsWith("Claim 1")
                .contains("REPRODUCED")
                .contains("in dvid");
        assertThat(r.statements.get(1)).startsWith("Claim 2").contains("not measured without a cache");
        assertThat(r.statements.get(2)).startsWith("Claim 3").contains("REPRODUCED");
        // JMH fixture: ID-Mode 100 us per layer exactly (R² 1), Anon-Mode 300 us per layer
        assertThat(r.statements.get(3))
                .startsWith("Claim 4")
                .contains("100.0 µs per layer (R² 1.000)")
                .contains("Anon-Mode 300.0 µs per layer");
    }

    @Test
    void cpuIsAttributedToAWorkloadByThePortInItsThreadNames() {
        Report r = report();
        String port = r.data.run().getProperty("port.m-tier");

        assertThat(r.workloadOfThread("https-jsse-nio-127.0.0.1-" + port + "-exec-3"))
                .isEqualTo("m-tier");
        assertThat(r.workloadOfThread(
                        "http-nio-127.0.0.1-" + r.data.run().getProperty("port.subject-wl.management") + "-exec-1"))
                .isEqualTo("subject-wl");
        assertThat(r.workloadOfThread("G1 Young RemSet Sampling")).isEqualTo("shared");
        // 2 configurations × 4 modes × 2 phases × (4 workloads, shared, all)
        assertThat(table(r, "Resources").rows()).hasSize(96);
    }

    @Test
    void prometheusDeltaEstimatesTheStandardDeviationFromBuckets() {
        String before = "t_seconds_bucket{le=\"0.01\"} 0\nt_seconds_bucket{le=\"0.02\"} 0\n"
                + "t_seconds_bucket{le=\"+Inf\"} 0\nt_seconds_count 0\nt_seconds_sum 0.0\n";
        // two observations in (0,10 ms] and two in (10,20 ms]: midpoints 5 and 15 ms, mean from sum = 10 ms
        String after = "t_seconds_bucket{le=\"0.01\"} 2\nt_seconds_bucket{le=\"0.02\"} 4\n"
                + "t_seconds_bucket{le=\"+Inf\"} 4\nt_seconds_count 4\nt_seconds_sum 0.04\n";
        PerfData.Phase phase = new PerfData.Phase(
                Map.of("w", Prometheus.parse(before)),
                Map.of("w", Prometheus.parse(after)),
                Map.of(),
                Map.of(),
                -1,
                Map.of(),
                Map.of());

        PerfData.Stat s = PerfData.delta(phase, "w", "t_seconds", Map.of());

        assertThat(s.count()).isEqualTo(4);
        assertThat(s.meanMs()).isCloseTo(10, org.assertj.core.data.Offset.offset(1e-9));
        // sqrt((4 × 25) / 3)
        assertThat(s.sdMs()).isCloseTo(Math.sqrt(100.0 / 3), org.assertj.core.data.Offset.offset(1e-9));
    }
}
