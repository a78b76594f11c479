package io.spiffeidt.core.memo;

import java.time.Clock;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * Makes the named {@link Memo}s of a verifier or hop from the settings of each name
 * (docs/design.md "Memos": the names and their settings), with one clock and one {@link
 * MemoEvents} hook. What a verifier's constructor takes instead of memo sizes.
 *
 * <p>Thread safety: immutable, if the settings lookup is.
 */
public final class Memos {

    private static final Memos NONE = new Memos(name -> MemoSettings.OFF, Clock.systemUTC(), MemoEvents.NONE);

    private final Function<String, MemoSettings> settings;
    private final Clock clock;
    private final MemoEvents events;

    private Memos(Function<String, MemoSettings> settings, Clock clock, MemoEvents events) {
        this.settings = settings;
        this.clock = clock;
        this.events = events;
    }

    /**
     * Memos with the settings {@code settings} gives each name.
     *
     * @param settings the settings of a memo name (never {@code null} for a name asked for)
     * @param clock the time the memos' expiry is measured in
     * @param events where the memos report
     */
    public static Memos of(Function<String, MemoSettings> settings, Clock clock, MemoEvents events) {
        return new Memos(
                Objects.requireNonNull(settings, "settings"),
                Objects.requireNonNull(clock, "clock"),
                Objects.requireNonNull(events, "events"));
    }

    /** Every memo with {@link MemoSettings#DEFAULTS}. */
    public static Memos defaults(Clock clock) {
        return of(name -> MemoSettings.DEFAULTS, clock, MemoEvents.NONE);
    }

    /** The memos {@code names} with {@link MemoSettings#DEFAULTS}, every other memo {@link MemoSettings#OFF}. */
    public static Memos only(Set<String> names, Clock clock) {
        Set<String> on = Set.copyOf(names);
        return of(name -> on.contains(name) ? MemoSettings.DEFAULTS : MemoSettings.OFF, clock, MemoEvents.NONE);
    }

    /** Memos that remember nothing: every use does the full work (the original's behaviour). */
    public static Memos none() {
        return NONE;
    }

    /** The settings of memo {@code name}. */
    public MemoSettings settings(String name) {
        return Objects.requireNonNull(settings.apply(name), name);
    }

    /** A new memo named {@code name} with its settings and the given expiry rule. */
    public <K, V> Memo<K, V> memo(String name, Expiry<? super V> expiry) {
        return memo(name, settings(name), expiry);
    }

    /**
     * A new memo named {@code name} with {@code settings} (its own settings narrowed by what its use
     * adds, such as a shorter TTL) and the given expiry rule.
     */
    public <K, V> Memo<K, V> memo(String name, MemoSettings settings, Expiry<? super V> expiry) {
        return new Memo<>(name, settings, expiry, clock, events);
    }
}
