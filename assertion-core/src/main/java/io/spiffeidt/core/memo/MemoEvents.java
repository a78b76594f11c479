package io.spiffeidt.core.memo;

/**
 * What a {@link Memo} reports (workload-support counts it as the metric {@code spiffeidt.memo}):
 * a value found and used, a value not found (or found but not usable), an entry that left because
 * the memo was full or its time was up, and a memo made.
 *
 * <p>Thread safety: implementations must be safe for concurrent use; they are called outside the
 * memo's lock and must not call back into the memo.
 */
public interface MemoEvents {

    /** Reports nothing. */
    MemoEvents NONE = new MemoEvents() {};

    /** A remembered value of memo {@code name} was used. */
    default void hit(String name) {}

    /** Memo {@code name} had no usable value. */
    default void miss(String name) {}

    /** An entry left memo {@code name} (full, or its time was up). */
    default void evicted(String name) {}

    /** Memo {@code memo} was made (so that its {@link Memo#size()} can be watched). */
    default void created(Memo<?, ?> memo) {}
}
