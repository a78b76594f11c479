package io.spiffeidt.perf.jmh;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.VerifiedResult;
import io.spiffeidt.core.anonmode.AnonModeExtender;
import io.spiffeidt.core.anonmode.AnonModeMinter;
import io.spiffeidt.core.anonmode.AnonModeSettings;
import io.spiffeidt.core.anonmode.AnonModeVerifier;
import io.spiffeidt.core.anonmode.MintedAnonMode;
import io.spiffeidt.core.anonmode.NonceSource;
import io.spiffeidt.core.anonmode.Point;
import io.spiffeidt.core.anonmode.Scalar;
import io.spiffeidt.core.memo.Memos;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * Anon-Mode per operation. There is no JCA provider to choose: the group arithmetic is
 * the core's own edwards25519 code on BouncyCastle's field elements, and the hash is BouncyCastle's
 * SHA-256.
 *
 * <ul>
 *   <li>{@code mintRoot}: the asserting workload's root: a fresh random key {@code x0}, claims,
 *       JSON, one Schnorr signature (two base-point multiplications: {@code Y0} and {@code R}), the
 *       root identifier;
 *   <li>{@code extend}: one anonymous hop over a token of {@code depth} layers (the result has
 *       {@code depth + 1}): the key {@code Y = s·B}, stripping, one signature over the grown signing
 *       input;
 *   <li>{@code verify}: the strict concatenated verification of a token of {@code depth} layers:
 *       shape, JSON, one hash and one variable-point multiplication per layer to recompute the keys,
 *       the final equation, the {@code iss} of every hop, times, audience, delegation (the
 *       introspection of the root is a network call and not part of it);
 *   <li>{@code verifyCold}: {@code verify} of a token never seen (a verifier's first
 *       contact), taken in turn from {@link Fresh#TOKENS} tokens of {@code depth} layers made at
 *       set-up, each from its own random root key and fresh nonces, with no memo: nothing of an
 *       earlier call is reused ({@code verify} verifies one token again and again, also without a
 *       memo, so the two rows differ only in what the machine's caches keep);
 *   <li>{@code verifyRepeated}: the same token received again by a verifier that remembers the
 *       tokens it verified (what a hop pays while the hop before reuses its extension,
 *       the memos on): shape, key chain and equation are found; claims,
 *       times, audience and delegation are checked;
 *   <li>{@code multiplyBase}: {@code k·B} from the precomputed table (constant time);
 *   <li>{@code multiplyPoint}: {@code k·P} for an arbitrary point (constant-time window);
 *   <li>{@code tokenSize}: the token size at {@code depth}, as the secondary result {@code
 *       tokenBytes} (the score of this method itself is meaningless). With these claims the root
 *       is 319 bytes and every hop adds 161: its payload {@code {exp, iat, iss}} (~117 in
 *       base64url) and its stripped {@code R} (43), with two dots; the last segment stays 86. An
 *       {@code iid} (off by default) adds its base64url length, ~50 for a short SPIFFE ID.
 * </ul>
 *
 * <p>The clock is fixed at the trial's start, so tokens never expire during a run while every time
 * check still runs.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
public class AnonModeBenchmarks {

    private static final SpiffeId SUBJECT = SpiffeId.parse("spiffe://example.org/subject-wl");
    private static final String DPA = "http://127.0.0.1:9000";
    private static final String DPR = "user0001";

    private AnonModeMinter minter;
    private Scalar scalar;
    private Point point;

    @Setup(Level.Trial)
    public void setUp() {
        minter = new AnonModeMinter(settings(), NonceSource.secureRandom());
        SecureRandom random = new SecureRandom();
        scalar = Scalar.random(random);
        point = Point.multiplyBase(Scalar.random(random));
    }

    /** A token of {@code depth} layers (a root extended {@code depth - 1} times) and the tools for it. */
    @State(Scope.Benchmark)
    public static class Chain {

        @Param({"1", "2", "3", "5", "8"})
        public int depth;

        AnonModeExtender extender;
        AnonModeVerifier verifier;
        AnonModeVerifier rememberingVerifier;
        String token;

        @Setup(Level.Trial)
        public void setUp() {
            AnonModeSettings settings = settings();
            NonceSource nonces = NonceSource.secureRandom();
            extender = new AnonModeExtender(settings, nonces);
            verifier = new AnonModeVerifier(settings, Memos.none());
            rememberingVerifier = new AnonModeVerifier(settings, Memos.defaults(Clock.systemUTC()));
            MintedAnonMode root = new AnonModeMinter(settings, nonces).mint(SUBJECT, DPA, DPR);
            String t = root.token();
            for (int i = 1; i < depth; i++) {
                t = extender.extend(t, null);
            }
            token = t;
            // a token the benchmark cannot verify would measure the failure path
            if (verifier.verify(token, SUBJECT).depth() != depth) {
                throw new IllegalStateException("setup made a token of the wrong depth");
            }
            rememberingVerifier.verify(token, SUBJECT);
        }
    }

    /** {@link #TOKENS} tokens of the {@link Chain}'s depth, none sharing a layer, for {@code verifyCold}. */
    @State(Scope.Benchmark)
    public static class Fresh {

        /** How many distinct tokens {@code verifyCold} cycles through. */
        static final int TOKENS = 1024;

        private String[] tokens;
        private int next;

        @Setup(Level.Trial)
        public void setUp(Chain c) {
            AnonModeSettings settings = settings();
            NonceSource nonces = NonceSource.secureRandom();
            AnonModeMinter roots = new AnonModeMinter(settings, nonces);
            AnonModeVerifier verifier = new AnonModeVerifier(settings, Memos.none());
            tokens = new String[TOKENS];
            for (int i = 0; i < TOKENS; i++) {
                String t = roots.mint(SUBJECT, DPA, DPR + i).token();
                for (int k = 1; k < c.depth; k++) {
                    t = c.extender.extend(t, null);
                }
                tokens[i] = t;
                // a token the benchmark cannot verify would measure the failure path
                if (verifier.verify(t, SUBJECT).depth() != c.depth) {
                    throw new IllegalStateException("setup made a token of the wrong depth");
                }
            }
            // and a tampered token must fail: a low byte of the final response s changed (s stays < L)
            String t = tokens[0];
            int at = t.lastIndexOf('.') + 50;
            String tampered = t.substring(0, at) + (t.charAt(at) == 'A' ? 'B' : 'A') + t.substring(at + 1);
            try {
                verifier.verify(tampered, SUBJECT);
            } catch (AssertionException e) {
                if (e.code() != ErrorCode.BAD_SIGNATURE) {
                    throw new IllegalStateException("a tampered token failed with " + e.code(), e);
                }
                return;
            }
            throw new IllegalStateException("a tampered token verified");
        }

        /** The next token (one benchmark thread). */
        String next() {
            String t = tokens[next];
            next = (next + 1) % TOKENS;
            return t;
        }
    }

    /**
     * The size at a depth, reported as a secondary result. JMH sums an {@code EVENTS} counter over
     * the measurement iterations, so the size is recorded in the first measurement iteration only
     * and the sum is the size itself.
     */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Sizes {
        public long tokenBytes;

        private boolean recording;
        private boolean recorded;

        @Setup(Level.Iteration)
        public void reset(IterationParams iteration) {
            tokenBytes = 0;
            recording = !recorded && iteration.getType() == IterationType.MEASUREMENT;
        }

        @TearDown(Level.Iteration)
        public void done() {
            recorded |= recording;
        }

        void record(long bytes) {
            if (recording) {
                tokenBytes = bytes;
            }
        }
    }

    @Benchmark
    public MintedAnonMode mintRoot() {
        return minter.mint(SUBJECT, DPA, DPR);
    }

    @Benchmark
    public String extend(Chain c) {
        return c.extender.extend(c.token, null);
    }

    /** The verifier's identity does not matter beyond depth 1 (a root is only for its audience). */
    @Benchmark
    public VerifiedResult verify(Chain c) {
        return c.verifier.verify(c.token, SUBJECT);
    }

    /** {@link #verify} of a token never seen, no memo. */
    @Benchmark
    public VerifiedResult verifyCold(Chain c, Fresh fresh) {
        return c.verifier.verify(fresh.next(), SUBJECT);
    }

    @Benchmark
    public VerifiedResult verifyRepeated(Chain c) {
        return c.rememberingVerifier.verify(c.token, SUBJECT);
    }

    @Benchmark
    public Point multiplyBase() {
        return Point.multiplyBase(scalar);
    }

    @Benchmark
    public Point multiplyPoint() {
        return point.multiply(scalar);
    }

    @Benchmark
    public int tokenSize(Chain c, Sizes sizes) {
        int bytes = c.token.length();
        sizes.record(bytes);
        return bytes;
    }

    private static AnonModeSettings settings() {
        Clock fixed = Clock.fixed(Instant.now(), ZoneOffset.UTC);
        TimeRules time = new TimeRules(fixed, Duration.ofSeconds(30), Duration.ofSeconds(120), Duration.ofSeconds(300));
        return new AnonModeSettings(SUBJECT, VerificationProfile.STRICT, Limits.defaults(), time, false);
    }
}
