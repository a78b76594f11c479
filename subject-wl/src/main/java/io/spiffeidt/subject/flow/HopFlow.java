package io.spiffeidt.subject.flow;

import io.spiffeidt.core.Mode;
import io.spiffeidt.core.memo.Memos;
import io.spiffeidt.subject.session.KeptDocument;
import io.spiffeidt.support.client.DownstreamClients;
import io.spiffeidt.support.hop.Outgoing;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.metrics.Operation;
import io.spiffeidt.support.wire.AccountResponse;
import io.spiffeidt.support.wire.IdempotencyKey;
import java.util.Objects;
import java.util.Optional;

/**
 * The part every mode's {@link SubjectFlow} shares: its two calls, to the asserting workload's mint
 * endpoint ({@code mint_call}) and to the middle tier ({@code mtier_call}), timed by the downstream
 * client (docs/design.md "The hop contract"). A mode's flow adds its hop's steps between them.
 */
public abstract class HopFlow implements SubjectFlow {

    /** The asserting workload's mint endpoint, below the mode's prefix: the same in every mode. */
    public static final String MINT = "/mint";

    private final Mode mode;
    private final DownstreamClients clients;
    private final boolean keepsVerified;

    /** A flow whose session keeps the document as it came (the memo {@code subject-session} is not read). */
    protected HopFlow(Mode mode, DownstreamClients clients) {
        this(mode, clients, false);
    }

    /**
     * A flow whose session may keep the document verified ({@link #keepsVerified()}), as the memo
     * {@value KeptDocument#MEMO} of {@code memos} says.
     */
    protected HopFlow(Mode mode, DownstreamClients clients, Memos memos) {
        this(mode, clients, memos.settings(KeptDocument.MEMO).remembers());
    }

    private HopFlow(Mode mode, DownstreamClients clients, boolean keepsVerified) {
        this.mode = Objects.requireNonNull(mode, "mode");
        this.clients = Objects.requireNonNull(clients, "clients");
        this.keepsVerified = keepsVerified;
    }

    /**
     * Whether the session keeps the document as verified (decoded, with what it was verified under),
     * so that a use reuses it while it holds instead of reading it again: the memo {@value
     * KeptDocument#MEMO} on.
     */
    protected final boolean keepsVerified() {
        return keepsVerified;
    }

    @Override
    public final Mode mode() {
        return mode;
    }

    /**
     * Posts {@code body} to the asserting workload's mint endpoint, {@code /<mode>/mint} in every
     * mode, timed as {@code mint_call}.
     */
    protected <T> T callAsserting(Object body, Class<T> answer) {
        return clients.client(mode, Role.ASSERTING_WL)
                .post(Operation.MINT_CALL, "/" + mode.pathSegment() + MINT, body, answer);
    }

    /**
     * Sends {@code outgoing} to the middle tier's {@code /<mode>/<operation>}, timed as {@code
     * mtier_call}, with the deposit's {@code Idempotency-Key} when there is one and the headers of a
     * mode without a document, and answers its answer.
     */
    protected AccountResponse callMiddleTier(
            String operation, Outgoing outgoing, Long amount, Optional<IdempotencyKey> idempotencyKey) {
        return clients.client(mode, Role.M_TIER)
                .post(
                        Operation.MTIER_CALL,
                        "/" + mode.pathSegment() + "/" + operation,
                        outgoing.request(amount),
                        AccountResponse.class,
                        idempotencyKey,
                        outgoing.headers(),
                        outgoing.headerDocumentCharacters());
    }
}
