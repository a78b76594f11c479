package io.spiffeidt.perf.gatling;

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
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The {@code rotation} profile: {@code balance} of every mode, round robin, at one
 * constant arrival rate after a ramp, against a deployment whose SVIDs rotate while it runs
 * (deploy/rotation-load/run.sh finds when, and judges the latency around each rotation).
 *
 * <p>Open model without coordinated omission: Gatling injects the users of the constant phase at a fixed
 * interval, and the {@code i}-th of them was due at {@code t0 + i / rate} ({@code t0}: when the first one
 * ran). Its latency counts from the earlier of that due time and the moment it actually ran to its answer,
 * so a generator or a stack that falls behind shows as latency, not as fewer requests. Every answer of the
 * constant phase is written to {@code rotation.csv}: {@code mode,due_epoch_ms,end_epoch_ms,latency_ms,
 * gatling_ms,status} (status 0 when no answer came); the ramp's answers are written with phase {@code
 * warm-up} and not judged.
 *
 * <p>Thread safety: the counters are atomic, the writer is guarded by this object's monitor.
 */
final class RotationPlan implements AutoCloseable {

    /** The columns of {@code rotation.csv}. */
    static final String HEADER = "phase,mode,due_epoch_ms,end_epoch_ms,latency_ms,gatling_ms,status";

    private final PerfSettings.Rotation rotation;
    private final Iterator<Map<String, Object>> feeder;
    private final List<String> modes;
    private final AtomicLong next = new AtomicLong();
    private final AtomicLong due = new AtomicLong();
    private final AtomicLong t0 = new AtomicLong(-1);
    private final BufferedWriter out;

    RotationPlan(PerfSettings.Rotation rotation, Path dir, Iterator<Map<String, Object>> feeder, List<String> modes) {
        this.rotation = rotation;
        this.feeder = feeder;
        this.modes = modes;
        try {
            Files.createDirectories(dir);
            out = Files.newBufferedWriter(dir.resolve("rotation.csv"), StandardCharsets.UTF_8);
            out.write(HEADER + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The ramp, then the constant rate (started when every user of the ramp has its answer). */
    PopulationBuilder population() {
        return scenario("rotation warm-up")
                .feed(feeder)
                .exec(balance("warm-up"))
                .injectOpen(rampUsersPerSec(1)
                        .to(rotation.rate())
                        .during(rotation.warmUp().toSeconds()))
                .andThen(scenario("rotation load")
                        .feed(feeder)
                        .exec(balance("load"))
                        .injectOpen(constantUsersPerSec(rotation.rate())
                                .during(rotation.duration().toSeconds())));
    }

    private ChainBuilder balance(String phase) {
        boolean measured = phase.equals("load");
        return CoreDsl.exec(session -> {
                    long now = System.currentTimeMillis();
                    long sent = now;
                    if (measured) {
                        long i = due.getAndIncrement();
                        t0.compareAndSet(-1, now);
                        sent = Math.min(now, t0.get() + Math.round(i * 1000.0 / rotation.rate()));
                    }
                    return session.set("mode", modes.get((int) (next.getAndIncrement() % modes.size())))
                            .set("due", sent);
                })
                .exec(http("rotation #{mode} balance")
                        .post("/api/#{mode}/balance")
                        .header("Authorization", "Bearer #{token}")
                        .check(responseTimeInMillis().saveAs("rt"), status().saveAs("status"), status().is(200)))
                .exec(session -> record(session, phase));
    }

    private Session record(Session session, String phase) {
        long end = System.currentTimeMillis();
        long due = session.getLong("due");
        long rt = session.contains("rt") ? session.getLong("rt") : -1;
        int status = session.contains("status") ? session.getInt("status") : 0;
        String line = String.join(
                ",",
                phase,
                session.getString("mode"),
                Long.toString(due),
                Long.toString(end),
                Long.toString(end - due),
                Long.toString(rt),
                Integer.toString(status));
        synchronized (this) {
            try {
                out.write(line);
                out.write('\n');
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        // judged from rotation.csv; Gatling's own statistics count answers other than 200 as failed too
        return session.remove("rt").remove("status").remove("due");
    }

    @Override
    public synchronized void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
