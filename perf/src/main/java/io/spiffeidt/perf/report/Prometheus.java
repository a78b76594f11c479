package io.spiffeidt.perf.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One Prometheus text exposition, parsed into samples (name, labels, value). Only what the report
 * needs: sums of matching samples, and the difference of two scrapes.
 */
record Prometheus(List<Sample> samples) {

    /** One sample line. */
    record Sample(String name, Map<String, String> labels, double value) {
        boolean matches(String n, Map<String, String> want) {
            if (!name.equals(n)) {
                return false;
            }
            for (var e : want.entrySet()) {
                if (!e.getValue().equals(labels.get(e.getKey()))) {
                    return false;
                }
            }
            return true;
        }
    }

    static final Prometheus EMPTY = new Prometheus(List.of());

    static Prometheus parse(String text) {
        List<Sample> out = new ArrayList<>();
        for (String raw : text.split("\n")) {
            String line = raw.trim();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String name;
            Map<String, String> labels = new LinkedHashMap<>();
            String rest;
            int brace = line.indexOf('{');
            int space = line.indexOf(' ');
            if (brace >= 0 && (space < 0 || brace < space)) {
                name = line.substring(0, brace);
                int i = brace + 1;
                while (i < line.length() && line.charAt(i) != '}') {
                    int eq = line.indexOf('=', i);
                    String key = line.substring(i, eq).trim();
                    int q = eq + 2; // after ="
                    StringBuilder v = new StringBuilder();
                    while (line.charAt(q) != '"') {
                        if (line.charAt(q) == '\\') {
                            q++;
                        }
                        v.append(line.charAt(q++));
                    }
                    labels.put(key, v.toString());
                    i = q + 1;
                    if (i < line.length() && line.charAt(i) == ',') {
                        i++;
                    }
                }
                rest = line.substring(i + 1).trim();
            } else {
                name = line.substring(0, space);
                rest = line.substring(space + 1).trim();
            }
            String value = rest.split("\\s+")[0];
            double d =
                    switch (value) {
                        case "+Inf" -> Double.POSITIVE_INFINITY;
                        case "-Inf" -> Double.NEGATIVE_INFINITY;
                        case "NaN" -> Double.NaN;
                        default -> Double.parseDouble(value);
                    };
            out.add(new Sample(name, Map.copyOf(labels), d));
        }
        return new Prometheus(List.copyOf(out));
    }

    /** The sum of every sample of {@code name} whose labels include {@code labels}. */
    double sum(String name, Map<String, String> labels) {
        double s = 0;
        for (Sample x : samples) {
            if (x.matches(name, labels)) {
                s += x.value();
            }
        }
        return s;
    }

    /** The distinct values of one label among the samples of {@code name} matching {@code labels}. */
    List<String> labelValues(String name, String label, Map<String, String> labels) {
        List<String> out = new ArrayList<>();
        for (Sample x : samples) {
            if (x.matches(name, labels)
                    && x.labels().containsKey(label)
                    && !out.contains(x.labels().get(label))) {
                out.add(x.labels().get(label));
            }
        }
        return out;
    }

    /** Cumulative histogram buckets (upper bound to count) of {@code name_bucket} matching labels. */
    TreeMap<Double, Double> buckets(String name, Map<String, String> labels) {
        TreeMap<Double, Double> b = new TreeMap<>();
        for (Sample x : samples) {
            if (x.matches(name + "_bucket", labels) && x.labels().containsKey("le")) {
                String le = x.labels().get("le");
                double bound = le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le);
                b.merge(bound, x.value(), Double::sum);
            }
        }
        return b;
    }
}
