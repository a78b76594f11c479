package io.spiffeidt.support.hop;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.wire.DocumentRequest;
import java.util.Optional;
import org.springframework.http.HttpHeaders;

/**
 * One workload's part of one mode, the same verbs with the same meaning for every mode
 * (docs/design.md "The hop contract"), as spring-security gives sibling configurers one base: a
 * tier's controller reads as the protocol ({@link #verify}, maybe {@link #forward}, call the next
 * tier, answer) and holds no cache, no timing and no choice of strategy.
 *
 * <p>The verbs are timed by the protocol's one base, {@link AbstractHop} ({@code spiffeidt.operation}:
 * {@code validate}, {@code extend}; the downstream calls a mode's verification makes, e.g. DVID's
 * {@code validate_call}, are timed by the client), and {@link #forward} records the size of what it
 * writes ({@code spiffeidt.document.size}); the entries of the {@code Server-Timing} header follow
 * from the timers.
 *
 * <p>Thread safety: implementations are thread safe.
 *
 * @param <D> the mode's verified document: what {@link #forward} extends
 */
public interface Hop<D> {

    /** The mode of this hop. */
    Mode mode();

    /** This workload's SPIFFE ID: the audience incoming documents must name. */
    SpiffeId self();

    /** The configured SPIFFE ID of a role: how every hop finds the next tier and the pinned issuer. */
    SpiffeId idOf(Role role);

    /**
     * What came on the wire in a request to this workload's {@code /<mode>/balance} or {@code
     * /<mode>/deposit}: by default the body's document (the document modes); a mode without a
     * document reads its header instead and refuses a body token.
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED} when what the mode carries is missing
     */
    default Received receive(DocumentRequest body, HttpHeaders headers) {
        if (body.token() == null || body.token().isBlank()) {
            throw new AssertionException(ErrorCode.MALFORMED, "no document in the request body");
        }
        return Received.of(body);
    }

    /**
     * Every check this mode makes of a document {@code caller} sent to this workload (the mTLS peer;
     * bound to the outermost layer where the mode binds a presenter), with this workload as
     * audience: offline (LSVID, ID-Mode, Anon-Mode) or as the mode verifies it (DVID: at the
     * asserting workload, or here with its keys). The binding of the root to the asserting workload
     * by introspection is {@link #introspection()}.
     *
     * @throws AssertionException with the code of the first failed check
     */
    Verified<D> verify(Received received, Caller caller);

    /**
     * The root's binding to the asserting workload, where the mode has it (DVID, ID-Mode,
     * Anon-Mode); empty where it has none (LSVID verifies its delegation layer offline; the
     * baselines have no root).
     */
    default Optional<Introspection<D>> introspection() {
        return Optional.empty();
    }

    /**
     * The asserting workload's step, where this hop has it: present at the asserting workload of a
     * mode that mints from a grant (DVID, ID-Mode, Anon-Mode, Txn-Token), given what it mints with
     * at construction; empty everywhere else.
     */
    default Optional<? extends Minting<?>> minting() {
        return Optional.empty();
    }

    /**
     * What goes on the wire to {@code next}: the verified document extended by one layer addressed
     * to {@code next} (signed by this workload), or, for a mode that never extends (DVID), the
     * document as received.
     */
    Outgoing forward(Verified<D> verified, Role next);
}
