package io.spiffeidt.perf.jmh;

import io.spiffeidt.core.Presenter;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.lsvid.LsvidCodec;
import io.spiffeidt.core.lsvid.LsvidSettings;
import io.spiffeidt.core.lsvid.LsvidVerification;
import io.spiffeidt.core.lsvid.LsvidVerifier;
import io.spiffeidt.core.lsvid.LsvidVerifier.DelegationRule;
import io.spiffeidt.perf.jmh.LsvidBenchmarks.Workload;
import java.time.Clock;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What a pause costs the machine: the same operation, one of a middle tier's (the strict LSVID
 * verification at depth 4, Amazon Corretto's provider), called back to back and after the thread
 * slept 1 or 5 ms outside the measured time. Nothing in the operation depends on the pause, so the
 * ratio of the scores is the machine's: a sleeping virtual CPU loses its caches (and the host may
 * run something else on the core), and the first work after it runs slower. A sequential request
 * that comes from a new curl process is such work at every hop; the back-to-back figure is what
 * JMH's other benchmarks report. docs/measurement.md reads the ratio beside {@code
 * perf/scripts/e2e-balance.sh}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
public class IdleBenchmarks {

    /** The pause before each call; the sleep is not measured. */
    @State(Scope.Thread)
    public static class Pause {

        @Param({"0", "1", "5"})
        public int millis;

        @Setup(Level.Invocation)
        public void sleep() throws InterruptedException {
            if (millis > 0) {
                Thread.sleep(millis);
            }
        }
    }

    /** The document m-tier verifies on the thesis path (depth 4), with its presenter. */
    @State(Scope.Benchmark)
    public static class Document {

        private static final int DEPTH = 4;

        LsvidVerifier verifier;
        String encoded;
        SpiffeId audience;
        Presenter presenter;

        @Setup(Level.Trial)
        public void setUp(LsvidBenchmarks.Path path) {
            verifier = new LsvidVerifier(LsvidSettings.strict(
                    path.asserting.id(), path.bundle, Clock.systemUTC(), Providers.of("accp", "EC")));
            encoded = LsvidCodec.encode(path.ofDepth(DEPTH));
            audience = path.hops.get(DEPTH - 1).id();
            Workload by = path.hops.get(DEPTH - 2);
            presenter = new Presenter(by.id(), by.leaf().getPublicKey());
        }
    }

    /** {@link LsvidBenchmarks#verify} at depth 4, after {@link Pause#millis} of sleep. */
    @Benchmark
    public LsvidVerification lsvidVerify(Document doc, Pause pause) {
        return doc.verifier.verify(doc.encoded, doc.audience, doc.presenter, DelegationRule.REQUIRED);
    }
}
