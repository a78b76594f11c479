package io.spiffeidt.support.memo;

import io.spiffeidt.core.memo.MemoSettings;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Every memo of a workload ({@code spiffeidt.memo.*}; docs/design.md "Memos"): one global switch and
 * the settings of each named use, one map keyed by the use's name. A key left out takes the use's
 * default ({@link #defaults}). Whoever reproduces the thesis sets {@code spiffeidt.memo.enabled=false}
 * (the Spring profile {@code thesis} does).
 *
 * @param enabled false: no memo remembers anything, every request does all its work (the thesis'
 *     behaviour); true: each memo as its own settings say
 * @param uses the settings of each memo by name ({@code lsvid-chain}, {@code lsvid-base}, {@code lsvid-layer},
 *     {@code lsvid-document}, {@code lsvid-extension}, {@code idmode-chain}, {@code idmode-token}, {@code idmode-extension},
 *     {@code anonmode-token}, {@code anonmode-extension}, {@code oauth-proof}, {@code oauth-token}, {@code dvid-keys},
 *     {@code txn-token-keys}, {@code wimse-keys}, {@code wimse-jti}, {@code subject-session}; the configuration
 *     metadata says what each holds). Unset for a
 *     memo: its default, 1,024 entries, 8 Mi characters and no TTL, except
 *     {@code oauth-proof} (20,000 entries for 5 minutes), {@code oauth-token} (4,096 for 1 minute), the three
 *     {@code *-extension} (256 entries), {@code dvid-keys}, {@code txn-token-keys} and {@code wimse-keys} (5 minutes), {@code wimse-jti}
 *     (65,536 entries). A key set ({@code dvid-keys}, {@code txn-token-keys}, {@code wimse-keys}) reads only
 *     {@code enabled} and {@code ttl}, {@code subject-session} only {@code enabled}, {@code wimse-jti} (the WPT
 *     replay cache, a check the memo switch never turns off) only {@code size};
 *     setting another key of theirs, or a name not in the list, fails the start
 */
@ConfigurationProperties("spiffeidt.memo")
public record MemoProperties(@DefaultValue("true") boolean enabled, Map<String, Named> uses) {

    /** The memo names, as in the keys {@code spiffeidt.memo.uses.<name>.*} and the metric tag {@code name}. */
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
            "wimse-keys",
            "wimse-jti",
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
     * Keys each use by its name as in {@link #NAMES}, whatever the spelling it was bound from (an
     * environment variable gives {@code oauthproof}).
     *
     * @throws IllegalArgumentException for a name that is not a memo's, or a key its memo does not read
     */
    public MemoProperties {
        Map<String, Named> canonical = new LinkedHashMap<>();
        if (uses != null) {
            uses.forEach((key, named) -> {
                String name = canonical(key);
                if (named != null) {
                    refuseUnread(name, named);
                    canonical.put(name, named);
                }
            });
        }
        uses = Map.copyOf(canonical);
    }

    private static String canonical(String key) {
        String folded = key.replace("-", "").toLowerCase(Locale.ROOT);
        return NAMES.stream()
                .filter(name -> name.replace("-", "").equals(folded))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException(
                        "spiffeidt.memo.uses." + key + ": no memo of that name; the names are " + NAMES));
    }

    /** The key sets hold one JWKS each (no size, no characters), the subject's sessions are bounded elsewhere. */
    private static void refuseUnread(String name, Named named) {
        boolean keySet = name.equals("dvid-keys") || name.equals("txn-token-keys") || name.equals("wimse-keys");
        boolean session = name.equals("subject-session");
        if ((keySet || session) && (named.size() != null || named.maxChars() != null)
                || session && named.ttl() != null) {
            throw new IllegalArgumentException("spiffeidt.memo.uses." + name + ": only "
                    + (session ? "enabled is" : "enabled and ttl are") + " read for this memo");
        }
        if (name.equals("wimse-jti") && (named.enabled() != null || named.maxChars() != null || named.ttl() != null)) {
            throw new IllegalArgumentException("spiffeidt.memo.uses.wimse-jti: only size is read for this memo");
        }
    }

    /**
     * The default of memo {@code name}: {@link MemoSettings#DEFAULTS}, with the sizes and TTLs the
     * measurements chose where they differ.
     */
    public static MemoSettings defaults(String name) {
        return switch (name) {
            case "oauth-proof" -> MemoSettings.DEFAULTS.withSize(20_000).withTtl(Duration.ofMinutes(5));
            case "oauth-token" -> MemoSettings.DEFAULTS.withSize(4096).withTtl(Duration.ofMinutes(1));
            case "lsvid-extension", "idmode-extension", "anonmode-extension" -> MemoSettings.DEFAULTS.withSize(256);
            case "dvid-keys", "txn-token-keys", "wimse-keys" -> MemoSettings.DEFAULTS.withTtl(Duration.ofMinutes(5));
            case "wimse-jti" -> MemoSettings.DEFAULTS.withSize(65_536);
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
        if (!NAMES.contains(name)) {
            throw new IllegalArgumentException("no memo named " + name);
        }
        if (!enabled) {
            return MemoSettings.OFF;
        }
        MemoSettings d = defaults(name);
        Named configured = uses.get(name);
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
            throw new IllegalArgumentException("spiffeidt.memo.uses." + name + ": " + e.getMessage(), e);
        }
    }
}
