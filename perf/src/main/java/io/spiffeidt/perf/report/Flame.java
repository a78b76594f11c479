package io.spiffeidt.perf.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where the CPU goes: the execution samples of a JFR recording ({@code jdk.ExecutionSample}),
 * folded into stacks under the workload whose thread ran them, drawn as an SVG flame graph, and the
 * methods that were on CPU most often (self samples) per workload.
 *
 * <p>Thread safety: instances are immutable after {@link #read}.
 */
final class Flame {

    /** Folded stacks, root first ({@code workload;frame;...;leaf}), to sample counts. */
    private final Map<String, Long> folded;

    private Flame(Map<String, Long> folded) {
        this.folded = folded;
    }

    long samples() {
        return folded.values().stream().mapToLong(Long::longValue).sum();
    }

    Map<String, Long> folded() {
        return folded;
    }

    /**
     * Reads the execution samples of a recording.
     *
     * @param workloadOfThread the workload a thread's name belongs to ({@code shared} for GC, JIT, ...)
     */
    static Flame read(Path jfr, Function<String, String> workloadOfThread) {
        Map<String, Long> folded = new TreeMap<>();
        try (RecordingFile f = new RecordingFile(jfr)) {
            while (f.hasMoreEvents()) {
                RecordedEvent e = f.readEvent();
                if (!e.getEventType().getName().equals("jdk.ExecutionSample")) {
                    continue;
                }
                RecordedStackTrace st = e.getStackTrace();
                if (st == null) {
                    continue;
                }
                String thread = e.getThread("sampledThread") == null
                        ? "?"
                        : String.valueOf(e.getThread("sampledThread").getJavaName());
                List<RecordedFrame> frames = st.getFrames();
                StringBuilder sb = new StringBuilder(workloadOfThread.apply(thread));
                for (int i = frames.size() - 1; i >= 0; i--) {
                    RecordedFrame fr = frames.get(i);
                    sb.append(';').append(frameName(fr));
                }
                folded.merge(sb.toString(), 1L, Long::sum);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + jfr, e);
        }
        return new Flame(folded);
    }

    private static String frameName(RecordedFrame fr) {
        if (fr.getMethod() == null) {
            return "?";
        }
        String type = fr.getMethod().getType() == null
                ? "?"
                : fr.getMethod().getType().getName();
        return (type + "." + fr.getMethod().getName()).replace(';', ':');
    }

    /**
     * The methods most often on CPU (the leaf frame of a sample) per workload, each with its share of that
     * workload's samples: workload to {@code method (percent)} lines, {@code limit} per workload.
     */
    Map<String, List<String>> topSelf(int limit) {
        Map<String, Map<String, Long>> byWorkload = new TreeMap<>();
        Map<String, Long> totals = new TreeMap<>();
        folded.forEach((stack, n) -> {
            String[] frames = stack.split(";");
            String w = frames[0];
            String leaf = frames[frames.length - 1];
            byWorkload.computeIfAbsent(w, k -> new TreeMap<>()).merge(leaf, n, Long::sum);
            totals.merge(w, n, Long::sum);
        });
        Map<String, List<String>> out = new LinkedHashMap<>();
        byWorkload.forEach((w, m) -> out.put(
                w,
                m.entrySet().stream()
                        .sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder())
                                .thenComparing(Map.Entry.comparingByKey()))
                        .limit(limit)
                        .map(e -> String.format(
                                Locale.ROOT, "%s (%.1f %%)", e.getKey(), 100.0 * e.getValue() / totals.get(w)))
                        .toList()));
        return out;
    }

    /** Share of each workload in the samples (percent). */
    Map<String, Double> shares() {
        Map<String, Double> out = new TreeMap<>();
        long total = samples();
        folded.forEach((stack, n) -> out.merge(
                stack.substring(0, stack.indexOf(';') < 0 ? stack.length() : stack.indexOf(';')),
                100.0 * n / total,
                Double::sum));
        return out;
    }

    // ---------------------------------------------------------------- the SVG

    private static final int ROW = 16;
    private static final int WIDTH = 1200;

    /** A node of the merged call tree. */
    private static final class Node {
        final String name;
        final Map<String, Node> children = new LinkedHashMap<>();
        long count;

        Node(String name) {
            this.name = name;
        }
    }

    /** The flame graph: the root is all samples, each row a frame deeper, width proportional to samples. */
    String svg(String title) {
        Node root = new Node("all");
        folded.forEach((stack, n) -> {
            Node at = root;
            at.count += n;
            for (String frame : stack.split(";")) {
                at = at.children.computeIfAbsent(frame, Node::new);
                at.count += n;
            }
        });
        int depth = depth(root);
        int height = (depth + 2) * ROW + 30;
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(
                Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"monospace\""
                        + " font-size=\"11\">\n<text x=\"4\" y=\"16\" font-size=\"14\">%s (%d samples)</text>\n",
                WIDTH,
                height,
                esc(title),
                root.count));
        if (root.count > 0) {
            draw(sb, root, 0, WIDTH, height - ROW - 4, root.count);
        }
        return sb.append("</svg>\n").toString();
    }

    private static int depth(Node n) {
        int d = 0;
        for (Node c : n.children.values()) {
            d = Math.max(d, depth(c));
        }
        return d + 1;
    }

    private static void draw(StringBuilder sb, Node n, double x, double w, int y, long total) {
        if (w < 0.3) {
            return;
        }
        int hue = Math.abs(n.name.hashCode()) % 60;
        String fill = n.name.startsWith("io.spiffeidt")
                ? "rgb(80,160," + (150 + hue) + ")"
                : "rgb(230," + (100 + hue * 2) + ",60)";
        sb.append(String.format(
                Locale.ROOT,
                "<g><title>%s: %d samples (%.2f %%)</title><rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\""
                        + " fill=\"%s\" stroke=\"white\" stroke-width=\"0.3\"/>",
                esc(n.name),
                n.count,
                100.0 * n.count / total,
                x,
                y,
                w,
                ROW - 1,
                fill));
        int chars = (int) (w / 7);
        if (chars > 3) {
            String label = n.name.length() > chars ? n.name.substring(0, chars - 2) + ".." : n.name;
            sb.append(
                    String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\">%s</text>", x + 2, y + ROW - 4, esc(label)));
        }
        sb.append("</g>\n");
        double cx = x;
        List<Node> kids = new ArrayList<>(n.children.values());
        kids.sort(Comparator.comparing(k -> k.name));
        for (Node c : kids) {
            double cw = w * c.count / n.count;
            draw(sb, c, cx, cw, y - ROW, total);
            cx += cw;
        }
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    /** Writes the SVG into {@code dir}; returns its file name. */
    String write(Path dir, String name, String title) {
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve(name + ".svg"), svg(title));
            return name + ".svg";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
