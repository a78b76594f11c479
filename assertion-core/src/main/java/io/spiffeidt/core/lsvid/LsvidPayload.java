package io.spiffeidt.core.lsvid;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The claims of one LSVID token (docs/formats/lsvid.md "Structure"), serialized in declaration order
 * {@code ver, alg, iat, exp, iss, sub, aud, dpa, dpr, sel, data}, each omitted when empty (as Go's
 * {@code omitempty}: 0 for numbers, {@code null} or {@code ""} for strings, {@code null} for
 * claims, an empty map).
 *
 * <p>{@code sel} (selectors) is read from version 1 documents and never written by this
 * implementation; {@code data} is a string map. Both are held with keys sorted by code point
 * (Go's byte-wise order of UTF-8 keys).
 *
 * <p>Thread safety: immutable.
 *
 * @param ver format version (1 = original, 2 = X.509-anchored), 0 when absent
 * @param alg signature algorithm ({@code ES256}), or {@code null}
 * @param iat issued at, seconds since the epoch, 0 when absent
 * @param exp expires at, seconds since the epoch, 0 when absent (version 1)
 * @param iss issuer claim, or {@code null}
 * @param sub subject claim (base tokens), or {@code null}
 * @param aud audience claim (extension layers), or {@code null}
 * @param dpa delegated principal authority (the OAuth issuer), or {@code null}
 * @param dpr delegated principal (the OAuth subject), or {@code null}
 * @param sel version 1 selectors (JSON values), never {@code null}, empty when absent
 * @param data custom string claims, never {@code null}, empty when absent
 */
public record LsvidPayload(
        int ver,
        String alg,
        long iat,
        long exp,
        IdClaim iss,
        IdClaim sub,
        IdClaim aud,
        String dpa,
        String dpr,
        Map<String, Object> sel,
        Map<String, String> data) {

    /** Orders map keys as Go does: by the bytes of their UTF-8 encoding, i.e. by code point. */
    public static final Comparator<String> KEY_ORDER = LsvidPayload::compareCodePoints;

    /** The version of documents whose base is anchored in an X.509-SVID. */
    public static final int VERSION_2 = 2;

    /** The version of the original documents (SPIRE-signed base). */
    public static final int VERSION_1 = 1;

    /** The only signature algorithm: ECDSA P-256 with SHA-256. */
    public static final String ES256 = "ES256";

    /** Copies and sorts the maps. */
    public LsvidPayload {
        sel = copySel(sel);
        data = copyData(data);
    }

    /** A payload without {@code sel} and {@code data}. */
    public LsvidPayload(
            int ver, String alg, long iat, long exp, IdClaim iss, IdClaim sub, IdClaim aud, String dpa, String dpr) {
        this(ver, alg, iat, exp, iss, sub, aud, dpa, dpr, null, null);
    }

    /** Whether this payload carries a delegation claim ({@code dpa} or {@code dpr}). */
    public boolean hasDelegation() {
        return (dpa != null && !dpa.isEmpty()) || (dpr != null && !dpr.isEmpty());
    }

    private static Map<String, String> copyData(Map<String, String> in) {
        if (in == null || in.isEmpty()) {
            return Map.of();
        }
        TreeMap<String, String> out = new TreeMap<>(KEY_ORDER);
        for (Map.Entry<String, String> e : in.entrySet()) {
            out.put(Objects.requireNonNull(e.getKey(), "data key"), Objects.requireNonNull(e.getValue(), "data value"));
        }
        return Collections.unmodifiableMap(out);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> copySel(Map<String, Object> in) {
        if (in == null || in.isEmpty()) {
            return Map.of();
        }
        return (Map<String, Object>) deepCopy(in, 0);
    }

    private static Object deepCopy(Object v, int depth) {
        if (depth > 64) {
            throw new IllegalArgumentException("sel nested too deep");
        }
        if (v instanceof Map<?, ?> m) {
            TreeMap<String, Object> out = new TreeMap<>(KEY_ORDER);
            for (Map.Entry<?, ?> e : m.entrySet()) {
                out.put((String) Objects.requireNonNull(e.getKey(), "sel key"), deepCopy(e.getValue(), depth + 1));
            }
            return Collections.unmodifiableMap(out);
        }
        if (v instanceof List<?> l) {
            List<Object> out = new ArrayList<>(l.size());
            for (Object o : l) {
                out.add(deepCopy(o, depth + 1));
            }
            return Collections.unmodifiableList(out);
        }
        return v;
    }

    private static int compareCodePoints(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }

    @Override
    public String toString() {
        return "LsvidPayload[ver=" + ver + ", iat=" + iat + ", exp=" + exp + ", iss=" + (iss == null ? null : iss.cn())
                + ", sub=" + (sub == null ? null : sub.cn()) + ", aud=" + (aud == null ? null : aud.cn())
                + ", delegation=" + hasDelegation() + "]";
    }
}
