package io.spiffeidt.support.reuse;

import io.spiffeidt.core.memo.Expiry;
import io.spiffeidt.core.memo.Memo;
import io.spiffeidt.core.memo.Memos;
import java.time.Instant;
import java.util.Objects;

/**
 * The memo of the extensions a hop signed, so that the same document forwarded to the same next
 * hop again, while the extension is young, is not signed and encoded again (the subject
 * workload forwards one kept document on every request of a session, and the middle tier then
 * receives the same bytes every time): a named {@link Memo} ({@code lsvid-extension}, {@code
 * idmode-extension}, {@code anonmode-extension}) with its key and signer rule.
 *
 * <p>An entry is found by a key the hop derives from what it verified or kept (the very document
 * instance, or the exact received text, and the audience), and is used only while
 *
 * <ul>
 *   <li>it was signed by the same signer, compared by identity: what the hop derives from its
 *       current SVID (a rotated SVID gives a new one, and the next hop's presenter check needs the
 *       new key); a hop whose layers do not depend on its SVID (Anon-Mode) passes {@code null}; and
 *   <li>less than half of its lifetime ({@code exp - iat}) has passed ({@link Expiry#halfLife}), so
 *       the next hops always get a layer with at least half its life left.
 * </ul>
 *
 * <p>Thread safety: safe for concurrent use; two requests may sign the same extension under a
 * race, and either is valid.
 *
 * @param <K> what an extension is found by (compared with {@code equals})
 * @param <V> the extension as the hop forwards it
 */
public final class ReusedExtensions<K, V> {

    private record Entry<V>(V extension, Object signer, Instant issuedAt, Instant expiresAt) {}

    private final Memo<K, Entry<V>> memo;

    /** The memo {@code name} of {@code memos}. */
    public ReusedExtensions(Memos memos, String name) {
        this.memo = memos.memo(name, Expiry.<Entry<V>>halfLife(Entry::issuedAt, Entry::expiresAt));
    }

    /**
     * The extension remembered under {@code key}, if {@code signer} signed it and less than half its
     * lifetime has passed; otherwise {@code null}.
     */
    public V find(K key, Object signer) {
        Entry<V> e = memo.get(key, known -> known.signer() == signer);
        return e == null ? null : e.extension();
    }

    /**
     * Remembers {@code extension}, signed by {@code signer}, under {@code key}; its layer was issued
     * at {@code issuedAt} and expires at {@code expiresAt}.
     */
    public void remember(K key, Object signer, V extension, Instant issuedAt, Instant expiresAt) {
        Objects.requireNonNull(extension, "extension");
        memo.put(key, new Entry<>(extension, signer, issuedAt, expiresAt));
    }

    /** Whether this memo remembers anything. */
    public boolean remembers() {
        return memo.remembers();
    }

    /** How many extensions are remembered. */
    public int size() {
        return memo.size();
    }

    /** How many times a remembered extension was used. */
    public long hits() {
        return memo.hits();
    }
}
