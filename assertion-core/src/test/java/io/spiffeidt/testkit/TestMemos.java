package io.spiffeidt.testkit;

import io.spiffeidt.core.memo.MemoSettings;
import io.spiffeidt.core.memo.Memos;
import java.time.Clock;
import java.time.Duration;

/** Memos for tests: every name with the same settings. */
public final class TestMemos {

    private TestMemos() {}

    /** Every memo holding {@code size} entries and the default character budget. */
    public static Memos sized(int size) {
        return with(MemoSettings.DEFAULTS.withSize(size));
    }

    /** Every memo holding {@code size} entries and {@code maxChars} characters. */
    public static Memos sized(int size, long maxChars) {
        return with(MemoSettings.DEFAULTS.withSize(size).withMaxChars(maxChars));
    }

    /** Every memo holding {@code size} entries for {@code ttl}, measured by {@code clock}. */
    public static Memos sized(int size, Duration ttl, Clock clock) {
        return io.spiffeidt.core.memo.Memos.of(
                name -> MemoSettings.DEFAULTS.withSize(size).withTtl(ttl),
                clock,
                io.spiffeidt.core.memo.MemoEvents.NONE);
    }

    /** Every memo with {@code settings}. */
    public static Memos with(MemoSettings settings) {
        return Memos.of(name -> settings, Clock.systemUTC(), io.spiffeidt.core.memo.MemoEvents.NONE);
    }
}
