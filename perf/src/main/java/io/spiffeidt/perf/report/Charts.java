package io.spiffeidt.perf.report;

import io.spiffeidt.perf.report.PerfData.Request;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;

/** The report's PNG plots (XChart). Every method returns the file names it wrote. */
final class Charts {

    private static final double[] PERCENTILES = {1, 5, 10, 25, 50, 75, 90, 95, 99, 99.9};

    private Charts() {}

    static List<String> all(Report r, Path dir) {
        System.setProperty("java.awt.headless", "true");
        List<String> files = new ArrayList<>();
        files.addAll(latency(r, dir));
        files.addAll(strategies(r, dir));
        files.addAll(operations(r, dir));
        files.addAll(jmhDepth(r, dir));
        files.addAll(sizes(r, dir));
        return files;
    }

    /** Per mode: response time (ms) at each percentile, one series per configuration and request. */
    static List<String> latency(Report r, Path dir) {
        List<String> files = new ArrayList<>();
        for (String mode : r.modes()) {
            XYChart c = new XYChartBuilder()
                    .width(800)
                    .height(450)
                    .title("Latency distribution: " + mode)
                    .xAxisTitle("percentile")
                    .yAxisTitle("response time (ms)")
                    .build();
            int series = 0;
            for (String config : r.configurations()) {
                for (String req : List.of("mint", "balance", "deposit")) {
                    List<Request> rs = r.measured(config, mode, req);
                    if (rs.stream().noneMatch(Request::ok)) {
                        continue;
                    }
                    double[] y = new double[PERCENTILES.length];
                    for (int i = 0; i < y.length; i++) {
                        y[i] = Report.percentile(rs, PERCENTILES[i]);
                    }
                    c.addSeries(config + " " + req, PERCENTILES.clone(), y);
                    series++;
                }
            }
            if (series > 0) {
                files.add(save(c, dir, "latency-" + mode));
            }
        }
        return files;
    }

    /** Balance p50 per mode, one bar per pooling profile (JWKS refresh-ahead). */
    static List<String> strategies(Report r, Path dir) {
        CategoryChart c = new CategoryChartBuilder()
                .width(800)
                .height(450)
                .title("Connection strategies: balance p50 per mode")
                .xAxisTitle("mode")
                .yAxisTitle("ms")
                .build();
        int series = 0;
        for (String p : Report.PROFILES_ALL) {
            String config = p + "+refresh-ahead";
            if (!r.data.phases().containsKey(config)) {
                continue;
            }
            List<Double> y = new ArrayList<>();
            for (String mode : r.modes()) {
                double v = r.p50(config, mode, "balance");
                y.add(Double.isNaN(v) ? 0 : v);
            }
            c.addSeries(p, r.modes(), y);
            series++;
        }
        return series == 0 ? List.of() : List.of(save(c, dir, "strategies"));
    }

    /** Per tier: stacked time per request of each operation, per mode (first configuration). */
    static List<String> operations(Report r, Path dir) {
        List<String> files = new ArrayList<>();
        if (r.configurations().isEmpty()) {
            return files;
        }
        String config = r.configurations().get(0);
        for (String t : List.of("12", "13", "14")) {
            Map<String, List<Double>> byOp = new TreeMap<>();
            for (String mode : r.modes()) {
                for (String op : r.operations(config, mode, t)) {
                    byOp.computeIfAbsent(op, k -> new ArrayList<>());
                }
            }
            if (byOp.isEmpty()) {
                continue;
            }
            for (var e : byOp.entrySet()) {
                for (String mode : r.modes()) {
                    e.getValue().add(r.perRequest(config, mode, t, e.getKey()));
                }
            }
            String workload = r.mapping.getProperty("table." + t + ".workload");
            CategoryChart c = new CategoryChartBuilder()
                    .width(800)
                    .height(450)
                    .title("Operations at " + workload + " (" + config + "), ms per request")
                    .xAxisTitle("mode")
                    .yAxisTitle("ms per request")
                    .build();
            c.getStyler().setStacked(true);
            byOp.forEach((op, y) -> c.addSeries(op, r.modes(), y));
            files.add(save(c, dir, "operations-" + workload));
        }
        return files;
    }

    /** JMH verification time against depth, per mode. */
    static List<String> jmhDepth(Report r, Path dir) {
        String provider = r.mapping.getProperty("crypto.provider", "accp");
        Map<String, String> benches = new LinkedHashMap<>();
        benches.put("id-mode", "IdModeBenchmarks.verify");
        benches.put("anon-mode", "AnonModeBenchmarks.verify");
        benches.put("lsvid", "LsvidBenchmarks.verify");
        XYChart c = new XYChartBuilder()
                .width(800)
                .height(450)
                .title("JMH verification time against depth (" + provider + ")")
                .xAxisTitle("depth (layers)")
                .yAxisTitle("µs/op")
                .build();
        int series = 0;
        for (var e : benches.entrySet()) {
            TreeMap<Integer, Double> m = Jmh.byDepth(r.jmh, e.getValue(), provider);
            if (m.isEmpty()) {
                continue;
            }
            c.addSeries(e.getKey(), new ArrayList<>(m.keySet()), new ArrayList<>(m.values()));
            series++;
        }
        return series == 0 ? List.of() : List.of(save(c, dir, "jmh-verify-depth"));
    }

    /** Document size against depth, per mode (spiffeidt.document.size of the run). */
    static List<String> sizes(Report r, Path dir) {
        XYChart c = new XYChartBuilder()
                .width(800)
                .height(450)
                .title("Document size against depth")
                .xAxisTitle("depth (layers)")
                .yAxisTitle("bytes")
                .build();
        int series = 0;
        for (var e : r.documentSizes().entrySet()) {
            if (e.getValue().isEmpty()) {
                continue;
            }
            c.addSeries(
                    e.getKey(),
                    new ArrayList<>(e.getValue().keySet()),
                    new ArrayList<>(e.getValue().values()));
            series++;
        }
        return series == 0 ? List.of() : List.of(save(c, dir, "size-depth"));
    }

    static String save(Chart<?, ?> chart, Path dir, String name) {
        try {
            BitmapEncoder.saveBitmap(chart, dir.resolve(name).toString(), BitmapEncoder.BitmapFormat.PNG);
            return name + ".png";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
