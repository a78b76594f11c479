package io.spiffeidt.support.metrics;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The {@code Server-Timing} header and its sibling {@code Wire-Bytes} ({@code
 * spiffeidt.server-timing.*}).
 *
 * @param enabled whether every answer carries this workload's and its downstreams' timings, and the
 *     bytes of their calls ({@code Wire-Bytes}) (default on; switch it off where callers must not learn
 *     where the time goes; the metrics are recorded either way)
 */
@ConfigurationProperties("spiffeidt.server-timing")
public record ServerTimingProperties(@DefaultValue("true") boolean enabled) {}
