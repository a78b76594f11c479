package io.spiffeidt.support.memo;

import io.micrometer.core.instrument.MeterRegistry;
import io.spiffeidt.core.memo.MemoEvents;
import io.spiffeidt.core.memo.Memos;
import io.spiffeidt.core.zkp.VerifiedProofs;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * The workload's memos (docs/design.md "Memos"): {@link MemoProperties} bound once at {@code
 * spiffeidt.memo}, and the {@link Memos} every hop and verifier makes its named memos with, counted
 * by {@link MemoMetrics}.
 */
// by name: this package imports no other concern of workload-support (no package cycle)
@AutoConfiguration(
        afterName = {
            "io.spiffeidt.support.SpiffeIdtAutoConfiguration",
            "io.spiffeidt.support.metrics.OperationMetricsAutoConfiguration"
        })
@EnableConfigurationProperties(MemoProperties.class)
public class MemoAutoConfiguration {

    /**
     * The memo of verified OAuth proofs, {@code spiffeidt.memo.uses.oauth-proof}: empty, so
     * every use verifies the proof again as the original did, when that memo is off.
     */
    @Bean
    @ConditionalOnMissingBean
    public VerifiedProofs verifiedProofs(Memos memos) {
        return new VerifiedProofs(memos);
    }

    /**
     * The memos by name, with the settings of {@code spiffeidt.memo.uses.<name>}, counted by {@link
     * MemoMetrics} on the application's meter registry (uncounted without one).
     */
    @Bean
    @ConditionalOnMissingBean
    public Memos memos(MemoProperties properties, Clock clock, ObjectProvider<MeterRegistry> registry) {
        // every memo's settings checked now, so that a bad value fails the start, not a request
        MemoProperties.NAMES.forEach(properties::settings);
        MeterRegistry r = registry.getIfAvailable();
        MemoEvents events = r == null ? MemoEvents.NONE : new MemoMetrics(r);
        return Memos.of(properties::settings, clock, events);
    }
}
