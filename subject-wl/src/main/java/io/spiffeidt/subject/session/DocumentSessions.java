package io.spiffeidt.subject.session;

import io.spiffeidt.core.Mode;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The users' server-side sessions: the last document minted per user and mode. A document is only
 * ever handed back to the user it was minted for. Thread-safe; bounded (expired entries are dropped
 * first, then everything when the bound is still exceeded).
 */
public final class DocumentSessions {

    private record Key(UserKey user, Mode mode) {}

    private final ConcurrentHashMap<Key, KeptDocument> documents = new ConcurrentHashMap<>();
    private final Clock clock;
    private final Duration renewBefore;
    private final int maxEntries;

    public DocumentSessions(Clock clock, Duration renewBefore, int maxEntries) {
        this.clock = clock;
        this.renewBefore = renewBefore;
        this.maxEntries = maxEntries;
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
        if (documents.size() >= maxEntries) {
            var now = clock.instant();
            documents.values().removeIf(d -> !now.isBefore(d.expiresAt()));
            if (documents.size() >= maxEntries) {
                documents.clear();
            }
        }
        documents.put(new Key(user, mode), doc);
    }
}
