package io.spiffeidt.perf.jmh;

import io.spiffeidt.core.lsvid.LsvidVerification;
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
 * verification at depth 4 of a document with a new outermost layer, as {@link LsvidBenchmarks#verify},
 * Amazon Corretto's provider), called back to back and after the thread
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

    /**
     * The document m-tier verifies on the thesis path (depth 4) and the verifier, set up as {@link
     * LsvidBenchmarks}' own states with the provider {@code accp}.
     */
    @State(Scope.Benchmark)
    public static class Document {

        final LsvidBenchmarks.Crypto crypto = new LsvidBenchmarks.Crypto();
        final LsvidBenchmarks.Presented doc = new LsvidBenchmarks.Presented();

        @Setup(Level.Trial)
        public void setUp(LsvidBenchmarks.Path path) {
            crypto.provider = "accp";
            crypto.setUp(path);
            doc.depth = 4;
            doc.setUp(path);
        }
    }

    /** {@link LsvidBenchmarks#verify} at depth 4, after {@link Pause#millis} of sleep. */
    @Benchmark
    public LsvidVerification lsvidVerify(Document document, Pause pause) {
        LsvidBenchmarks.Presented doc = document.doc;
        return document.crypto.verifier.verify(doc.next(), doc.audience, doc.presenter, doc.rule);
    }
}
