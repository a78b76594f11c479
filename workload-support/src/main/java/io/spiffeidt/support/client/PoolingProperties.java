package io.spiffeidt.support.client;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.validation.annotation.Validated;

/**
 * Outbound connection strategies and HTTP client limits ({@code spiffeidt.pooling.*}; docs/design.md
 * "Connections"). Defaults are written once, in the {@link DefaultValue} annotations.
 *
 * <p>Thread safety: immutable.
 *
 * @param profile sets the connection strategy of every downstream at once
 * @param overrides per-downstream connection strategies keyed {@code <mode>.<downstream>}, e.g.
 *     {@code dvid.asserting-wl} (in an environment variable {@code
 *     SPIFFEIDT_POOLING_OVERRIDES_DVID_ASSERTINGWL}); a key that names no mode and workload fails the
 *     start; unset for a downstream: the profile's strategy
 * @param connectTimeout TCP connect timeout
 * @param responseTimeout response timeout
 * @param maxConnections pool size per downstream
 * @param validateAfterInactivity a pooled connection idle longer than this is checked before reuse
 *     (a read that waits 1 ms on a live connection), so that one the downstream closed does not fail
 *     the next request; keep it below the time a downstream takes to restart
 */
@ConfigurationProperties("spiffeidt.pooling")
@Validated
public record PoolingProperties(
        @DefaultValue("thesis") @NotNull PoolingProfile profile,
        Map<String, ConnectionStrategy> overrides,
        @DefaultValue("2s") @NotNull Duration connectTimeout,
        @DefaultValue("10s") @NotNull Duration responseTimeout,
        @DefaultValue("64") @Positive int maxConnections,
        @DefaultValue("500ms") @NotNull Duration validateAfterInactivity) {

    /** Normalises the override keys ({@link PoolingTable#canonicalOverrideKey}). */
    public PoolingProperties {
        Map<String, ConnectionStrategy> canonical = new LinkedHashMap<>();
        if (overrides != null) {
            // the binder puts the highest-precedence source's entries first: they win
            overrides.forEach(
                    (key, strategy) -> canonical.putIfAbsent(PoolingTable.canonicalOverrideKey(key), strategy));
        }
        overrides = Map.copyOf(canonical);
    }

    /** The defaults with the given profile, overrides and pool size (for tests and tools). */
    public static PoolingProperties of(
            PoolingProfile profile, Map<String, ConnectionStrategy> overrides, int maxConnections) {
        PoolingProperties d = new Binder(new MapConfigurationPropertySource(Map.of()))
                .bindOrCreate("spiffeidt.pooling", PoolingProperties.class);
        return new PoolingProperties(
                profile,
                overrides,
                d.connectTimeout(),
                d.responseTimeout(),
                maxConnections,
                d.validateAfterInactivity());
    }
}
