package io.spiffeidt.perf.jmh;

import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.txntoken.TxnToken;
import io.spiffeidt.core.txntoken.TxnTokenKeyResolver;
import io.spiffeidt.core.txntoken.TxnTokenMinter;
import io.spiffeidt.core.txntoken.TxnTokenRequest;
import io.spiffeidt.core.txntoken.TxnTokenSettings;
import io.spiffeidt.core.txntoken.TxnTokenVerifier;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
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
 * The Txn-Token per operation: mint (the token exchange's signature), replace (the
 * m-tier's replacement) and verify (what every tier does), with the JCA provider as a parameter: an
 * ES256 sign and an ES256 verify, beside the four documents' benchmarks.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
public class TxnTokenBenchmarks {

    @Param({"sun", "bc", "accp"})
    public String provider;

    private static final SpiffeId SERVICE = SpiffeId.parse("spiffe://example.org/asserting-wl");
    private static final SpiffeId SUBJECT = SpiffeId.parse("spiffe://example.org/subject-wl");
    private static final SpiffeId MTIER = SpiffeId.parse("spiffe://example.org/m-tier");

    private TxnTokenMinter minter;
    private TxnTokenVerifier verifier;
    private TxnTokenRequest request;
    private TxnToken minted;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        Provider p = Providers.of(provider, "EC");
        SecureRandom random = Providers.secureRandom(provider, p);
        KeyPairGenerator gen = KeyPairGenerator.getInstance("EC");
        gen.initialize(new ECGenParameterSpec("secp256r1"));
        KeyPair key = gen.generateKeyPair();
        // a token that outlives the trial, so that verify measures a valid token throughout
        TxnTokenSettings settings = TxnTokenSettings.defaults(SERVICE, Clock.systemUTC())
                .withTimeRules(TimeRules.defaults(Clock.systemUTC()).withLifetime(Duration.ofHours(2)));
        minter = new TxnTokenMinter(key.getPrivate(), key.getPublic(), p, settings, random);
        verifier = new TxnTokenVerifier(settings, p, TxnTokenKeyResolver.of(key.getPublic()));
        request = new TxnTokenRequest(
                "http://127.0.0.1:9000",
                "user0001",
                "account",
                SUBJECT,
                Instant.now().plusSeconds(3 * 3600));
        minted = minter.mint(request);
    }

    @Benchmark
    public String mint() {
        return minter.mint(request).token();
    }

    @Benchmark
    public String replace() {
        return minter.replace(minted, MTIER).token();
    }

    @Benchmark
    public TxnToken verify() {
        return verifier.verify(minted.token());
    }
}
