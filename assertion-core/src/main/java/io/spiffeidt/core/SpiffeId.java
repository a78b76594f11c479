package io.spiffeidt.core;

import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * A parsed SPIFFE ID ({@code spiffe://trust-domain/path}). IDs are compared as parsed values,
 * never by substring (docs/formats/common.md "Roles and identities").
 *
 * <p>Thread safety: immutable.
 *
 * @param trustDomain the lower-case trust domain name
 * @param path the path, starting with {@code /}, or empty for a trust domain ID
 */
public record SpiffeId(String trustDomain, String path) {

    private static final String PREFIX = "spiffe://";
    private static final int MAX_LENGTH = 2048;
    private static final int SAN_URI = 6;

    /**
     * The SPIFFE ID of an X.509-SVID: the certificate's single URI SAN. Reads the name only; it
     * validates neither the chain nor the certificate's use (the TLS layer did, for a peer).
     *
     * @throws AssertionException {@link ErrorCode#UNTRUSTED_KEY} unless the certificate carries
     *     exactly one URI SAN and it is a SPIFFE ID
     */
    public static SpiffeId fromX509Svid(X509Certificate certificate) {
        try {
            Collection<List<?>> sans = certificate.getSubjectAlternativeNames();
            String uri = null;
            int count = 0;
            if (sans != null) {
                for (List<?> san : sans) {
                    if (san.size() >= 2 && Integer.valueOf(SAN_URI).equals(san.get(0))) {
                        uri = String.valueOf(san.get(1));
                        count++;
                    }
                }
            }
            if (count != 1) {
                throw new AssertionException(ErrorCode.UNTRUSTED_KEY, "certificate must carry exactly one URI SAN");
            }
            return parse(uri);
        } catch (CertificateParsingException e) {
            throw new AssertionException(ErrorCode.UNTRUSTED_KEY, "unreadable subject alternative names");
        } catch (AssertionException e) {
            if (e.code() == ErrorCode.MALFORMED) {
                throw new AssertionException(ErrorCode.UNTRUSTED_KEY, "URI SAN is not a SPIFFE ID");
            }
            throw e;
        }
    }

    /**
     * Parses a SPIFFE ID per the SPIFFE ID specification.
     *
     * @throws AssertionException with {@link ErrorCode#MALFORMED} when it is not a SPIFFE ID
     */
    public static SpiffeId parse(String text) {
        if (text == null || text.length() > MAX_LENGTH || !text.startsWith(PREFIX)) {
            throw new AssertionException(ErrorCode.MALFORMED, "not a SPIFFE ID");
        }
        String rest = text.substring(PREFIX.length());
        int slash = rest.indexOf('/');
        String td = slash < 0 ? rest : rest.substring(0, slash);
        String path = slash < 0 ? "" : rest.substring(slash);
        if (td.isEmpty()) {
            throw new AssertionException(ErrorCode.MALFORMED, "SPIFFE ID without trust domain");
        }
        for (int i = 0; i < td.length(); i++) {
            char c = td.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_';
            if (!ok) {
                throw new AssertionException(ErrorCode.MALFORMED, "invalid trust domain character");
            }
        }
        if (!path.isEmpty()) {
            if (path.endsWith("/")) {
                throw new AssertionException(ErrorCode.MALFORMED, "SPIFFE ID path with trailing slash");
            }
            for (String seg : path.substring(1).split("/", -1)) {
                if (seg.isEmpty() || seg.equals(".") || seg.equals("..")) {
                    throw new AssertionException(ErrorCode.MALFORMED, "invalid SPIFFE ID path segment");
                }
                for (int i = 0; i < seg.length(); i++) {
                    char c = seg.charAt(i);
                    boolean ok = (c >= 'a' && c <= 'z')
                            || (c >= 'A' && c <= 'Z')
                            || (c >= '0' && c <= '9')
                            || c == '.'
                            || c == '-'
                            || c == '_';
                    if (!ok) {
                        throw new AssertionException(ErrorCode.MALFORMED, "invalid SPIFFE ID path character");
                    }
                }
            }
        }
        return new SpiffeId(td, path);
    }

    /** Whether {@code text} parses as a SPIFFE ID. */
    public static boolean isValid(String text) {
        try {
            parse(text);
            return true;
        } catch (AssertionException e) {
            return false;
        }
    }

    /** Whether this ID belongs to {@code trustDomain} (compared case-insensitively, as names). */
    public boolean memberOf(String trustDomain) {
        return this.trustDomain.equals(trustDomain.toLowerCase(Locale.ROOT));
    }

    @Override
    public String toString() {
        return PREFIX + trustDomain + path;
    }
}
