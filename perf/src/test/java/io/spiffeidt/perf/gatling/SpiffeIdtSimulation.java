package io.spiffeidt.perf.gatling;

import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.rampUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.responseTimeInMillis;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.CoreDsl;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.Session;
import io.gatling.javaapi.core.Simulation;
import io.gatling.javaapi.http.HttpProtocolBuilder;
import io.spiffeidt.perf.report.Capacity;
import io.spiffeidt.perf.report.ReportMain;
import io.spiffeidt.perf.report.Soak;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Every mode's two phases (mint; use = balance then deposit) per stack configuration, in sequence:
 * for each configuration the stack is (re)started, tokens of distinct test users are fetched from the
 * IdP, then per mode and phase a warm-up, a scrape of every workload, the measured phase at a
 * constant arrival rate, and another scrape. The report is generated at the end (docs/measurement.md).
 */
public class SpiffeIdtSimulation extends Simulation {

    private final PerfSettings settings = PerfSettings.fromSystemProperties();
    private final Probe probe = new Probe(settings.dataDir());
    private final StackProcess stack =
            settings.embedded() ? new StackProcess(settings.dataDir().resolve("stack-logs")) : null;
    private final String baseUrl = settings.embedded() ? stack.subjectUrl() : settings.baseUrl();
    private final String idpUrl = settings.embedded() ? stack.idpUrl() : settings.idpUrl();
    private final Map<String, String> metricsUrls = settings.embedded()
            ? stack.metricsUrls()
            : settings.metricsUrlsGiven() ? settings.metricsUrls() : probe.answering(settings.metricsUrls());
    private volatile List<String> tokens = List.of();
    private final AtomicLong nextUser = new AtomicLong();
    private RotationPlan rotation;

    /** Round robin over the current tokens: concurrent virtual users get distinct users. */
    private final Iterator<Map<String, Object>> feeder = new Iterator<>() {
        @Override
        public boolean hasNext() {
            return true;
        }

        @Override
        public Map<String, Object> next() {
            List<String> t = tokens;
            if (t.isEmpty()) {
                throw new IllegalStateException("no tokens fetched");
            }
            return Map.of("token", t.get((int) (nextUser.getAndIncrement() % t.size())));
        }
    };

    {
        if (idpUrl == null) {
            throw new IllegalArgumentException("-Dspiffeidt.base-url needs -Dspiffeidt.idp-url too");
        }
        // shared connections, as many as requests in flight: Gatling's maxConnectionsPerHost does not bound a
        // shared pool (docs/results/2026-11-27-capacity-embedded.md: up to 67 connections counted on the wire)
        HttpProtocolBuilder protocol = http.baseUrl(baseUrl).shareConnections();
        protocol = protocol.disableCaching().acceptHeader("application/json").userAgentHeader("spiffeidt-perf");

        List<PopulationBuilder> chain = new ArrayList<>();
        CapacityPlan capacity =
                settings.capacity() == null ? null : new CapacityPlan(settings.capacity(), probe, feeder);
        SoakPlan soak = settings.soak() == null ? null : new SoakPlan(settings.soak(), probe, feeder, settings.modes());
        rotation = settings.rotation() == null
                ? null
                : new RotationPlan(settings.rotation(), settings.dataDir(), feeder, settings.modes());
        for (PerfSettings.Configuration config : settings.configurations()) {
            String label = config.label();
            chain.add(control("start " + label, () -> start(config)));
            if (rotation != null) {
                chain.add(rotation.population());
                continue;
            }
            if (soak != null) {
                // the load and the sampler side by side, after the start
                PopulationBuilder[] side = soak.populations(label, () -> probe.soakSample(metricsUrls, pid()));
                chain.set(chain.size() - 1, chain.get(chain.size() - 1).andThen(side));
                continue;
            }
            if (capacity != null) {
                chain.addAll(capacity.populations(
                        label,
                        settings.modes(),
                        (phase, point) -> probe.scrape(label, phase, point, metricsUrls, pid(), settings.containers()),
                        this::pid));
                continue;
            }
            for (String mode : settings.modes()) {
                for (String phase : List.of("mint", "use")) {
                    double rate = phase.equals("mint") ? settings.mintRate() : settings.useRate();
                    String name = label + " " + mode + " " + phase;
                    chain.add(load(label, mode, phase, true)
                            .injectOpen(rampUsersPerSec(1)
                                    .to(rate)
                                    .during(settings.warmUp().toSeconds())));
                    chain.add(control(
                            name + " scrape before",
                            () -> probe.scrape(
                                    label, mode + "-" + phase, "before", metricsUrls, pid(), settings.containers())));
                    chain.add(load(label, mode, phase, false)
                            .injectOpen(constantUsersPerSec(rate)
                                    .during(settings.measure().toSeconds())));
                    chain.add(control(
                            name + " scrape after",
                            () -> probe.scrape(
                                    label, mode + "-" + phase, "after", metricsUrls, pid(), settings.containers())));
                }
            }
        }
        PopulationBuilder root = chain.get(chain.size() - 1);
        for (int i = chain.size() - 2; i >= 0; i--) {
            root = chain.get(i).andThen(root);
        }
        if (rotation != null) {
            // deploy/rotation-load/run.sh judges the answers (rotation.csv) window by window
            setUp(root).protocols(protocol);
        } else if (capacity == null) {
            setUp(root)
                    .protocols(protocol)
                    .assertions(global().failedRequests().count().is(0L));
        } else {
            // past the knee, 503 is the expected answer: the capacity check is made on the steps (after())
            setUp(root).protocols(protocol);
        }
    }

    private long pid() {
        return stack == null ? -1 : stack.pid();
    }

    private void start(PerfSettings.Configuration config) {
        if (stack != null) {
            Map<String, String> props = new LinkedHashMap<>();
            props.put("spiffeidt.pooling.profile", config.pooling());
            props.put("spiffeidt.oauth.jwks-cache", config.jwksCache());
            props.put("spiffeidt.memo.enabled", Boolean.toString(config.memo()));
            stack.start(props);
            probe.environment(Map.of("stack.jvm.pid." + config.label(), Long.toString(stack.pid())));
        }
        tokens = probe.tokens(idpUrl, settings.users());
    }

    private static PopulationBuilder control(String name, Runnable action) {
        return scenario(name)
                .exec(session -> {
                    action.run();
                    return session;
                })
                .injectOpen(atOnceUsers(1));
    }

    private io.gatling.javaapi.core.ScenarioBuilder load(String label, String mode, String phase, boolean warmUp) {
        String scenarioName = label + " " + mode + " " + phase + (warmUp ? " warm-up" : "");
        String prefix = warmUp ? "warm-up " : "";
        ChainBuilder requests;
        if (phase.equals("mint")) {
            requests = request(label, mode, phase, prefix, "mint", null, warmUp);
        } else {
            requests = request(label, mode, phase, prefix, "balance", null, warmUp)
                    .exec(request(label, mode, phase, prefix, "deposit", "{\"amount\": 1}", warmUp));
        }
        return scenario(scenarioName).feed(feeder).exec(requests);
    }

    private ChainBuilder request(
            String label, String mode, String phase, String prefix, String op, String body, boolean warmUp) {
        var builder = http(prefix + label + " " + mode + " " + op)
                .post("/api/" + mode + "/" + op)
                .header("Authorization", "Bearer #{token}")
                .check(responseTimeInMillis().saveAs("rt"), status().is(200));
        if (body != null) {
            builder = builder.body(StringBody(body)).asJson();
        }
        return CoreDsl.exec(builder).exec(session -> record(session, label, mode, phase, op, warmUp));
    }

    private Session record(Session session, String label, String mode, String phase, String op, boolean warmUp) {
        long rt = session.contains("rt") ? session.getLong("rt") : -1;
        probe.request(label, mode, warmUp ? phase + "-warm-up" : phase, op, rt, !session.isFailed() && rt >= 0);
        return session.remove("rt").markAsSucceeded();
    }

    @Override
    public void before() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("load.before", Probe.loadAverage());
        env.put("target", settings.embedded() ? "embedded (DevStackMain in a separate JVM)" : baseUrl);
        env.put("deployment", settings.deployment());
        env.put("metrics", metricsUrls.isEmpty() ? "none" : String.join(", ", metricsUrls.values()));
        if (!settings.containers().isEmpty()) {
            env.put("containers", new java.util.TreeMap<>(settings.containers()).toString());
        }
        env.put("profile", settings.profile());
        env.put("started", java.time.Instant.now().toString());
        env.put("java.version", System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")");
        env.put("java.vm", System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version"));
        env.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        env.put("cpu.cores", Integer.toString(Runtime.getRuntime().availableProcessors()));
        env.put("cpu.model", Environment.cpuModel());
        env.put("git.revision", Environment.gitRevision());
        env.put("measure.seconds", Long.toString(settings.measure().toSeconds()));
        env.put(
                "rates",
                settings.mintRate() + ", " + settings.useRate() + " / "
                        + settings.warmUp().toSeconds() + " s / "
                        + settings.measure().toSeconds() + " s");
        env.put("configurations", settings.configurations().toString());
        if (settings.capacity() != null) {
            PerfSettings.Capacity c = settings.capacity();
            env.put("capacity.rates", c.rates().toString());
            env.put("capacity.step.seconds", Long.toString(c.step().toSeconds()));
            env.put("capacity.p99-ms", Long.toString(c.p99LimitMs()));
            env.put("capacity.requests", String.join(",", c.requests()));
        }
        if (stack != null) {
            stack.ports().forEach((k, v) -> env.put("port." + k, Integer.toString(v)));
        }
        probe.environment(env);
    }

    @Override
    public void after() {
        probe.environment(Map.of(
                "load.after",
                Probe.loadAverage(),
                "finished",
                java.time.Instant.now().toString()));
        if (stack != null) {
            stack.stop();
        }
        probe.close();
        if (rotation != null) {
            rotation.close();
            System.out.println(
                    "rotation: " + settings.dataDir().resolve("rotation.csv").toAbsolutePath());
            return;
        }
        // every deployment's run beside this one (target/runs/<deployment>) makes a column of the report
        Path runs = settings.dataDir().getParent();
        Path target = runs.getParent();
        if (settings.soak() != null) {
            checkSoak(target.resolve("report"));
            return;
        }
        if (settings.capacity() != null) {
            Path md = Capacity.generate(runs, target.resolve("report"));
            System.out.println("capacity: " + (md == null ? "no steps ran" : md.toAbsolutePath()));
            checkCapacity();
            return;
        }
        Path jmh = target.resolve("jmh").resolve("results.json");
        Path index = ReportMain.generate(runs, target.resolve("report"), Files.exists(jmh) ? jmh : null);
        checkReport(index.resolveSibling("report.md"));
    }

    /**
     * Writes {@code soak.md} and fails the run when the heap after GC, resident memory, threads or sockets
     * grew (Gatling itself fails it on any failed request).
     */
    private void checkSoak(Path reportDir) {
        PerfSettings.Soak s = settings.soak();
        long requests = 0;
        try (var lines = Files.lines(settings.dataDir().resolve("requests.csv"))) {
            requests = lines.count() - 1;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        Soak.Verdict v = Soak.report(
                settings.dataDir(),
                reportDir,
                s.warmUp(),
                List.of(
                        "modes " + String.join(", ", settings.modes()) + "; " + s.rate() + " use sessions/s and "
                                + s.rate() / 10 + " mints/s for " + s.duration().toSeconds() + " s",
                        "requests answered: " + requests,
                        "load average before " + Probe.loadAverage().split(" ", 4)[0] + " (1 min)",
                        "git " + Environment.gitRevision() + ", Java " + System.getProperty("java.version")));
        System.out.println("soak: " + reportDir.resolve("soak.md").toAbsolutePath() + " " + v.figures());
        if (!v.flat()) {
            throw new IllegalStateException("the soak was not flat: " + v.findings());
        }
    }

    /**
     * Fails a capacity run whose load degraded into anything but 200, 503 {@code OVERLOADED} with {@code
     * Retry-After} or 504: a 500, 502, a time-out or a refused or reset connection is a collapse.
     */
    private void checkCapacity() {
        List<String> collapsed = new ArrayList<>();
        long steps = 0;
        for (var s : Capacity.stepsOf(settings.dataDir(), settings.capacity().p99LimitMs())) {
            steps++;
            var v = s.v();
            if (v.other() > 0 || v.overloaded() != v.overloadedWithRetryAfter()) {
                collapsed.add(s.name() + ": " + v.other() + " other answers, "
                        + (v.overloaded() - v.overloadedWithRetryAfter()) + " 503 without Retry-After");
            }
        }
        if (steps == 0) {
            throw new IllegalStateException("no capacity step ran");
        }
        if (!collapsed.isEmpty()) {
            throw new IllegalStateException("the stack collapsed instead of shedding load: " + collapsed);
        }
    }

    /**
     * Fails the run unless the report has an end-to-end row of this deployment without errors for every
     * mode and phase.
     */
    private void checkReport(Path markdown) {
        String md;
        try {
            md = Files.readString(markdown);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        List<String> missing = new ArrayList<>();
        for (PerfSettings.Configuration c : settings.configurations()) {
            for (String mode : settings.modes()) {
                for (String request : List.of("mint", "balance", "deposit")) {
                    String row =
                            "| " + settings.deployment() + " | " + c.label() + " | " + mode + " | " + request + " | ";
                    if (md.lines()
                            .noneMatch(l -> l.startsWith(row)
                                    && l.substring(row.length()).matches("\\d+ \\| 0 \\|.*"))) {
                        missing.add(c.label() + " " + mode + " " + request);
                    }
                }
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException("the report lacks an error-free end-to-end row for " + missing);
        }
        // the comparison table has a row for every mode this run measured
        List<String> comparison = section(md, "### Comparison of the approaches");
        for (String mode : settings.modes()) {
            if (comparison.stream().noneMatch(l -> l.startsWith("| " + mode + " | "))) {
                missing.add(mode);
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException("the report's comparison table lacks a row for " + missing);
        }
        System.out.println("report: " + markdown.resolveSibling("index.html").toAbsolutePath());
    }

    /** The lines of the Markdown section that starts with {@code heading}, up to the next heading. */
    private static List<String> section(String md, String heading) {
        List<String> out = new ArrayList<>();
        boolean in = false;
        for (String line : md.lines().toList()) {
            if (line.startsWith("#")) {
                in = line.startsWith(heading);
            } else if (in) {
                out.add(line);
            }
        }
        return out;
    }
}
