package io.spiffeidt.core.txntoken;

import io.spiffeidt.core.Delegation;
import io.spiffeidt.core.LayerInfo;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.VerifiedResult;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A Txn-Token, minted or verified (docs/formats/txn-token.md "Claims"): the compact JWS and what it
 * says.
 *
 * <p>Thread safety: immutable.
 *
 * @param token the compact JWS
 * @param keyId the {@code kid} it is signed under
 * @param txn the transaction identifier ({@code txn})
 * @param subject the user ({@code sub}: the OAuth subject, {@code dpr})
 * @param userIssuer the user's IdP ({@code tctx.dpa})
 * @param scope the transaction's purpose ({@code scope})
 * @param requestingWorkload the workload that requested this token ({@code req_wl})
 * @param requestChain every workload that requested this token or one it replaces, first to last
 *     ({@code rctx.req_wls}); its last entry is {@code requestingWorkload}
 * @param issuer the Txn-Token Service ({@code iss}), or {@code null} when the token has none
 * @param audience the trust domain ({@code aud})
 * @param issuedAt {@code iat}
 * @param expiresAt {@code exp}
 */
public record TxnToken(
        String token,
        String keyId,
        String txn,
        String subject,
        String userIssuer,
        String scope,
        String requestingWorkload,
        List<String> requestChain,
        String issuer,
        String audience,
        Instant issuedAt,
        Instant expiresAt) {

    /** Requires every part but {@code issuer}; copies the chain. */
    public TxnToken {
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(keyId, "keyId");
        Objects.requireNonNull(txn, "txn");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(userIssuer, "userIssuer");
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(requestingWorkload, "requestingWorkload");
        requestChain = List.copyOf(requestChain);
        Objects.requireNonNull(audience, "audience");
        Objects.requireNonNull(issuedAt, "issuedAt");
        Objects.requireNonNull(expiresAt, "expiresAt");
    }

    /**
     * What every mode's verification establishes: one layer (issuer, the trust domain as audience,
     * {@code iat}, {@code exp}) and the delegation ({@code dpa} = {@code tctx.dpa}, {@code dpr} =
     * {@code sub}, asserted by the service).
     *
     * @param service the Txn-Token Service, named when the token carries no {@code iss}
     */
    public VerifiedResult result(String service) {
        String by = issuer == null ? service : issuer;
        return new VerifiedResult(
                Mode.TXN_TOKEN,
                List.of(new LayerInfo(by, audience, issuedAt, expiresAt)),
                new Delegation(userIssuer, subject, by),
                token.length(),
                1);
    }

    /** Names the transaction, the user and the chain, never the token. */
    @Override
    public String toString() {
        return "TxnToken[txn=" + txn + ", sub=" + subject + ", scope=" + scope + ", req_wls=" + requestChain + ", exp="
                + expiresAt + "]";
    }
}
