package io.spiffeidt.perf.jmh;

import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TrustBundle;
import io.spiffeidt.core.x509.X509SvidChains;
import java.security.GeneralSecurityException;
import java.security.Provider;
import java.security.cert.CertPathValidator;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
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
 * X.509-SVID chain validation alone: what a verifier pays for a chain it has not seen,
 * with no memo, as the LSVID verifier meets a base document's {@code x5c}: the DER parsed into new
 * certificate objects (so no verification result the JDK keeps on a certificate object is reused),
 * then validated. The chain is a P-256 leaf issued by the bundle's P-256 root of {@code
 * example.org} (as in {@link LsvidBenchmarks}).
 *
 * <ul>
 *   <li>{@code validate}: {@link X509SvidChains#validate} with the provider under test (the
 *       verifiers' own check);
 *   <li>{@code validatePkix}: the same SPIFFE leaf rules left out, the JDK's {@code
 *       CertPathValidator} set up as the core's chain check did before it was set up once (a new factory, anchors,
 *       parameters and validator per call): the baseline of the ratio;
 *   <li>{@code parse}: the parsing alone, to subtract.
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
public class ChainBenchmarks {

    /** A bundle, one SVID chain of it in DER and the provider under test. */
    @State(Scope.Benchmark)
    public static class Pki {

        @Param({"sun", "bc", "accp"})
        public String provider;

        TrustBundle bundle;
        byte[] leafDer;
        Provider jca;

        @Setup(Level.Trial)
        public void setUp() throws Exception {
            LsvidBenchmarks.TestCa ca = new LsvidBenchmarks.TestCa("example.org");
            bundle = ca.bundle();
            leafDer = ca.issue("/subject-wl").leaf().getEncoded();
            jca = Providers.of(provider, "EC");
            // fail at set-up, not in the measurement, if anything is off
            X509SvidChains.validate(X509SvidChains.parse(leafDer), bundle, Instant.now(), jca);
            pkix(X509SvidChains.parse(leafDer), bundle, new Date());
        }
    }

    @Benchmark
    public SpiffeId validate(Pki pki) {
        return X509SvidChains.validate(X509SvidChains.parse(pki.leafDer), pki.bundle, Instant.now(), pki.jca);
    }

    @Benchmark
    public List<X509Certificate> validatePkix(Pki pki) throws GeneralSecurityException {
        List<X509Certificate> chain = X509SvidChains.parse(pki.leafDer);
        pkix(chain, pki.bundle, new Date());
        return chain;
    }

    @Benchmark
    public List<X509Certificate> parse(Pki pki) {
        return X509SvidChains.parse(pki.leafDer);
    }

    private static void pkix(List<X509Certificate> chain, TrustBundle bundle, Date at) throws GeneralSecurityException {
        Set<TrustAnchor> anchors = new HashSet<>();
        for (X509Certificate root : bundle.roots()) {
            anchors.add(new TrustAnchor(root, null));
        }
        PKIXParameters params = new PKIXParameters(anchors);
        params.setRevocationEnabled(false);
        params.setDate(at);
        CertPathValidator.getInstance("PKIX")
                .validate(CertificateFactory.getInstance("X.509").generateCertPath(chain), params);
    }
}
