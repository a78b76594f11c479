package io.spiffeidt.core;

/**
 * The closed set of SPIFFE-IdT documents. One constant per mode; each context spells it one way:
 * {@link #pathSegment()} for URL prefixes, property and metric tag values.
 *
 * <p>Thread safety: immutable.
 */
public enum Mode {
    /** Delegated assertion SVID (docs/formats/dvid.md). */
    DVID("dvid"),
    /** Nested token, ECDSA layer per hop (docs/formats/id-mode.md). */
    ID_MODE("id-mode"),
    /** Nested token, concatenated Schnorr signatures (docs/formats/anon-mode.md). */
    ANON_MODE("anon-mode"),
    /** Lightweight SVID (docs/formats/lsvid.md). */
    LSVID("lsvid"),
    /**
     * OAuth Transaction Token (draft-ietf-oauth-transaction-tokens), minted by the asserting workload
     * as the Txn-Token Service (docs/formats/txn-token.md): a baseline beside the four documents.
     */
    TXN_TOKEN("txn-token"),
    /**
     * Baseline without a document: SPIFFE mTLS only, the user named by the caller in a header
     * (docs/formats/mtls-only.md).
     */
    MTLS_ONLY("mtls-only", false),
    /**
     * Baseline without a document: the user's OAuth access token forwarded unchanged at every hop
     * (docs/formats/bearer-forward.md).
     */
    BEARER_FORWARD("bearer-forward", false),
    /**
     * WIMSE Workload Identity and Proof Tokens (draft-ietf-wimse-workload-creds, draft-ietf-wimse-wpt)
     * on every call, with the user in a Txn-Token as in {@link #TXN_TOKEN} (docs/formats/wimse.md).
     */
    WIMSE("wimse");

    private final String pathSegment;
    private final boolean hasDocument;

    Mode(String pathSegment) {
        this(pathSegment, true);
    }

    Mode(String pathSegment, boolean hasDocument) {
        this.pathSegment = pathSegment;
        this.hasDocument = hasDocument;
    }

    /**
     * Whether the mode has a SPIFFE-IdT document to mint, decode and show; the baselines {@link
     * #MTLS_ONLY} and {@link #BEARER_FORWARD} have none (nothing to decode, nothing to inspect).
     */
    public boolean hasDocument() {
        return hasDocument;
    }

    /** The URL prefix, property and metric tag spelling: {@code dvid}, {@code id-mode}, ... */
    public String pathSegment() {
        return pathSegment;
    }

    /**
     * Parses the path-segment spelling.
     *
     * @throws AssertionException with {@link ErrorCode#UNSUPPORTED} for an unknown name
     */
    public static Mode fromPathSegment(String segment) {
        for (Mode m : values()) {
            if (m.pathSegment.equals(segment)) {
                return m;
            }
        }
        throw new AssertionException(ErrorCode.UNSUPPORTED, "unknown mode");
    }
}
