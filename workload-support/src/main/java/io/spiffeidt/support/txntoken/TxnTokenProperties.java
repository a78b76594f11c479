package io.spiffeidt.support.txntoken;

import jakarta.validation.constraints.NotBlank;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Txn-Token settings of a workload ({@code spiffeidt.txn-token.*}; docs/formats/txn-token.md).
 *
 * @param scope the scope the subject workload requests and the Txn-Token Service grants (space-delimited;
 *     the service grants exactly this, and refuses a request for anything else)
 * @param lifetime how long a Txn-Token the service mints lives at most (never past the access token it
 *     was exchanged for); read by the asserting workload
 * @param replace whether the middle tier exchanges the Txn-Token it received for a replacement that
 *     adds it to the chain of requesting workloads (draft §13.15) before calling the target; false:
 *     it forwards the token unchanged (draft §12.2)
 */
@Validated
@ConfigurationProperties("spiffeidt.txn-token")
public record TxnTokenProperties(
        @DefaultValue("account") @NotBlank String scope,
        @DefaultValue("120s") Duration lifetime,
        @DefaultValue("true") boolean replace) {}
