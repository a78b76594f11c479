package io.spiffeidt.support.metrics;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * The bytes on the wire of one request's downstream calls, for the {@code Wire-Bytes} response
 * header, the sibling of {@link ServerTiming}'s {@code Server-Timing} (docs/operations.md "Bytes on
 * the wire"): one entry per call this workload made while handling the request, named by the
 * downstream ({@code m-tier}), and every downstream's entries with the downstream's name as prefix
 * ({@code m-tier.target-wl}), so that the first tier's answer carries every hop of the call tree.
 *
 * <p>An entry is {@code <hop>;desc="<path>";sent=<n>;received=<n>[;document=<n>]}, in the syntax of
 * {@code Server-Timing} (RFC 9110 tokens, {@code desc} a quoted string): {@code sent} is the HTTP/1.1
 * request as written on the connection (request line, headers, body), {@code received} the answer as
 * read from it (status line, headers, body, chunk framing), both inside TLS (no record overhead, no
 * handshake); {@code document} the characters of the document the request carried ({@code
 * DocumentRequest}'s token and artifacts, or the Txn-Token or access token a baseline carries in a
 * header), absent when it carried none (mtls-only's user header is no document).
 *
 * <p>One instance is bound to the thread that handles a request by {@link ServerTimingFilter} (so
 * {@code spiffeidt.server-timing.enabled} switches both headers); {@link #current()} is {@code null}
 * elsewhere and recording is then a no-op. Thread safety: the recording methods are thread safe.
 */
public final class WireBytes {

    /** The response header. */
    public static final String HEADER = "Wire-Bytes";

    /** Entries kept per request; a deeper tree is cut (the metrics still have everything). */
    static final int MAX_ENTRIES = 100;

    /** Longest downstream header read. */
    static final int MAX_HEADER_CHARS = 16 * 1024;

    private static final ThreadLocal<WireBytes> CURRENT = new ThreadLocal<>();

    /**
     * One call.
     *
     * @param hop the downstream, prefixed by the workloads the answer came through ({@code
     *     m-tier.target-wl}: m-tier's call to target-wl)
     * @param path the path of the call ({@code /dvid/introspect})
     * @param sent request bytes
     * @param received answer bytes
     * @param document characters of the document the request carried, -1 for none
     */
    public record Entry(String hop, String path, long sent, long received, long document) {}

    private final List<Entry> entries = new ArrayList<>();

    private WireBytes() {}

    /** Starts the entries of a request received now and binds them to this thread. */
    public static WireBytes begin() {
        WireBytes bytes = new WireBytes();
        CURRENT.set(bytes);
        return bytes;
    }

    /** Unbinds the entries of this thread. */
    public static void end() {
        CURRENT.remove();
    }

    /** The entries of the request this thread handles, or {@code null}. */
    public static WireBytes current() {
        return CURRENT.get();
    }

    /** Records one call of this workload to {@code downstream}; no-op without bound entries. */
    public static void recordCall(String downstream, String path, long sent, long received, long document) {
        WireBytes bytes = CURRENT.get();
        if (bytes != null) {
            bytes.add(new Entry(downstream, path, sent, received, document));
        }
    }

    /**
     * Adds a downstream's {@code Wire-Bytes} header values, each entry renamed {@code
     * <downstream>.<hop>}. Malformed entries are skipped; no-op without bound entries.
     */
    public static void recordDownstream(String downstream, List<String> headerValues) {
        WireBytes bytes = CURRENT.get();
        if (bytes == null || headerValues == null || headerValues.isEmpty()) {
            return;
        }
        int chars = 0;
        for (String value : headerValues) {
            chars += value.length();
            if (chars > MAX_HEADER_CHARS) {
                return;
            }
            for (Entry e : parse(value)) {
                bytes.add(new Entry(downstream + "." + e.hop(), e.path(), e.sent(), e.received(), e.document()));
            }
        }
    }

    private synchronized void add(Entry entry) {
        if (entries.size() < MAX_ENTRIES && ServerTiming.isName(entry.hop()) && isPath(entry.path())) {
            entries.add(entry);
        }
    }

    /** The entries so far, in recording order. */
    public synchronized List<Entry> entries() {
        return Collections.unmodifiableList(new ArrayList<>(entries));
    }

    /** The header value, or an empty string when no call was made. */
    public synchronized String headerValue() {
        StringBuilder sb = new StringBuilder();
        for (Entry e : entries) {
            if (!sb.isEmpty()) {
                sb.append(", ");
            }
            sb.append(e.hop())
                    .append(";desc=\"")
                    .append(e.path())
                    .append("\";sent=")
                    .append(e.sent())
                    .append(";received=")
                    .append(e.received());
            if (e.document() >= 0) {
                sb.append(";document=").append(e.document());
            }
        }
        return sb.toString();
    }

    /**
     * Reads one {@code Wire-Bytes} header value. Entries without a valid hop name or path are
     * skipped; a missing or unreadable number counts as 0 ({@code document}: -1).
     */
    public static List<Entry> parse(String headerValue) {
        List<Entry> out = new ArrayList<>();
        if (headerValue == null) {
            return out;
        }
        // paths hold no comma, semicolon or quote (isPath), so plain splitting is exact
        for (String item : headerValue.split(",")) {
            String[] parts = item.split(";");
            String hop = parts[0].trim();
            String path = "";
            long sent = 0;
            long received = 0;
            long document = -1;
            for (int i = 1; i < parts.length; i++) {
                String p = parts[i].trim();
                int eq = p.indexOf('=');
                if (eq < 0) {
                    continue;
                }
                String key = p.substring(0, eq).trim().toLowerCase(Locale.ROOT);
                String value = p.substring(eq + 1).trim();
                switch (key) {
                    case "desc" ->
                        path = value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")
                                ? value.substring(1, value.length() - 1)
                                : value;
                    case "sent" -> sent = number(value, 0);
                    case "received" -> received = number(value, 0);
                    case "document" -> document = number(value, -1);
                    default -> {
                        // an extension parameter of a newer version: ignored
                    }
                }
            }
            if (ServerTiming.isName(hop) && isPath(path)) {
                out.add(new Entry(hop, path, sent, received, document));
            }
            if (out.size() >= MAX_ENTRIES) {
                break;
            }
        }
        return out;
    }

    /** An absolute path of printable ASCII without quote, backslash, comma or semicolon, up to 200. */
    static boolean isPath(String path) {
        int n = path.length();
        if (n == 0 || n > 200 || path.charAt(0) != '/') {
            return false;
        }
        for (int i = 0; i < n; i++) {
            char c = path.charAt(i);
            if (c <= ' ' || c >= 127 || c == '"' || c == '\\' || c == ',' || c == ';') {
                return false;
            }
        }
        return true;
    }

    private static long number(String text, long otherwise) {
        try {
            long n = Long.parseLong(text);
            return n >= 0 ? n : otherwise;
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }
}
