package io.spiffeidt.asserting.anonmode;

import io.spiffeidt.asserting.introspection.ZkpTiming;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Anon-Mode settings of the asserting workload, under the mode's one prefix {@code spiffeidt.anon-mode}
 * (beside {@code include-iid}, read by every workload, and the middle tier's {@code extend}).
 *
 * @param lifetime lifetime of a root (never longer than the OAuth token it came from)
 * @param zkp when the proof answered by {@code POST /anon-mode/introspect} is made: {@code lazy}
 *     (default, at the first introspection, as the original did) or {@code at-mint}. {@code off} is
 *     refused at start-up: in this mode introspection is what binds a root to this workload, so it
 *     must be able to answer
 * @param zkpRounds proof rounds (1..256)
 */
@ConfigurationProperties("spiffeidt.anon-mode")
@Validated
public record AnonModeAssertingProperties(
        @DefaultValue("120s") Duration lifetime,
        @DefaultValue("lazy") ZkpTiming zkp,
        @DefaultValue("80") @Min(1) @Max(256) int zkpRounds) {}
