package io.spiffeidt.perf.gatling;

import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.rampUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.responseTimeInMillis;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.CoreDsl;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.Session;
import io.spiffeidt.perf.report.Soak;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The {@code soak} profile: every mode mixed at a constant arrival rate (reached by a ramp during
 * the warm-up) for a long time — use
 * sessions (balance, then a deposit with its own {@code Idempotency-Key}) round robin over the modes, and
 * mints at a tenth of that rate — while a sampler records, every few seconds, the stack's heap after a
 * collection, resident memory, threads, sockets and memo entries ({@link Soak}). Gatling fails the run on
 * any failed request; {@link Soak#judge} on growth.
 *
 * <p>Thread safety: the round-robin counters are atomic; {@link Probe} is synchronized.
 */
final class SoakPlan {

    private final PerfSettings.Soak soak;
    private final Probe probe;
    private final Iterator<Map<String, Object>> feeder;
    private final List<String> modes;
    private final AtomicLong nextUse = new AtomicLong();
    private final AtomicLong nextMint = new AtomicLong();

    SoakPlan(PerfSettings.Soak soak, Probe probe, Iterator<Map<String, Object>> feeder, List<String> modes) {
        this.soak = soak;
        this.probe = probe;
        this.feeder = feeder;
        this.modes = modes;
    }

    /**
     * The load and the sampler, to run side by side after the stack started.
     *
     * @param sample takes one sample (called by the sampler every {@code sampleEvery})
     */
    PopulationBuilder[] populations(String label, Supplier<Soak.Sample> sample) {
        long seconds = soak.duration().toSeconds();
        long ramp = Math.min(soak.warmUp().toSeconds(), seconds / 2);
        ChainBuilder use = CoreDsl.exec(
                        session -> session.set("mode", modes.get((int) (nextUse.getAndIncrement() % modes.size())))
                                .set("key", UUID.randomUUID().toString()))
                .exec(request(label, "balance", null))
                .exec(request(label, "deposit", "{\"amount\": 1}"));
        ChainBuilder mint = CoreDsl.exec(
                        session -> session.set("mode", modes.get((int) (nextMint.getAndIncrement() % modes.size()))))
                .exec(request(label, "mint", null));
        return new PopulationBuilder[] {
            // a freshly started stack: the rate ramps up during the warm-up (whose samples are not judged),
            // then holds; at full rate from the first second a cold stack shed a few requests (503)
            scenario("soak use")
                    .feed(feeder)
                    .exec(use)
                    .injectOpen(
                            rampUsersPerSec(1).to(soak.rate()).during(ramp),
                            constantUsersPerSec(soak.rate()).during(seconds - ramp)),
            scenario("soak mint")
                    .feed(feeder)
                    .exec(mint)
                    .injectOpen(
                            rampUsersPerSec(0.1).to(soak.rate() / 10).during(ramp),
                            constantUsersPerSec(soak.rate() / 10).during(seconds - ramp)),
            scenario("soak sampler")
                    .during(seconds)
                    .on(CoreDsl.pause(soak.sampleEvery()).exec(session -> {
                        Soak.append(probe.dir(), sample.get());
                        return session;
                    }))
                    .injectOpen(atOnceUsers(1))
        };
    }

    private ChainBuilder request(String label, String op, String body) {
        var builder = http("soak #{mode} " + op)
                .post("/api/#{mode}/" + op)
                .header("Authorization", "Bearer #{token}")
                .check(responseTimeInMillis().saveAs("rt"), status().is(200));
        if (body != null) {
            builder = builder.header("Idempotency-Key", "\"#{key}\"")
                    .body(StringBody(body))
                    .asJson();
        }
        return CoreDsl.exec(builder).exec(session -> record(session, label, op));
    }

    private Session record(Session session, String label, String op) {
        long rt = session.contains("rt") ? session.getLong("rt") : -1;
        probe.request(label, session.getString("mode"), "soak", op, rt, !session.isFailed() && rt >= 0);
        return session.remove("rt");
    }
}
