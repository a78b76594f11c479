package io.spiffeidt.subject.flow;

import io.spiffeidt.core.Mode;
import io.spiffeidt.support.oauth.VerifiedOAuthToken;
import io.spiffeidt.support.wire.AccountResponse;
import io.spiffeidt.support.wire.IdempotencyKey;
import java.util.Optional;

/** One mode's part at the subject workload: obtain a document, then use it at the middle tier. */
public interface SubjectFlow {

    /** The mode this flow serves. */
    Mode mode();

    /** Obtains a document for the user of {@code accessToken} from the asserting workload. */
    MintedDocument mint(String accessToken);

    /**
     * {@link #mint(String)} for a token the caller has already verified ({@code user}): a mode
     * without a document builds what travels from it without verifying the token again.
     */
    default MintedDocument mint(String accessToken, VerifiedOAuthToken user) {
        return mint(accessToken);
    }

    /**
     * Uses a kept document for {@code operation} ({@code balance} or {@code deposit}) through the
     * middle tier, forwarding the deposit's {@code Idempotency-Key} when there is one.
     */
    AccountResponse use(
            io.spiffeidt.subject.session.KeptDocument document,
            String operation,
            Long amount,
            Optional<IdempotencyKey> idempotencyKey);
}
