package io.spiffeidt.perf.jmh;

import io.spiffeidt.core.Limits;
import io.spiffeidt.core.Presenter;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.TrustBundle;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.idmode.IdModeCredentials;
import io.spiffeidt.core.idmode.IdModeExtender;
import io.spiffeidt.core.idmode.IdModeMinter;
import io.spiffeidt.core.idmode.IdModePresentation;
import io.spiffeidt.core.idmode.IdModeSettings;
import io.spiffeidt.core.idmode.IdModeSize;
import io.spiffeidt.core.idmode.IdModeVerifier;
import io.spiffeidt.core.idmode.TrustBundleSource;
import io.spiffeidt.core.idmode.VerifiedIdMode;
import io.spiffeidt.core.memo.Memos;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
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
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.infra.ThreadParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * ID-Mode per operation, with the JCA provider as a parameter ({@code sun} = SunEC,
 * {@code bc} = BouncyCastle, {@code accp} = Amazon Corretto Crypto Provider):
 *
 * <ul>
 *   <li>{@code mint}: the asserting workload's root layer (claims, JSON, one ECDSA P-256 signature,
 *       the artifacts with its chain);
 *   <li>{@code extend}: one hop's layer over a token of {@code depth} layers (the result has {@code
 *       depth + 1}); the signing input grows with the inner token;
 *   <li>{@code verify}: the full strict verification of a token of {@code depth} layers with its
 *       artifacts, as the outermost audience with the mTLS presenter binding: parsing, one chain per
 *       layer against the bundle (validated chains are remembered, as in the workloads), one ECDSA
 *       verification per layer, links, times, delegation, audience and presenter;
 *   <li>{@code verifyUncachedChains}: the same with every certificate chain PKIX-validated on every
 *       call (no memo of validated chains);
 *   <li>{@code verifyRepeated}: the same token and artifacts, as text, received again by a verifier
 *       that remembers the tokens it verified (what a hop pays while the hop before reuses
 *       its extension, the memos on): the parsing and the signature
 *       checks are found, every other check runs;
 *   <li>{@code sizes}: the token and artifacts (JSON form) sizes at {@code depth}, as the secondary
 *       results {@code tokenBytes} and {@code artifactsBytes} (bytes; the score of this method
 *       itself is meaningless).
 * </ul>
 *
 * <p>The PKI is made once per trial: a P-256 root CA of {@code example.org} and one P-256
 * X.509-SVID (leaf only, SPIFFE leaf rules) per workload on the path: {@code asserting-wl} signs the
 * root, then {@code subject-wl}, {@code m-tier}, {@code hop-3} … {@code hop-8}; the verifier of a
 * token of depth {@code d} is the workload that would receive layer {@code d}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
public class IdModeBenchmarks {

    private static final String TRUST_DOMAIN = "example.org";
    private static final int MAX_DEPTH = 8;
    private static final String DPA = "http://127.0.0.1:9000";
    private static final String DPR = "user0001";

    /** The workloads on the path, index = the layer they sign; the last only receives. */
    private static final List<SpiffeId> PATH = path();

    /** Lifetimes longer than any JMH trial, so no token expires while it is measured. */
    private static final Duration LIFETIME = Duration.ofHours(6);

    private static List<SpiffeId> path() {
        List<SpiffeId> ids = new ArrayList<>();
        ids.add(id("asserting-wl"));
        ids.add(id("subject-wl"));
        ids.add(id("m-tier"));
        for (int i = 3; i <= MAX_DEPTH; i++) {
            ids.add(id("hop-" + i));
        }
        ids.add(id("target-wl"));
        return List.copyOf(ids);
    }

    private static SpiffeId id(String name) {
        return SpiffeId.parse("spiffe://" + TRUST_DOMAIN + "/" + name);
    }

    /** Minting the root: depends on the provider only. */
    @State(Scope.Benchmark)
    public static class MintState {

        @Param({"sun", "bc", "accp"})
        public String provider;

        IdModeMinter minter;
        Instant oauthExpiry;

        @Setup(Level.Trial)
        public void setUp() {
            Pki pki = new Pki(1);
            Provider p = Providers.of(provider, "EC");
            minter = new IdModeMinter(pki.credentials.get(0), timeRules(), Limits.defaults(), p);
            oauthExpiry = Instant.now().plus(LIFETIME);
        }
    }

    /** A token of {@code depth} layers with its artifacts, and what the next hop needs. */
    @State(Scope.Benchmark)
    public static class ChainState {

        @Param({"sun", "bc", "accp"})
        public String provider;

        @Param({"1", "2", "3", "5", "8"})
        public int depth;

        IdModePresentation presentation;
        IdModeVerifier verifier;
        IdModeVerifier uncachedVerifier;
        IdModeVerifier rememberingVerifier;
        String token;
        String artifacts;
        IdModeExtender extender;
        SpiffeId audience;
        SpiffeId nextHop;
        Presenter presenter;

        @Setup(Level.Trial)
        public void setUp() {
            Pki pki = new Pki(depth + 1);
            Provider p = Providers.of(provider, "EC");
            TimeRules time = timeRules();
            presentation = new IdModeMinter(pki.credentials.get(0), time, Limits.defaults(), p)
                    .mint(PATH.get(1), DPA, DPR, null);
            for (int k = 1; k < depth; k++) {
                presentation = new IdModeExtender(pki.credentials.get(k), time, Limits.defaults(), p)
                        .extend(presentation, PATH.get(k + 1));
            }
            audience = PATH.get(depth);
            nextHop = PATH.get(depth + 1);
            IdModeCredentials outermost = pki.credentials.get(depth - 1);
            presenter = new Presenter(outermost.spiffeId(), outermost.leaf().getPublicKey());
            IdModeSettings settings = new IdModeSettings(
                    PATH.get(0), TrustBundleSource.of(pki.bundle), VerificationProfile.STRICT, Limits.defaults(), time);
            verifier =
                    new IdModeVerifier(settings, p, Memos.only(Set.of(IdModeVerifier.CHAIN_MEMO), Clock.systemUTC()));
            uncachedVerifier = new IdModeVerifier(settings, p, Memos.none());
            rememberingVerifier = new IdModeVerifier(settings, p, Memos.defaults(Clock.systemUTC()));
            token = presentation.token();
            artifacts = presentation.artifacts().toJson();
            extender = new IdModeExtender(pki.credentials.get(depth), time, Limits.defaults(), p);
            // fail at set-up, not in the measurement, if anything is off
            verifier.verify(presentation, audience, presenter);
            uncachedVerifier.verify(presentation, audience, presenter);
            rememberingVerifier.verifyEncoded(token, artifacts, audience, presenter);
        }
    }

    /**
     * The sizes at a depth, as secondary results. JMH sums {@code EVENTS} counters over the
     * measurement iterations (and threads), so the sizes are set once per trial: by thread 0 in the
     * first measurement iteration; every other iteration reports 0.
     */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Sizes {
        public long tokenBytes;
        public long artifactsBytes;
        private boolean armed;
        private boolean reported;

        @Setup(Level.Iteration)
        public void arm(IterationParams iteration, ThreadParams thread) {
            tokenBytes = 0;
            artifactsBytes = 0;
            armed = iteration.getType() == IterationType.MEASUREMENT && !reported && thread.getThreadIndex() == 0;
            reported |= armed;
        }

        void report(IdModeSize size) {
            if (armed) {
                tokenBytes = size.tokenBytes();
                artifactsBytes = size.artifactsBytes();
            }
        }
    }

    @Benchmark
    public IdModePresentation mint(MintState s) {
        return s.minter.mint(PATH.get(1), DPA, DPR, s.oauthExpiry);
    }

    @Benchmark
    public IdModePresentation extend(ChainState s) {
        return s.extender.extend(s.presentation, s.nextHop);
    }

    @Benchmark
    public VerifiedIdMode verify(ChainState s) {
        return s.verifier.verify(s.presentation, s.audience, s.presenter);
    }

    @Benchmark
    public VerifiedIdMode verifyUncachedChains(ChainState s) {
        return s.uncachedVerifier.verify(s.presentation, s.audience, s.presenter);
    }

    @Benchmark
    public VerifiedIdMode verifyRepeated(ChainState s) {
        return s.rememberingVerifier.verifyEncoded(s.token, s.artifacts, s.audience, s.presenter);
    }

    @Benchmark
    public IdModeSize sizes(ChainState s, Sizes sizes) {
        IdModeSize size = s.presentation.size();
        sizes.report(size);
        return size;
    }

    private static TimeRules timeRules() {
        return new TimeRules(Clock.systemUTC(), Duration.ofSeconds(30), LIFETIME, Duration.ofSeconds(300));
    }

    /** A throw-away CA of {@link #TRUST_DOMAIN} and the SVIDs of the first {@code count} workloads. */
    static final class Pki {

        final TrustBundle bundle;
        final List<IdModeCredentials> credentials = new ArrayList<>();

        Pki(int count) {
            try {
                SecureRandom random = new SecureRandom();
                Instant now = Instant.now();
                KeyPair rootPair = keyPair(random);
                X500Name rootName = new X500Name("O=SPIFFE-IdT bench, CN=" + TRUST_DOMAIN + " root CA");
                JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
                X509v3CertificateBuilder rootBuilder = new JcaX509v3CertificateBuilder(
                        rootName,
                        BigInteger.ONE,
                        Date.from(now.minus(Duration.ofMinutes(1))),
                        Date.from(now.plus(Duration.ofDays(2))),
                        rootName,
                        rootPair.getPublic());
                rootBuilder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
                rootBuilder.addExtension(
                        Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
                rootBuilder.addExtension(
                        Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(rootPair.getPublic()));
                X509Certificate root = certificate(rootBuilder, rootPair.getPrivate());
                bundle = new TrustBundle(TRUST_DOMAIN, List.of(root));
                for (int i = 0; i < count; i++) {
                    KeyPair pair = keyPair(random);
                    X509v3CertificateBuilder leaf = new JcaX509v3CertificateBuilder(
                            rootName,
                            BigInteger.valueOf(i + 2L),
                            Date.from(now.minus(Duration.ofMinutes(1))),
                            Date.from(now.plus(Duration.ofDays(1))),
                            new X500Name("O=SPIFFE-IdT bench"),
                            pair.getPublic());
                    leaf.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
                    leaf.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
                    leaf.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(new KeyPurposeId[] {
                        KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth
                    }));
                    leaf.addExtension(
                            Extension.subjectAlternativeName,
                            false,
                            new GeneralNames(new GeneralName(
                                    GeneralName.uniformResourceIdentifier,
                                    PATH.get(i).toString())));
                    leaf.addExtension(
                            Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(pair.getPublic()));
                    leaf.addExtension(
                            Extension.authorityKeyIdentifier,
                            false,
                            ext.createAuthorityKeyIdentifier(rootPair.getPublic()));
                    credentials.add(
                            IdModeCredentials.of(pair.getPrivate(), List.of(certificate(leaf, rootPair.getPrivate()))));
                }
            } catch (GeneralSecurityException | OperatorCreationException | java.io.IOException e) {
                throw new IllegalStateException("cannot create the benchmark PKI", e);
            }
        }

        private static KeyPair keyPair(SecureRandom random) throws GeneralSecurityException {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"), random);
            return generator.generateKeyPair();
        }

        private static X509Certificate certificate(X509v3CertificateBuilder builder, PrivateKey signer)
                throws OperatorCreationException, GeneralSecurityException {
            return new JcaX509CertificateConverter()
                    .getCertificate(builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(signer)));
        }
    }
}
