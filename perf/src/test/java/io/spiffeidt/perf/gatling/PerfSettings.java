package io.spiffeidt.perf.gatling;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one Gatling run measures, from system properties (docs/measurement.md lists them).
 *
 * @param profile {@code quick} (default), {@code ci} durations and rates, {@code capacity} (a staircase of
 *     arrival rates per mode and request, {@link Capacity}), {@code soak} (all modes mixed for long, {@link
 *     Soak}) or {@code rotation} (one constant rate of {@code balance} against a deployment, {@link Rotation})
 * @param configurations pooling profile × JWKS cache pairs, each run on a freshly started stack
 * @param modes the modes (path segments)
 * @param mintRate mint requests per second in the measured phase, per mode
 * @param useRate use sessions (balance then deposit) per second, per mode
 * @param warmUp warm-up duration (ramp from 1/s to the rate) before each measured phase
 * @param measure measured phase duration
 * @param baseUrl subject-wl's URL when not embedded, else {@code null}
 * @param idpUrl the IdP's URL when not embedded
 * @param metricsUrls workload name to {@code /actuator/prometheus} URL when not embedded (default: the
 *     base URL's host on Compose's published management ports)
 * @param users how many test users ({@code user0001}...)
 * @param deployment the label the report gives this run's column ({@code embedded} / {@code deployment}
 *     unless {@code -Dspiffeidt.perf.deployment} names it)
 * @param containers workload name to container name, whose cgroup files are read around each phase
 * @param dataDir where raw data go (requests, scrapes, environment): {@code target/runs/<deployment>}, for
 *     the {@code capacity} profile {@code target/capacity/<deployment>}
 * @param capacity the staircase of the {@code capacity} profile, else {@code null}
 * @param soak the load of the {@code soak} profile, else {@code null}
 * @param rotation the load of the {@code rotation} profile, else {@code null}
 */
record PerfSettings(
        String profile,
        List<Configuration> configurations,
        List<String> modes,
        double mintRate,
        double useRate,
        Duration warmUp,
        Duration measure,
        String baseUrl,
        String idpUrl,
        Map<String, String> metricsUrls,
        int users,
        String deployment,
        Map<String, String> containers,
        Path dataDir,
        Capacity capacity,
        Soak soak,
        Rotation rotation) {

    /** The four documents, the baselines, then the standards track's WIT and WPT with a Txn-Token. */
    static final List<String> ALL_MODES =
            List.of("dvid", "id-mode", "anon-mode", "lsvid", "txn-token", "mtls-only", "bearer-forward", "wimse");

    static final List<String> POOLING = List.of("thesis", "pooled", "non-pooled", "fresh-source");
    static final List<String> JWKS = List.of("refresh-ahead", "none");

    /** The management ports Compose publishes (deploy/compose/compose.yaml). */
    static final Map<String, Integer> COMPOSE_MANAGEMENT_PORTS =
            Map.of("subject-wl", 18080, "asserting-wl", 18443, "m-tier", 18445, "target-wl", 18444);

    /**
     * One stack configuration: the pooling profile, the JWKS cache and whether the memos remember
     * anything ({@code spiffeidt.memo.enabled}; off for the {@code thesis} profile, which reproduces
     * the thesis, unless {@code -Dspiffeidt.memo.enabled} says otherwise). The run's {@code
     * run.properties} records all three.
     */
    record Configuration(String pooling, String jwksCache, boolean memo) {
        Configuration(String pooling, String jwksCache) {
            this(
                    pooling,
                    jwksCache,
                    Boolean.parseBoolean(prop("spiffeidt.memo.enabled", String.valueOf(!pooling.equals("thesis")))));
        }

        String label() {
            return pooling + "+" + jwksCache;
        }
    }

    /**
     * The {@code capacity} profile's staircase, per mode and request (docs/measurement.md "Capacity").
     *
     * @param rates the arrival rates of the steps (requests per second), ascending
     * @param step how long each step lasts
     * @param warmUp the ramp to the first rate before each staircase
     * @param requests which requests ({@code balance}, {@code deposit}, {@code mint})
     * @param p99LimitMs a step is held when every answer is 200 and p99 is at most this
     * @param past how many missed steps to run before the staircase stops (to show what happens past the
     *     knee)
     * @param jfr record every step with JFR (the embedded stack only), for the flame graphs
     */
    record Capacity(
            List<Double> rates,
            Duration step,
            Duration warmUp,
            List<String> requests,
            long p99LimitMs,
            int past,
            boolean jfr) {

        static Capacity fromSystemProperties() {
            double start = Double.parseDouble(prop("spiffeidt.perf.capacity.start", "25"));
            double factor = Double.parseDouble(prop("spiffeidt.perf.capacity.factor", "1.5"));
            double max = Double.parseDouble(prop("spiffeidt.perf.capacity.max", "2500"));
            if (start <= 0 || factor <= 1 || max < start) {
                throw new IllegalArgumentException(
                        "spiffeidt.perf.capacity.start > 0, factor > 1 and max >= start are required");
            }
            List<Double> rates = new ArrayList<>();
            for (double r = start; r <= max; r *= factor) {
                rates.add((double) Math.round(r));
            }
            return new Capacity(
                    List.copyOf(rates),
                    Duration.ofSeconds(Long.parseLong(prop("spiffeidt.perf.capacity.step", "10"))),
                    Duration.ofSeconds(Long.parseLong(prop("spiffeidt.perf.warm-up", "20"))),
                    list(prop("spiffeidt.perf.capacity.requests", "balance,deposit,mint")),
                    Long.parseLong(prop("spiffeidt.perf.capacity.p99-ms", "100")),
                    Integer.parseInt(prop("spiffeidt.perf.capacity.past", "2")),
                    Boolean.parseBoolean(prop("spiffeidt.perf.capacity.jfr", "true")));
        }
    }

    /**
     * The {@code soak} profile (docs/measurement.md "Soak").
     *
     * @param rate use sessions (balance, then deposit) per second, all modes round robin; mints at a tenth
     * @param duration how long the load lasts
     * @param sampleEvery the sampler's period
     * @param warmUp the samples of the first part not judged
     */
    record Soak(double rate, Duration duration, Duration sampleEvery, Duration warmUp) {

        static Soak fromSystemProperties() {
            Duration duration = Duration.ofSeconds(Long.parseLong(prop("spiffeidt.perf.soak.duration", "1800")));
            return new Soak(
                    Double.parseDouble(prop("spiffeidt.perf.soak.rate", "30")),
                    duration,
                    Duration.ofSeconds(Long.parseLong(prop("spiffeidt.perf.soak.sample", "10"))),
                    Duration.ofSeconds(Long.parseLong(prop(
                            "spiffeidt.perf.soak.warm-up", Long.toString(Math.min(120, duration.toSeconds() / 5))))));
        }
    }

    /**
     * The {@code rotation} profile (deploy/README.md "SVID rotation under load"): {@code balance}
     * of every mode round robin at one constant arrival rate, after a ramp, against a running deployment;
     * each answer's latency counts from the time its request was due ({@link RotationPlan}).
     *
     * @param rate requests per second, all modes together
     * @param warmUp the ramp from 1/s to the rate (not recorded as measured)
     * @param duration how long the constant rate lasts
     */
    record Rotation(double rate, Duration warmUp, Duration duration) {

        static Rotation fromSystemProperties() {
            String rate = prop("spiffeidt.perf.rotation.rate", null);
            if (rate == null || Double.parseDouble(rate) <= 0) {
                throw new IllegalArgumentException("the rotation profile needs -Dspiffeidt.perf.rotation.rate > 0");
            }
            return new Rotation(
                    Double.parseDouble(rate),
                    Duration.ofSeconds(Long.parseLong(prop("spiffeidt.perf.warm-up", "20"))),
                    Duration.ofSeconds(Long.parseLong(prop("spiffeidt.perf.rotation.duration", "180"))));
        }
    }

    boolean embedded() {
        return baseUrl == null;
    }

    /** Whether {@code -Dspiffeidt.metrics-urls} named the URLs (else they are Compose's defaults). */
    boolean metricsUrlsGiven() {
        String m = System.getProperty("spiffeidt.metrics-urls");
        return m != null && !m.isBlank();
    }

    static PerfSettings fromSystemProperties() {
        String profile = prop("spiffeidt.perf.profile", "quick");
        String matrix = prop("spiffeidt.perf.matrix", profile.equals("ci") ? "ci" : "quick");
        boolean ci = profile.equals("ci");
        boolean capacity = profile.equals("capacity");
        boolean soak = profile.equals("soak");
        boolean rotation = profile.equals("rotation");
        List<Configuration> configs = new ArrayList<>();
        String baseUrl = System.getProperty("spiffeidt.base-url");
        if (rotation && baseUrl == null) {
            throw new IllegalArgumentException(
                    "the rotation profile measures a deployment whose SVIDs rotate: -Dspiffeidt.base-url is required");
        }
        if (baseUrl != null) {
            // a deployment we do not restart: one configuration, labelled by the user
            configs.add(new Configuration(
                    prop("spiffeidt.pooling.profile", "remote"), prop("spiffeidt.oauth.jwks-cache", "remote")));
        } else if (matrix.equals("full")) {
            for (String p : POOLING) {
                for (String j : JWKS) {
                    configs.add(new Configuration(p, j));
                }
            }
        } else if (System.getProperty("spiffeidt.pooling.profile") != null || ci || capacity || soak) {
            configs.add(new Configuration(
                    prop("spiffeidt.pooling.profile", "pooled"), prop("spiffeidt.oauth.jwks-cache", "refresh-ahead")));
        } else {
            configs.add(new Configuration("thesis", "refresh-ahead"));
            configs.add(new Configuration("pooled", "refresh-ahead"));
        }
        List<String> modes = Arrays.stream(prop("spiffeidt.perf.modes", String.join(",", ALL_MODES))
                        .split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .toList();
        Map<String, String> metrics = pairs(System.getProperty("spiffeidt.metrics-urls"));
        if (baseUrl != null && metrics.isEmpty()) {
            URI base = URI.create(baseUrl);
            for (String w : StackProcess.WORKLOADS) {
                metrics.put(
                        w,
                        base.getScheme() + "://" + base.getHost() + ":" + COMPOSE_MANAGEMENT_PORTS.get(w)
                                + "/actuator/prometheus");
            }
        }
        String deployment = prop("spiffeidt.perf.deployment", baseUrl == null ? "embedded" : "deployment");
        if (!deployment.matches("[A-Za-z0-9._-]+")) {
            throw new IllegalArgumentException(
                    "-Dspiffeidt.perf.deployment names a directory: letters, digits, '.', '_', '-' only");
        }
        return new PerfSettings(
                profile,
                List.copyOf(configs),
                modes,
                Double.parseDouble(prop("spiffeidt.perf.mint-rate", ci ? "3" : "4")),
                Double.parseDouble(prop("spiffeidt.perf.use-rate", ci ? "2" : "2")),
                Duration.ofSeconds(Long.parseLong(prop("spiffeidt.perf.warm-up", ci ? "2" : "3"))),
                Duration.ofSeconds(Long.parseLong(prop("spiffeidt.perf.duration", ci ? "3" : "6"))),
                baseUrl,
                prop("spiffeidt.idp-url", null),
                Collections.unmodifiableMap(metrics),
                Integer.parseInt(prop("spiffeidt.perf.users", "100")),
                deployment,
                Map.copyOf(pairs(System.getProperty("spiffeidt.perf.containers"))),
                Path.of(prop("spiffeidt.perf.dir", "target"))
                        .resolve(capacity ? "capacity" : soak ? "soak" : rotation ? "rotation" : "runs")
                        .resolve(deployment),
                capacity ? Capacity.fromSystemProperties() : null,
                soak ? Soak.fromSystemProperties() : null,
                rotation ? Rotation.fromSystemProperties() : null);
    }

    private static List<String> list(String csv) {
        return Arrays.stream(csv.split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .toList();
    }

    /** {@code key=value,...} in order. */
    private static Map<String, String> pairs(String spec) {
        Map<String, String> m = new LinkedHashMap<>();
        if (spec != null) {
            for (String kv : spec.split(",")) {
                int eq = kv.indexOf('=');
                if (eq > 0) {
                    m.put(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
                }
            }
        }
        return m;
    }

    private static String prop(String key, String def) {
        String v = System.getProperty(key);
        return v == null || v.isBlank() ? def : v.trim();
    }
}
