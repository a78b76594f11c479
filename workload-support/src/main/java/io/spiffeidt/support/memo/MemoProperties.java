package io.spiffeidt.support.memo;

import io.spiffeidt.core.memo.MemoSettings;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Every memo of a workload ({@code spiffeidt.memo.*}; docs/design.md "Memos"): one global switch and
 * the settings of each named memo. A key left out takes the memo's default: {@link
 * MemoSettings#DEFAULTS} (1,024 entries, 8 Mi characters, no TTL), except where {@link #defaults}
 * says otherwise. Whoever reproduces the thesis sets {@code spiffeidt.memo.enabled=false} (the
 * Spring profile {@code thesis} does).
 *
 * @param enabled false: no memo remembers anything, every request does all its work (the thesis'
 *     behaviour); true: each memo as its own settings say
 * @param lsvidChain LSVID: validated {@code x5c} certificate chains
 * @param lsvidBase LSVID: verified base documents
 * @param lsvidLayer LSVID: layers whose signature verified
 * @param lsvidDocument LSVID: decoded documents that verified (and their outermost layers)
 * @param lsvidExtension LSVID: the young extensions a hop signed, reused for the same document and next hop
 * @param idmodeChain ID-Mode: validated certificate chains of the artifacts
 * @param idmodeToken ID-Mode: tokens whose signatures verified
 * @param idmodeExtension ID-Mode: the young extensions a hop signed, reused for the same token and next hop
 * @param anonmodeToken Anon-Mode: tokens whose key chain and equation verified
 * @param anonmodeExtension Anon-Mode: the young extensions a hop signed, reused for the same token
 * @param oauthProof OAuth proofs that verified and the proof last verified per document (default
 *     20,000 entries for 5 minutes); off: every use verifies the proof again and the middle tier
 *     introspects an ID-Mode or DVID document in two calls
 * @param oauthToken OAuth access tokens that verified (default 4,096 for 1 minute, never past the
 *     token's {@code exp} nor the JWKS cache's TTL; off with {@code spiffeidt.oauth.jwks-cache=none})
 * @param dvidKeys DVID: the asserting workload's key set held by the target (only {@code enabled}
 *     and {@code ttl}, default 5 minutes, are read); off: the target has every DVID validated
 *     remotely by the asserting workload
 * @param txnTokenKeys Txn-Token: the Txn-Token Service's key set held by every workload that verifies
 *     Txn-Tokens (only {@code enabled} and {@code ttl}, default 5 minutes, are read); off: the key set
 *     is fetched for every verification
 * @param subjectSession the subject workload: what it established about a kept document when it
 *     received it (only {@code enabled} is read); off: every use starts from the document's text
 */
@ConfigurationProperties("spiffeidt.memo")
public record MemoProperties(
        @DefaultValue("true") boolean enabled,
        Named lsvidChain,
        Named lsvidBase,
        Named lsvidLayer,
        Named lsvidDocument,
        Named lsvidExtension,
        Named idmodeChain,
        Named idmodeToken,
        Named idmodeExtension,
        Named anonmodeToken,
        Named anonmodeExtension,
        Named oauthProof,
        Named oauthToken,
        Named dvidKeys,
        Named txnTokenKeys,
        Named subjectSession) {

    /** The memo names, as in the keys {@code spiffeidt.memo.<name>.*} and the metric tag {@code name}. */
    public static final List<String> NAMES = List.of(
            "lsvid-chain",
            "lsvid-base",
            "lsvid-layer",
            "lsvid-document",
            "lsvid-extension",
            "idmode-chain",
            "idmode-token",
            "idmode-extension",
            "anonmode-token",
            "anonmode-extension",
            "oauth-proof",
            "oauth-token",
            "dvid-keys",
            "txn-token-keys",
            "subject-session");

    /**
     * The settings of one memo; what is left out takes the memo's default.
     *
     * @param enabled false: this memo remembers nothing
     * @param size the most entries held (the least recently used go first)
     * @param maxChars the most characters of text held, summed over the entries
     * @param ttl the longest an entry is used after it was remembered
     */
    public record Named(Boolean enabled, Integer size, Long maxChars, Duration ttl) {}

    /**
     * The default of memo {@code name}: {@link MemoSettings#DEFAULTS}, with the sizes and TTLs the
     * measurements of issue 13 chose where they differ.
     */
    public static MemoSettings defaults(String name) {
        return switch (name) {
            case "oauth-proof" -> MemoSettings.DEFAULTS.withSize(20_000).withTtl(Duration.ofMinutes(5));
            case "oauth-token" -> MemoSettings.DEFAULTS.withSize(4096).withTtl(Duration.ofMinutes(1));
            case "lsvid-extension", "idmode-extension", "anonmode-extension" -> MemoSettings.DEFAULTS.withSize(256);
            case "dvid-keys", "txn-token-keys" -> MemoSettings.DEFAULTS.withTtl(Duration.ofMinutes(5));
            default -> MemoSettings.DEFAULTS;
        };
    }

    /**
     * The settings of memo {@code name}: {@link MemoSettings#OFF} when the global switch is off,
     * otherwise its default with what is configured for it.
     *
     * @throws IllegalArgumentException for a name that is not in {@link #NAMES}
     */
    public MemoSettings settings(String name) {
        return settings(enabled, configured(name), name);
    }

    private static MemoSettings settings(boolean enabled, Named configured, String name) {
        if (!enabled) {
            return MemoSettings.OFF;
        }
        MemoSettings d = defaults(name);
        if (configured == null) {
            return d;
        }
        try {
            return new MemoSettings(
                    configured.enabled() == null ? d.enabled() : configured.enabled(),
                    configured.size() == null ? d.size() : configured.size(),
                    configured.maxChars() == null ? d.maxChars() : configured.maxChars(),
                    configured.ttl() == null ? d.ttl() : configured.ttl());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("spiffeidt.memo." + name + ": " + e.getMessage(), e);
        }
    }

    private Named configured(String name) {
        return switch (name) {
            case "lsvid-chain" -> lsvidChain;
            case "lsvid-base" -> lsvidBase;
            case "lsvid-layer" -> lsvidLayer;
            case "lsvid-document" -> lsvidDocument;
            case "lsvid-extension" -> lsvidExtension;
            case "idmode-chain" -> idmodeChain;
            case "idmode-token" -> idmodeToken;
            case "idmode-extension" -> idmodeExtension;
            case "anonmode-token" -> anonmodeToken;
            case "anonmode-extension" -> anonmodeExtension;
            case "oauth-proof" -> oauthProof;
            case "oauth-token" -> oauthToken;
            case "dvid-keys" -> dvidKeys;
            case "txn-token-keys" -> txnTokenKeys;
            case "subject-session" -> subjectSession;
            default -> throw new IllegalArgumentException("no memo named " + name);
        };
    }
}
