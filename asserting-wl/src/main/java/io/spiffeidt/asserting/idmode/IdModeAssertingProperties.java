package io.spiffeidt.asserting.idmode;

import io.spiffeidt.asserting.introspection.ZkpTiming;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * ID-Mode settings of the asserting workload, under the mode's one prefix {@code spiffeidt.id-mode}
 * (beside the target workload's {@code introspect}).
 *
 * @param lifetime lifetime of a root layer (never longer than the OAuth token or the own SVID)
 * @param zkp when the proof for {@code POST /id-mode/introspect} is made: {@code lazy} (default, at
 *     the first introspection, as the original did), {@code at-mint}, or {@code off} (introspection
 *     then answers 404)
 * @param zkpRounds proof rounds (1..256)
 */
@ConfigurationProperties("spiffeidt.id-mode")
@Validated
public record IdModeAssertingProperties(
        @DefaultValue("120s") Duration lifetime,
        @DefaultValue("lazy") ZkpTiming zkp,
        @DefaultValue("80") @Min(1) @Max(256) int zkpRounds) {}
