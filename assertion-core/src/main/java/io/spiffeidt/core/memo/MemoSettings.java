package io.spiffeidt.core.memo;

import java.time.Duration;

/**
 * The settings of one named {@link Memo} (docs/design.md "Memos"): whether it remembers anything,
 * how many entries and how many characters it holds at most, and the longest an entry is used.
 *
 * <p>The defaults are written here once ({@link #DEFAULTS}); {@link #OFF} remembers nothing, so
 * every use does the full work, as the original did.
 *
 * <p>Thread safety: immutable.
 *
 * @param enabled false: the memo remembers nothing
 * @param size the most entries held (the least recently used goes first); 0 remembers nothing
 * @param maxChars the most characters held, summed over the entries' weights; 0 remembers nothing
 * @param ttl the longest an entry is used after it was remembered, or {@code null}: only the
 *     memo's {@link Expiry} rule ends it
 */
public record MemoSettings(boolean enabled, int size, long maxChars, Duration ttl) {

    /** How many entries a memo holds by default. */
    public static final int DEFAULT_SIZE = 1024;

    /** How many characters a memo holds by default: 8 Mi (the texts are Latin-1, 8 MiB). */
    public static final long DEFAULT_MAX_CHARS = 8L << 20;

    /** Enabled, {@link #DEFAULT_SIZE} entries, {@link #DEFAULT_MAX_CHARS} characters, no TTL. */
    public static final MemoSettings DEFAULTS = new MemoSettings(true, DEFAULT_SIZE, DEFAULT_MAX_CHARS, null);

    /** A memo that remembers nothing. */
    public static final MemoSettings OFF = new MemoSettings(false, 0, 0, null);

    /**
     * Checks the settings.
     *
     * @throws IllegalArgumentException for a negative size, character budget or TTL
     */
    public MemoSettings {
        if (size < 0 || maxChars < 0) {
            throw new IllegalArgumentException("a memo's size and max-chars must not be negative");
        }
        if (ttl != null && ttl.isNegative()) {
            throw new IllegalArgumentException("a memo's ttl must not be negative");
        }
    }

    /** Whether a memo with these settings remembers anything. */
    public boolean remembers() {
        return enabled && size > 0 && maxChars > 0 && (ttl == null || !ttl.isZero());
    }

    /** These settings with another size. */
    public MemoSettings withSize(int size) {
        return new MemoSettings(enabled, size, maxChars, ttl);
    }

    /** These settings with another character budget. */
    public MemoSettings withMaxChars(long maxChars) {
        return new MemoSettings(enabled, size, maxChars, ttl);
    }

    /** These settings with another TTL ({@code null}: none). */
    public MemoSettings withTtl(Duration ttl) {
        return new MemoSettings(enabled, size, maxChars, ttl);
    }
}
