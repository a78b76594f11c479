package io.spiffeidt.perf.gatling;

import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.rampUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.responseTimeInMillis;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.header;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.CoreDsl;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Session;
import io.spiffeidt.perf.report.Capacity;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;

/**
 * The {@code capacity} profile: per mode and request, an open-model staircase of arrival
 * rates, each step scraped before and after like a measured phase, until a step misses the target (an
 * answer other than 200, or p99 of the answered requests above the limit) and {@code past} more steps
 * have shown what happens beyond it; the remaining steps of that staircase inject users that do nothing.
 * Every answer is recorded with its status and whether a 503 carried {@code Retry-After} ({@code
 * capacity.csv}), every step with its offered rate and time window ({@code steps.csv});
 * {@code io.spiffeidt.perf.report.Capacity} turns them into the capacity table and the knee plots.
 *
 * <p>Not thread-safe in construction; the step state is read and written by Gatling's virtual users
 * through atomics and {@link Probe}'s synchronized methods.
 */
final class CapacityPlan {

    private final PerfSettings.Capacity capacity;
    private final Probe probe;
    private final Iterator<Map<String, Object>> feeder;
    private final AtomicBoolean active = new AtomicBoolean(true);
    /** Statuses and times of the step now running (any thread appends, the control step reads). */
    private final List<long[]> current = new ArrayList<>();

    private volatile String step = "";
    private volatile long stepStart;
    private int missed;

    CapacityPlan(PerfSettings.Capacity capacity, Probe probe, Iterator<Map<String, Object>> feeder) {
        this.capacity = capacity;
        this.probe = probe;
        this.feeder = feeder;
    }

    /**
     * The populations of one stack configuration, in order: for each mode and request a warm-up ramp to the
     * first rate, then the staircase.
     *
     * @param scrape scrapes every workload into {@code phase/point} (point: before or after)
     * @param pid the stack's process, recorded by JFR during every step when {@code > 0} and the profile
     *     asks for it ({@code jfr/<configuration>/<phase>.jfr})
     */
    List<PopulationBuilder> populations(
            String label, List<String> modes, BiConsumer<String, String> scrape, LongSupplier pid) {
        List<PopulationBuilder> chain = new ArrayList<>();
        for (String mode : modes) {
            for (String request : capacity.requests()) {
                String stair = label + " " + mode + " " + request;
                chain.add(control("capacity " + stair + " reset", () -> {
                    active.set(true);
                    missed = 0;
                }));
                chain.add(load(stair + " warm-up", label, mode, request, null)
                        .injectOpen(rampUsersPerSec(1)
                                .to(capacity.rates().get(0))
                                .during(capacity.warmUp().toSeconds())));
                for (double rate : capacity.rates()) {
                    String phase = mode + "-cap-" + request + "-" + Capacity.rateLabel(rate);
                    chain.add(control("capacity " + stair + " " + rate + "/s before", () -> {
                        if (active.get()) {
                            scrape.accept(phase, "before");
                            if (capacity.jfr() && pid.getAsLong() > 0) {
                                probe.jfrStart(pid.getAsLong(), "capacity-step");
                            }
                            begin(label, mode, request, rate);
                        }
                    }));
                    chain.add(load(stair + " " + rate + "/s", label, mode, request, rate)
                            .injectOpen(constantUsersPerSec(rate)
                                    .during(capacity.step().toSeconds())));
                    chain.add(control("capacity " + stair + " " + rate + "/s after", () -> {
                        if (active.get()) {
                            if (capacity.jfr() && pid.getAsLong() > 0) {
                                probe.jfrStop(
                                        pid.getAsLong(),
                                        "capacity-step",
                                        probe.dir()
                                                .resolve("jfr")
                                                .resolve(label)
                                                .resolve(phase + ".jfr"));
                            }
                            scrape.accept(phase, "after");
                            end(label, mode, request, rate);
                        }
                    }));
                }
            }
        }
        return chain;
    }

    private synchronized void begin(String label, String mode, String request, double rate) {
        current.clear();
        step = label + "," + mode + "," + request + "," + rate;
        stepStart = System.currentTimeMillis();
    }

    /** Records the step and decides whether the staircase goes on. */
    private void end(String label, String mode, String request, double rate) {
        long[][] answers;
        synchronized (this) {
            answers = current.toArray(new long[0][]);
            current.clear();
            step = "";
        }
        long end = System.currentTimeMillis();
        Capacity.Verdict v = Capacity.verdict(answers, capacity.p99LimitMs());
        probe.capacityStep(label, mode, request, rate, stepStart, end, v);
        System.out.printf("capacity: %s %s %s %.0f/s -> %s%n", label, mode, request, rate, v.summary(answers.length));
        if (!v.held()) {
            missed++;
            if (missed > capacity.past()) {
                active.set(false);
            }
        }
    }

    private synchronized void answered(String stepKey, long status, long ms, long retryAfter) {
        if (stepKey.equals(step)) {
            current.add(new long[] {status, ms, retryAfter});
        }
    }

    private static PopulationBuilder control(String name, Runnable action) {
        return scenario(name)
                .exec(session -> {
                    action.run();
                    return session;
                })
                .injectOpen(atOnceUsers(1));
    }

    /** A scenario of one request per user; {@code rate == null} for the warm-up, which is not recorded. */
    private ScenarioBuilder load(String name, String label, String mode, String request, Double rate) {
        String key = rate == null ? null : label + "," + mode + "," + request + "," + rate;
        var builder = http((rate == null ? "warm-up " : "") + label + " " + mode + " " + request)
                .post("/api/" + mode + "/" + request)
                .header("Authorization", "Bearer #{token}")
                .check(
                        responseTimeInMillis().saveAs("rt"),
                        status().saveAs("status"),
                        header("Retry-After").optional().saveAs("retryAfter"));
        if (request.equals("deposit")) {
            builder = builder.body(StringBody("{\"amount\": 1}")).asJson();
        }
        ChainBuilder body = CoreDsl.exec(builder).exec(session -> record(session, key, label, mode, request));
        return scenario(name)
                .doIf(session -> active.get())
                .then(CoreDsl.feed(feeder).exec(body));
    }

    private Session record(Session session, String key, String label, String mode, String request) {
        long rt = session.contains("rt") ? session.getLong("rt") : -1;
        int status = session.contains("status") ? session.getInt("status") : 0;
        long retryAfter = session.contains("retryAfter") ? 1 : 0;
        if (key != null) {
            probe.capacityRequest(
                    label, mode, request, key.substring(key.lastIndexOf(',') + 1), status, rt, retryAfter);
            answered(key, status, rt, retryAfter);
        }
        return session.remove("rt").remove("status").remove("retryAfter").markAsSucceeded();
    }
}
