package io.spiffeidt.perf.report;

import java.util.ArrayList;
import java.util.List;

/** A titled table rendered as Markdown and HTML. */
record Table(String title, List<String> head, List<List<String>> rows, String note) {

    static Table of(String title, String note, String... head) {
        return new Table(title, List.of(head), new ArrayList<>(), note);
    }

    Table row(Object... cells) {
        List<String> r = new ArrayList<>();
        for (Object c : cells) {
            r.add(String.valueOf(c));
        }
        rows.add(r);
        return this;
    }

    String markdown() {
        StringBuilder sb = new StringBuilder("### ").append(title).append("\n\n");
        if (note != null && !note.isEmpty()) {
            sb.append(note).append("\n\n");
        }
        sb.append("| ").append(String.join(" | ", head)).append(" |\n|");
        head.forEach(h -> sb.append("---|"));
        sb.append('\n');
        for (List<String> r : rows) {
            sb.append("| ").append(String.join(" | ", r)).append(" |\n");
        }
        return sb.append('\n').toString();
    }

    String html() {
        StringBuilder sb = new StringBuilder("<h3>").append(esc(title)).append("</h3>\n");
        if (note != null && !note.isEmpty()) {
            sb.append("<p>").append(esc(note)).append("</p>\n");
        }
        sb.append("<table><tr>");
        head.forEach(h -> sb.append("<th>").append(esc(h)).append("</th>"));
        sb.append("</tr>\n");
        for (List<String> r : rows) {
            sb.append("<tr>");
            r.forEach(c -> sb.append("<td>").append(esc(c)).append("</td>"));
            sb.append("</tr>\n");
        }
        return sb.append("</table>\n").toString();
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
