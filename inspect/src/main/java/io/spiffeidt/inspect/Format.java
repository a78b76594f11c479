package io.spiffeidt.inspect;

import java.util.Locale;

/** The documents the inspector reads (docs/formats/common.md), plus the DVID's zero-knowledge proof. */
enum Format {
    /** A DVID: compact JWS, three segments (docs/formats/dvid.md). */
    DVID("dvid", "DVID (delegated assertion SVID, compact JWS)"),
    /** An ID-Mode nested token, ECDSA P-256 per layer (docs/formats/id-mode.md). */
    ID_MODE("id-mode", "ID-Mode nested token"),
    /** An Anon-Mode nested token, concatenated Schnorr signatures (docs/formats/anon-mode.md). */
    ANON_MODE("anon-mode", "Anon-Mode nested token"),
    /** An LSVID: base64url of nested JSON (docs/formats/lsvid.md). */
    LSVID("lsvid", "LSVID (lightweight SVID)"),
    /** The zero-knowledge proof of an IdP RS256 signature that a DVID may carry (docs/formats/dvid.md). */
    ZKP("zkp", "Zero-knowledge proof of an OAuth RS256 signature");

    private final String id;
    private final String title;

    Format(String id, String title) {
        this.id = id;
        this.title = title;
    }

    String id() {
        return id;
    }

    String title() {
        return title;
    }

    /** Parses {@code dvid}, {@code id-mode}, {@code anon-mode}, {@code lsvid} or {@code zkp}. */
    static Format parse(String text) {
        for (Format f : values()) {
            if (f.id.equals(text.toLowerCase(Locale.ROOT))) {
                return f;
            }
        }
        throw new UsageException("unknown format " + text + " (dvid, id-mode, anon-mode, lsvid, zkp)");
    }
}
