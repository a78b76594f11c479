package io.spiffeidt.perf.jmh;

import io.spiffeidt.core.Limits;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.wimse.JtiReplayCache;
import io.spiffeidt.core.wimse.VerifiedWimse;
import io.spiffeidt.core.wimse.WimseRequest;
import io.spiffeidt.core.wimse.WimseSettings;
import io.spiffeidt.core.wimse.WimseVerifier;
import io.spiffeidt.core.wimse.WitIssuer;
import io.spiffeidt.core.wimse.WitKeyResolver;
import io.spiffeidt.core.wimse.WptSigner;
import java.net.URI;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Duration;
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
 * The WIMSE tokens per operation, with the JCA provider as a parameter: mintWit (the WIT issuer's
 * ES256 signature, once per workload and WIT lifetime), signWpt (the workload's ES256 signature and
 * two SHA-256 hashes, once per call) and verify (what every tier does per call: two ES256
 * verifications, the cnf JWK read into a key, two hashes). The replay check is not in verify: it
 * runs with a cache that accepts every jti, because one WPT verified again and again is a replay.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
public class WimseBenchmarks {

    @Param({"sun", "bc", "accp"})
    public String provider;

    private static final SpiffeId ISSUER = SpiffeId.parse("spiffe://example.org/asserting-wl");
    private static final SpiffeId SUBJECT = SpiffeId.parse("spiffe://example.org/subject-wl");
    private static final URI TARGET = URI.create("https://m-tier.example.org:8443/api/wimse/balance");
    private static final String TXN_TOKEN =
            "eyJhbGciOiJFUzI1NiIsImtpZCI6ImsiLCJ0eXAiOiJ0eG50b2tlbitqd3QifQ.eyJ0eG4iOiJiZW5jaCJ9.c2ln";

    private WitIssuer issuer;
    private WptSigner signer;
    private WimseVerifier verifier;
    private KeyPair workloadKey;
    private String wit;
    private WimseRequest request;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        Provider p = Providers.of(provider, "EC");
        // as the asserting workload (SignatureProvider.secureRandom): ACCP's DRBG with ACCP, else the JDK's
        SecureRandom random = provider.equals("accp") ? SecureRandom.getInstance("DEFAULT", p) : new SecureRandom();
        KeyPairGenerator gen = KeyPairGenerator.getInstance("EC");
        gen.initialize(new ECGenParameterSpec("secp256r1"));
        KeyPair issuerKey = gen.generateKeyPair();
        workloadKey = gen.generateKeyPair();
        // tokens that outlive the trial, so that verify measures valid tokens throughout
        WimseSettings settings = new WimseSettings(
                ISSUER.trustDomain(),
                ISSUER,
                Limits.defaults(),
                TimeRules.defaults(Clock.systemUTC()),
                Duration.ofHours(3),
                Duration.ofHours(2),
                WimseSettings.DEFAULT_MAX_TOKEN_LENGTH);
        issuer = new WitIssuer(issuerKey.getPrivate(), issuerKey.getPublic(), p, settings, random);
        signer = new WptSigner(workloadKey.getPrivate(), workloadKey.getPublic(), p, settings, random);
        JtiReplayCache acceptsEvery = (sender, jti, forgetAfter) -> {};
        verifier = new WimseVerifier(settings, p, WitKeyResolver.of(issuerKey.getPublic()), acceptsEvery);
        wit = issuer.issue(SUBJECT, workloadKey.getPublic()).token();
        String wpt = signer.sign(wit, "POST", TARGET, TXN_TOKEN).token();
        request = new WimseRequest(wit, wpt, "POST", TARGET, TXN_TOKEN);
        verifier.verify(request);
    }

    @Benchmark
    public String mintWit() {
        return issuer.issue(SUBJECT, workloadKey.getPublic()).token();
    }

    @Benchmark
    public String signWpt() {
        return signer.sign(wit, "POST", TARGET, TXN_TOKEN).token();
    }

    @Benchmark
    public VerifiedWimse verify() {
        return verifier.verify(request);
    }
}
