package io.spiffeidt.subject.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.Mode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class DocumentSessionsTests {

    private static final Instant T0 = Instant.ofEpochSecond(1_700_000_000L);
    private static final UserKey ALICE = new UserKey("http://idp", "alice");
    private static final UserKey BOB = new UserKey("http://idp", "bob");

    private final Clock clock = Clock.fixed(T0, ZoneOffset.UTC);

    @Test
    void liveWhenKeptForUserAndModeThenOnlyThatUserAndModeSeeIt() {
        DocumentSessions sessions = new DocumentSessions(clock, Duration.ofSeconds(5), 10);
        KeptDocument doc = new KeptDocument("t", null, T0.plusSeconds(60));
        sessions.keep(ALICE, Mode.DVID, doc);
        assertThat(sessions.live(ALICE, Mode.DVID)).contains(doc);
        assertThat(sessions.live(BOB, Mode.DVID)).isEmpty();
        assertThat(sessions.live(ALICE, Mode.LSVID)).isEmpty();
        assertThat(sessions.live(new UserKey("http://other-idp", "alice"), Mode.DVID))
                .isEmpty();
    }

    @Test
    void liveWhenAboutToExpireThenEmpty() {
        DocumentSessions sessions = new DocumentSessions(clock, Duration.ofSeconds(5), 10);
        sessions.keep(ALICE, Mode.DVID, new KeptDocument("t", null, T0.plusSeconds(5)));
        assertThat(sessions.live(ALICE, Mode.DVID)).isEmpty();
        sessions.keep(ALICE, Mode.DVID, new KeptDocument("t", null, T0.plusSeconds(6)));
        assertThat(sessions.live(ALICE, Mode.DVID)).isPresent();
    }

    @Test
    void keepWhenBoundReachedThenStaysBounded() {
        DocumentSessions sessions = new DocumentSessions(clock, Duration.ZERO, 3);
        for (int i = 0; i < 10; i++) {
            sessions.keep(new UserKey("i", "u" + i), Mode.DVID, new KeptDocument("t" + i, null, T0.plusSeconds(60)));
        }
        assertThat(sessions.live(new UserKey("i", "u9"), Mode.DVID)).isPresent();
        long live = java.util.stream.IntStream.range(0, 10)
                .filter(i -> sessions.live(new UserKey("i", "u" + i), Mode.DVID).isPresent())
                .count();
        assertThat(live).isLessThanOrEqualTo(3);
    }

    @Test
    void toStringWhenDocumentThenNoTokenText() {
        assertThat(new KeptDocument("secret-token-text", null, T0).toString()).doesNotContain("secret");
    }
}
