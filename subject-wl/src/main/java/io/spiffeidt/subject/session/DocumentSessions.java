package io.spiffeidt.subject.session;

import io.spiffeidt.core.Mode;
import io.spiffeidt.core.memo.Expiry;
import io.spiffeidt.core.memo.Memo;
import io.spiffeidt.core.memo.MemoEvents;
import io.spiffeidt.core.memo.MemoSettings;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * The users' server-side sessions: the last document minted per user and mode. A document is only
 * ever handed back to the user it was minted for. Thread-safe; bounded (a {@link Memo} of {@code
 * maxEntries}, the least recently used session going first; a document is dropped when it expires).
 * Not switched by {@code spiffeidt.memo}: a session is the subject's state, not remembered work.
 */
public final class DocumentSessions {

    private record Key(UserKey user, Mode mode) {}

    private final Memo<Key, KeptDocument> documents;
    private final Clock clock;
    private final Duration renewBefore;

    public DocumentSessions(Clock clock, Duration renewBefore, int maxEntries) {
        this.clock = clock;
        this.renewBefore = renewBefore;
        this.documents = new Memo<>(
                "subject-documents",
                new MemoSettings(true, maxEntries, MemoSettings.DEFAULT_MAX_CHARS, null),
                Expiry.own(KeptDocument::expiresAt),
                clock,
                MemoEvents.NONE);
    }

    /** The user's live document for {@code mode}, unless absent or about to expire. */
    public Optional<KeptDocument> live(UserKey user, Mode mode) {
        KeptDocument doc = documents.get(new Key(user, mode));
        if (doc == null || !clock.instant().plus(renewBefore).isBefore(doc.expiresAt())) {
            return Optional.empty();
        }
        return Optional.of(doc);
    }

    /** Keeps {@code doc} as the user's document for {@code mode}. */
    public void keep(UserKey user, Mode mode, KeptDocument doc) {
        documents.put(new Key(user, mode), doc);
    }
}
