package io.spiffeidt.perf.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes {@code index.html}, {@code report.md} and the plots from the runs' data (docs/measurement.md).
 * Runs at the end of {@code ./mvnw -pl perf gatling:test}; alone: {@code java -cp ...
 * io.spiffeidt.perf.report.ReportMain [data-dir [report-dir [jmh-results.json]]]} (defaults {@code
 * target/runs}, {@code target/report}, {@code target/jmh/results.json}). The data directory is one run,
 * or holds one run per deployment label ({@code runs/embedded}, {@code runs/compose}, ...).
 */
public final class ReportMain {

    private ReportMain() {}

    public static void main(String[] args) {
        Path data = Path.of(args.length > 0 ? args[0] : "target/runs");
        Path out = Path.of(args.length > 1 ? args[1] : "target/report");
        Path jmh = Path.of(args.length > 2 ? args[2] : "target/jmh/results.json");
        Path index = generate(data, out, Files.exists(jmh) ? jmh : null);
        System.out.println("report: " + index.toAbsolutePath());
    }

    /** Generates the report; returns the path of index.html. */
    public static Path generate(Path dataDir, Path outDir, Path jmhResults) {
        Report r = new Report(PerfData.loadAll(dataDir, Report.deploymentOrder()), Jmh.load(jmhResults)).compute();
        try {
            Files.createDirectories(outDir);
            List<String> plots = new ArrayList<>(Charts.all(r, outDir));
            // the capacity profile's runs beside (target/capacity), when there are any
            Capacity capacity = Capacity.load(dataDir.resolveSibling("capacity"), 100);
            if (!capacity.isEmpty()) {
                r.tables.addAll(capacity.tables());
                plots.addAll(capacity.plots(outDir));
            }
            StringBuilder md = new StringBuilder("# SPIFFE-IdT measurement report\n\n");
            md.append("Thesis figures: ").append(Report.thesisSource()).append("\n\n");
            md.append("## Headline claims\n\n");
            r.statements.forEach(s -> md.append("- ").append(s).append('\n'));
            md.append('\n');
            r.tables.forEach(t -> md.append(t.markdown()));
            md.append("## Plots\n\n");
            plots.forEach(p -> md.append("![").append(p).append("](").append(p).append(")\n\n"));
            Files.writeString(outDir.resolve("report.md"), md.toString(), StandardCharsets.UTF_8);

            StringBuilder html = new StringBuilder(
                    "<!doctype html><html><head><meta charset=\"utf-8\"><title>SPIFFE-IdT measurement report</title>"
                            + "<style>body{font-family:sans-serif;margin:2em;max-width:1200px}table{border-collapse:collapse;"
                            + "margin-bottom:1em}td,th{border:1px solid #bbb;padding:2px 6px;font-size:90%}"
                            + "th{background:#eee}img{max-width:100%}</style></head><body>\n");
            html.append("<h1>SPIFFE-IdT measurement report</h1>\n<p>Thesis figures: ")
                    .append(Table.esc(Report.thesisSource()))
                    .append("</p>\n<h2>Headline claims</h2>\n<ul>\n");
            r.statements.forEach(s -> html.append("<li>").append(Table.esc(s)).append("</li>\n"));
            html.append("</ul>\n");
            r.tables.forEach(t -> html.append(t.html()));
            html.append("<h2>Plots</h2>\n");
            plots.forEach(p -> html.append("<p><img src=\"")
                    .append(p)
                    .append("\" alt=\"")
                    .append(p)
                    .append("\"></p>\n"));
            html.append("</body></html>\n");
            Path index = outDir.resolve("index.html");
            Files.writeString(index, html.toString(), StandardCharsets.UTF_8);
            return index;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
