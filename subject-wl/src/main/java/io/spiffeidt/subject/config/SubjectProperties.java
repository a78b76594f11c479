package io.spiffeidt.subject.config;

import jakarta.validation.constraints.Min;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Settings of the subject workload ({@code spiffeidt.subject.*}).
 *
 * @param renewBefore a kept document this close to its expiry is minted again before use
 * @param maxSessions bound of the per-user document store
 */
@ConfigurationProperties("spiffeidt.subject")
@Validated
public record SubjectProperties(
        @DefaultValue("5s") Duration renewBefore, @DefaultValue("100000") @Min(1) int maxSessions) {}
