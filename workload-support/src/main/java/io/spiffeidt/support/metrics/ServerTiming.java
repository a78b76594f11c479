package io.spiffeidt.support.metrics;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * The timings of one request for the standard {@code Server-Timing} response header (W3C Server
 * Timing): the workload's own operations (the {@link Operation} tag values, recorded by {@link
 * OperationMetrics}), a {@code total} for the whole handling, and every downstream's entries with
 * the downstream's name as prefix ({@code m-tier.validate}, {@code m-tier.target-wl.db_query}), so
 * that the first tier's answer carries the whole call tree.
 *
 * <p>Every entry has {@code dur} (milliseconds) and the extension parameter {@code start}: its
 * start in milliseconds after this workload received the request (a downstream's entries are
 * shifted by the start of the call that reached it, so network time shows as the gap between a
 * {@code *_call} and the downstream's {@code total}). Browsers' developer tools show {@code dur};
 * the subject workload's page draws the waterfall from both.
 *
 * <p>One instance is bound to the thread that handles a request by {@link ServerTimingFilter};
 * {@link #current()} is {@code null} elsewhere, and recording is then a no-op. Thread safety: the
 * recording methods are thread safe.
 */
public final class ServerTiming {

    /** The response header. */
    public static final String HEADER = "Server-Timing";

    /** The entry covering the whole handling of the request. */
    public static final String TOTAL = "total";

    /** Entries kept per request; a deeper tree is cut (the metrics still have everything). */
    static final int MAX_ENTRIES = 200;

    /** Longest downstream header read. */
    static final int MAX_HEADER_CHARS = 32 * 1024;

    /** Longest metric name kept. */
    static final int MAX_NAME_CHARS = 200;

    /** The characters of an RFC 9110 token ({@code tchar}), by ASCII code. */
    private static final boolean[] TCHAR = new boolean[128];

    static {
        for (char c : "!#$%&'*+-.^_`|~".toCharArray()) {
            TCHAR[c] = true;
        }
        for (char c = '0'; c <= '9'; c++) {
            TCHAR[c] = true;
        }
        for (char c = 'A'; c <= 'Z'; c++) {
            TCHAR[c] = true;
            TCHAR[Character.toLowerCase(c)] = true;
        }
    }

    private static final ThreadLocal<ServerTiming> CURRENT = new ThreadLocal<>();

    /**
     * One entry.
     *
     * @param name the metric name, a header token
     * @param startMillis start after the request was received, in milliseconds
     * @param durationMillis duration in milliseconds
     */
    public record Entry(String name, double startMillis, double durationMillis) {}

    private final long startNanos;
    private final List<Entry> entries = new ArrayList<>();

    private ServerTiming(long startNanos) {
        this.startNanos = startNanos;
    }

    /** Starts the timings of a request received now and binds them to this thread. */
    public static ServerTiming begin() {
        ServerTiming timing = new ServerTiming(System.nanoTime());
        CURRENT.set(timing);
        return timing;
    }

    /** Unbinds the timings of this thread. */
    public static void end() {
        CURRENT.remove();
    }

    /** The timings of the request this thread handles, or {@code null}. */
    public static ServerTiming current() {
        return CURRENT.get();
    }

    /** Records an operation of this workload that took {@code nanos} and ended now. */
    static void recordOperation(String name, long nanos) {
        ServerTiming timing = CURRENT.get();
        if (timing != null) {
            long end = System.nanoTime();
            timing.add(new Entry(name, timing.millisSinceStart(end - nanos), nanos / 1e6));
        }
    }

    /**
     * Adds a downstream's {@code Server-Timing} header values, each entry renamed {@code
     * <downstream>.<name>} and shifted by the start of the call ({@code callStartNanos}, from {@link
     * System#nanoTime()}). Malformed entries are skipped; no-op without bound timings.
     */
    public static void recordDownstream(String downstream, long callStartNanos, List<String> headerValues) {
        ServerTiming timing = CURRENT.get();
        if (timing == null || headerValues == null || headerValues.isEmpty()) {
            return;
        }
        double shift = timing.millisSinceStart(callStartNanos);
        int chars = 0;
        for (String value : headerValues) {
            chars += value.length();
            if (chars > MAX_HEADER_CHARS) {
                return;
            }
            for (Entry e : parse(value)) {
                timing.add(new Entry(downstream + "." + e.name(), shift + e.startMillis(), e.durationMillis()));
            }
        }
    }

    private synchronized void add(Entry entry) {
        if (entries.size() < MAX_ENTRIES && isName(entry.name())) {
            entries.add(entry);
        }
    }

    private double millisSinceStart(long nanos) {
        return Math.max(0, nanos - startNanos) / 1e6;
    }

    /** The entries so far, in recording order (without {@code total}). */
    public synchronized List<Entry> entries() {
        return Collections.unmodifiableList(new ArrayList<>(entries));
    }

    /** The header value: {@code total} up to now, then every entry. */
    public synchronized String headerValue() {
        StringBuilder sb = new StringBuilder();
        append(sb, new Entry(TOTAL, 0, millisSinceStart(System.nanoTime())));
        for (Entry e : entries) {
            sb.append(", ");
            append(sb, e);
        }
        return sb.toString();
    }

    private static void append(StringBuilder sb, Entry e) {
        sb.append(e.name()).append(";dur=");
        appendMillis(sb, e.durationMillis());
        sb.append(";start=");
        appendMillis(sb, e.startMillis());
    }

    /**
     * Appends {@code millis} with three decimals (to the nearest microsecond), as {@code
     * String.format(Locale.ROOT, "%.3f", millis)} writes it away from exact ties, without its cost (a
     * formatter per number was about 5 % of a workload's CPU). A value that is not finite or beyond
     * 10^12 ms is written as 0.000.
     */
    static void appendMillis(StringBuilder sb, double millis) {
        if (!(Math.abs(millis) < 1e12)) {
            sb.append("0.000");
            return;
        }
        long micros = Math.round(Math.abs(millis) * 1000);
        if (millis < 0 && micros != 0) {
            sb.append('-');
        }
        sb.append(micros / 1000).append('.');
        long fraction = micros % 1000;
        if (fraction < 100) {
            sb.append('0');
        }
        if (fraction < 10) {
            sb.append('0');
        }
        sb.append(fraction);
    }

    /**
     * Reads one {@code Server-Timing} header value: comma-separated {@code name;param=value…}
     * entries. Entries without a valid name are skipped; a missing or unreadable {@code dur} or
     * {@code start} counts as 0.
     */
    public static List<Entry> parse(String headerValue) {
        List<Entry> out = new ArrayList<>();
        if (headerValue == null) {
            return out;
        }
        for (String item : headerValue.split(",")) {
            String[] parts = item.split(";");
            String name = parts[0].trim();
            if (!isName(name)) {
                continue;
            }
            double dur = 0;
            double start = 0;
            for (int i = 1; i < parts.length; i++) {
                String p = parts[i].trim();
                int eq = p.indexOf('=');
                if (eq < 0) {
                    continue;
                }
                String key = p.substring(0, eq).trim().toLowerCase(Locale.ROOT);
                double number = number(p.substring(eq + 1).trim());
                if (key.equals("dur")) {
                    dur = number;
                } else if (key.equals("start")) {
                    start = number;
                }
            }
            out.add(new Entry(name, start, dur));
            if (out.size() >= MAX_ENTRIES) {
                break;
            }
        }
        return out;
    }

    /**
     * Whether {@code name} can be a metric name: 1 to {@link #MAX_NAME_CHARS} token characters (a
     * loop, not a regular expression: every entry of every downstream header is checked).
     */
    static boolean isName(String name) {
        int n = name.length();
        if (n == 0 || n > MAX_NAME_CHARS) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            char c = name.charAt(i);
            if (c >= TCHAR.length || !TCHAR[c]) {
                return false;
            }
        }
        return true;
    }

    private static double number(String text) {
        try {
            double d = Double.parseDouble(text);
            return Double.isFinite(d) && d >= 0 ? d : 0;
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
