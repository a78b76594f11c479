package io.spiffeidt.support.warmup;

import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The start-up warm-up of a workload ({@code spiffeidt.warm-up.*}; docs/operations.md "Warming up before
 * ready"). Off unless {@code requests} is set above 0.
 *
 * @param requests how many calls the workload makes to its own server before it reports ready; 0: none
 * @param timeLimit the longest the warm-up may hold readiness back; it stops there and reports ready
 * @param paths the paths it POSTs to, round robin; unset or empty: every POST endpoint of the mTLS port that
 *     declares its allowed callers (none of which allows the workload itself)
 */
@ConfigurationProperties("spiffeidt.warm-up")
public record WarmUpProperties(
        @DefaultValue("0") int requests, @DefaultValue("60s") Duration timeLimit, @DefaultValue List<String> paths) {

    public WarmUpProperties {
        if (requests < 0) {
            throw new IllegalArgumentException("spiffeidt.warm-up.requests must not be negative");
        }
        if (timeLimit == null || timeLimit.isNegative() || timeLimit.isZero()) {
            throw new IllegalArgumentException("spiffeidt.warm-up.time-limit must be positive");
        }
        paths = List.copyOf(paths == null ? List.of() : paths);
        for (String path : paths) {
            if (!path.startsWith("/") || path.startsWith("//") || path.contains("{") || path.contains("?")) {
                throw new IllegalArgumentException(
                        "spiffeidt.warm-up.paths: each must be a path starting with one /, without variables or a"
                                + " query: " + path);
            }
        }
    }
}
