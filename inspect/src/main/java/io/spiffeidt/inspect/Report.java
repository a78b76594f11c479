package io.spiffeidt.inspect;

import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the inspector shows about one document, printed as tables or as JSON from the same data:
 * the format and size, format-level details (a DVID header, the artifacts, the bundle), each layer
 * (outermost first), the verification outcome and notes. Values are strings, numbers, booleans,
 * lists and nested maps; nothing here ever holds a private key, a token or a certificate.
 */
final class Report {

    private static final JsonMapper JSON =
            JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    final Map<String, Object> document = new LinkedHashMap<>();
    final Map<String, Object> details = new LinkedHashMap<>();
    final List<Map<String, Object>> layers = new ArrayList<>();
    Map<String, Object> verification;
    final List<String> notes = new ArrayList<>();

    /** The JSON form; times are ISO-8601 UTC strings. */
    String toJson() {
        Map<String, Object> root = new LinkedHashMap<>(document);
        if (!details.isEmpty()) {
            root.put("details", details);
        }
        root.put("layers", layers);
        if (verification != null) {
            root.put("verification", verification);
        }
        root.put("notes", notes);
        return JSON.writeValueAsString(jsonValue(root));
    }

    private static Object jsonValue(Object v) {
        if (v instanceof Instant t) {
            return t.toString();
        }
        if (v instanceof Map<?, ?> m) {
            Map<Object, Object> out = new LinkedHashMap<>();
            m.forEach((k, x) -> out.put(k, jsonValue(x)));
            return out;
        }
        if (v instanceof List<?> l) {
            List<Object> out = new ArrayList<>();
            l.forEach(x -> out.add(jsonValue(x)));
            return out;
        }
        return v;
    }

    /** A time in a table: ISO-8601 UTC and epoch seconds. */
    private static String shown(Object v) {
        return v instanceof Instant t ? t + " (" + t.getEpochSecond() + ")" : String.valueOf(v);
    }

    /** Prints the tables. */
    void printTables(PrintStream out) {
        out.println(document.get("formatName") + " (" + document.get("format") + ")");
        Map<String, Object> summary = new LinkedHashMap<>(document);
        summary.remove("formatName");
        summary.remove("format");
        table(out, "Document", summary);
        if (!details.isEmpty()) {
            table(out, "Details", details);
        }
        for (Map<String, Object> layer : layers) {
            Map<String, Object> rows = new LinkedHashMap<>(layer);
            Object title = rows.remove("title");
            table(out, String.valueOf(title), rows);
        }
        if (verification != null) {
            table(out, "Verification", verification);
            out.println("Verdict: " + verdictLine());
        }
        for (String note : notes) {
            out.println("note: " + note);
        }
    }

    private String verdictLine() {
        if ("valid".equals(verification.get("verdict"))) {
            return "VALID";
        }
        Object code = verification.get("code");
        return "INVALID" + (code == null ? "" : " (" + code + ")");
    }

    private static void table(PrintStream out, String title, Map<String, Object> values) {
        Map<String, String> rows = new LinkedHashMap<>();
        flatten("", values, rows);
        int kw = title.length();
        int vw = 1;
        for (Map.Entry<String, String> e : rows.entrySet()) {
            kw = Math.max(kw, e.getKey().length());
            vw = Math.max(vw, e.getValue().length());
        }
        String rule = "+" + "-".repeat(kw + 2) + "+" + "-".repeat(vw + 2) + "+";
        out.println(rule);
        out.println("| " + pad(title, kw) + " | " + pad("", vw) + " |");
        out.println(rule);
        for (Map.Entry<String, String> e : rows.entrySet()) {
            out.println("| " + pad(e.getKey(), kw) + " | " + pad(e.getValue(), vw) + " |");
        }
        out.println(rule);
    }

    @SuppressWarnings("unchecked")
    private static void flatten(String prefix, Map<String, Object> values, Map<String, String> rows) {
        for (Map.Entry<String, Object> e : values.entrySet()) {
            String key = prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey();
            Object v = e.getValue();
            if (v instanceof Map<?, ?> m) {
                flatten(key, (Map<String, Object>) m, rows);
            } else if (v instanceof List<?> list) {
                if (list.isEmpty()) {
                    rows.put(key, "(none)");
                }
                for (int i = 0; i < list.size(); i++) {
                    Object item = list.get(i);
                    if (item instanceof Map<?, ?> m) {
                        flatten(key + "[" + i + "]", (Map<String, Object>) m, rows);
                    } else {
                        rows.put(key + "[" + i + "]", shown(item));
                    }
                }
            } else if (v != null) {
                rows.put(key, shown(v));
            }
        }
    }

    private static String pad(String s, int width) {
        return s + " ".repeat(Math.max(0, width - s.length()));
    }
}
