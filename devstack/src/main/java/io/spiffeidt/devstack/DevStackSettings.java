package io.spiffeidt.devstack;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What the launcher starts and where.
 *
 * @param trustDomain the SPIFFE trust domain
 * @param socketDir where the per-workload Workload API sockets go, or {@code null} for a fresh
 *     directory under the system temp directory
 * @param ports listening ports by component ({@code subject-wl}, {@code asserting-wl}, {@code
 *     m-tier}, {@code target-wl}, {@code idp}) and management ports by {@code <component>.management};
 *     {@code 0} picks a free port
 * @param svidTtl lifetime of the X.509-SVIDs (rotated at half-life)
 * @param properties extra properties for every workload (e.g. {@code spiffeidt.pooling.profile})
 * @param workloadProperties extra properties per component
 */
public record DevStackSettings(
        String trustDomain,
        Path socketDir,
        Map<String, Integer> ports,
        Duration svidTtl,
        Map<String, String> properties,
        Map<String, Map<String, String>> workloadProperties) {

    /** The default ports of the README. */
    public static final Map<String, Integer> DEFAULT_PORTS = Map.of(
            "subject-wl", 8080,
            "asserting-wl", 8443,
            "target-wl", 8444,
            "m-tier", 8445,
            "idp", 9000,
            "subject-wl.management", 18080,
            "asserting-wl.management", 18443,
            "target-wl.management", 18444,
            "m-tier.management", 18445);

    /** Copies the maps. */
    public DevStackSettings {
        Objects.requireNonNull(trustDomain, "trustDomain");
        Map<String, Integer> merged = new LinkedHashMap<>(DEFAULT_PORTS);
        merged.putAll(ports);
        ports = Map.copyOf(merged);
        Objects.requireNonNull(svidTtl, "svidTtl");
        properties = Map.copyOf(properties);
        Map<String, Map<String, String>> copy = new LinkedHashMap<>();
        workloadProperties.forEach((k, v) -> copy.put(k, Map.copyOf(v)));
        workloadProperties = Map.copyOf(copy);
    }

    /** The defaults: example.org, the README's ports, a fresh socket directory, 1 h SVIDs. */
    public static DevStackSettings defaults() {
        return new DevStackSettings("example.org", null, Map.of(), Duration.ofHours(1), Map.of(), Map.of());
    }

    /** Every port 0 (free ports): for tests. */
    public static DevStackSettings ephemeral() {
        Map<String, Integer> zero = new LinkedHashMap<>();
        DEFAULT_PORTS.keySet().forEach(k -> zero.put(k, 0));
        return new DevStackSettings("example.org", null, zero, Duration.ofHours(1), Map.of(), Map.of());
    }

    /** A copy with one more property for every workload. */
    public DevStackSettings withProperty(String key, String value) {
        Map<String, String> p = new LinkedHashMap<>(properties);
        p.put(key, value);
        return new DevStackSettings(trustDomain, socketDir, ports, svidTtl, p, workloadProperties);
    }

    /** A copy with one more property for one component. */
    public DevStackSettings withWorkloadProperty(String component, String key, String value) {
        Map<String, Map<String, String>> w = new LinkedHashMap<>(workloadProperties);
        Map<String, String> p = new LinkedHashMap<>(w.getOrDefault(component, Map.of()));
        p.put(key, value);
        w.put(component, p);
        return new DevStackSettings(trustDomain, socketDir, ports, svidTtl, properties, w);
    }

    /** A copy with another socket directory. */
    public DevStackSettings withSocketDir(Path dir) {
        return new DevStackSettings(trustDomain, dir, ports, svidTtl, properties, workloadProperties);
    }

    /** A copy with one port set. */
    public DevStackSettings withPort(String key, int port) {
        Map<String, Integer> p = new LinkedHashMap<>(ports);
        p.put(key, port);
        return new DevStackSettings(trustDomain, socketDir, p, svidTtl, properties, workloadProperties);
    }
}
