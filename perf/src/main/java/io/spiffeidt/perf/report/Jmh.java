package io.spiffeidt.perf.report;

import com.nimbusds.jose.util.JSONArrayUtils;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** JMH's JSON results ({@code -rf json}), reduced to benchmark, params and score. */
final class Jmh {

    /** One result: {@code benchmark} is {@code Class.method} (no package). */
    record Result(String benchmark, Map<String, String> params, double score, String unit) {}

    private Jmh() {}

    @SuppressWarnings("unchecked")
    static List<Result> load(Path file) {
        if (file == null || !Files.exists(file)) {
            return List.of();
        }
        try {
            List<Object> array = JSONArrayUtils.parse(Files.readString(file));
            List<Result> out = new ArrayList<>();
            for (Object o : array) {
                Map<String, Object> m = (Map<String, Object>) o;
                String full = (String) m.get("benchmark");
                String[] parts = full.split("\\.");
                String name = parts.length >= 2 ? parts[parts.length - 2] + "." + parts[parts.length - 1] : full;
                Map<String, String> params = new TreeMap<>();
                Object p = m.get("params");
                if (p instanceof Map<?, ?> pm) {
                    pm.forEach((k, v) -> params.put(String.valueOf(k), String.valueOf(v)));
                }
                Map<String, Object> primary = (Map<String, Object>) m.get("primaryMetric");
                out.add(new Result(
                        name,
                        params,
                        ((Number) primary.get("score")).doubleValue(),
                        String.valueOf(primary.get("scoreUnit"))));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (java.text.ParseException e) {
            throw new IllegalArgumentException("not JMH JSON: " + file, e);
        }
    }

    /** The score (µs/op) of a benchmark with this provider (when it has one) and depth (when given). */
    static Double score(List<Result> results, String benchmark, String provider, Integer depth) {
        for (Result r : results) {
            if (!r.benchmark().equals(benchmark)) {
                continue;
            }
            if (r.params().containsKey("provider")
                    && !r.params().get("provider").equals(provider)) {
                continue;
            }
            if (depth != null && !String.valueOf(depth).equals(r.params().get("depth"))) {
                continue;
            }
            return toMicros(r);
        }
        return null;
    }

    /**
     * The summed score (µs) of {@code spec}: {@code Benchmark[@depth][ xN]}, comma separated (as
     * mapping.properties {@code crypto.<mode>}); null when one of them has no result.
     */
    static Double sumMicros(List<Result> results, String spec, String provider) {
        double total = 0;
        for (String item : spec.split("\\s*,\\s*")) {
            String s = item.trim();
            int times = 1;
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
            Double us = score(results, s, provider, depth);
            if (us == null) {
                return null;
            }
            total += times * us;
        }
        return total;
    }

    static double toMicros(Result r) {
        return switch (r.unit()) {
            case "ns/op" -> r.score() / 1000;
            case "ms/op" -> r.score() * 1000;
            case "s/op" -> r.score() * 1e6;
            default -> r.score();
        };
    }

    /** Score (µs) by depth of one benchmark and provider. */
    static TreeMap<Integer, Double> byDepth(List<Result> results, String benchmark, String provider) {
        TreeMap<Integer, Double> m = new TreeMap<>();
        for (Result r : results) {
            if (r.benchmark().equals(benchmark)
                    && r.params().containsKey("depth")
                    && provider.equals(r.params().getOrDefault("provider", provider))) {
                m.put(Integer.parseInt(r.params().get("depth")), toMicros(r));
            }
        }
        return m;
    }

    /** Least squares y = a x + b: {slope, intercept, R²}. */
    static double[] fit(TreeMap<Integer, Double> points) {
        int n = points.size();
        double sx = 0, sy = 0, sxx = 0, sxy = 0;
        for (var e : points.entrySet()) {
            double x = e.getKey(), y = e.getValue();
            sx += x;
            sy += y;
            sxx += x * x;
            sxy += x * y;
        }
        double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
        double intercept = (sy - slope * sx) / n;
        double mean = sy / n;
        double ssTot = 0, ssRes = 0;
        for (var e : points.entrySet()) {
            double pred = slope * e.getKey() + intercept;
            ssRes += Math.pow(e.getValue() - pred, 2);
            ssTot += Math.pow(e.getValue() - mean, 2);
        }
        return new double[] {slope, intercept, ssTot == 0 ? 1 : 1 - ssRes / ssTot};
    }
}
