package io.spiffeidt.perf.jmh;

import io.spiffeidt.core.Presenter;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.TrustBundle;
import io.spiffeidt.core.lsvid.Lsvid;
import io.spiffeidt.core.lsvid.LsvidBaseBuilder;
import io.spiffeidt.core.lsvid.LsvidCodec;
import io.spiffeidt.core.lsvid.LsvidExtender;
import io.spiffeidt.core.lsvid.LsvidSettings;
import io.spiffeidt.core.lsvid.LsvidToken;
import io.spiffeidt.core.lsvid.LsvidVerification;
import io.spiffeidt.core.lsvid.LsvidVerifier;
import io.spiffeidt.core.lsvid.LsvidVerifier.DelegationRule;
import io.spiffeidt.core.memo.Memos;
import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.cert.CertificateFactory;
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
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
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
 * LSVID per operation, with the JCA provider as a parameter: a workload's version 2 base
 * document from its X.509-SVID, an extension layer, the asserting workload's delegation layer, the
 * strict verification at depth 2 to 8 (tokens, the base included; a base alone names no audience,
 * so it is never presented and has nothing to verify at a hop), and the canonical encode / decode at
 * depth 1 to 8. The encoded size per depth is reported by {@link #encode} as the secondary result
 * {@code encodedBytes} (bytes; one document per depth, so every iteration reports the same value).
 *
 * <p>The chain is the thesis path: base(subject-wl) → asserting-wl → subject-wl (delegation) →
 * m-tier → m-tier2 → … (depth 4 is what m-tier verifies, 5 what the target verifies). Certificates
 * and keys are P-256, generated at set-up by a test CA of {@code example.org}. The provider
 * parameter applies to signing and verifying; encode and decode do no cryptography and have none.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
public class LsvidBenchmarks {

    private static final String DPA = "http://127.0.0.1:9000";
    private static final String DPR = "user0001";

    /** The PKI and the thesis path; documents along it signed with the JDK's provider. */
    @State(Scope.Benchmark)
    public static class Path {

        TrustBundle bundle;
        Workload subject;
        Workload asserting;
        Workload mtier;
        final List<Workload> hops = new ArrayList<>();
        private LsvidBaseBuilder bases;
        private LsvidExtender extender;

        @Setup(Level.Trial)
        public void setUp() throws Exception {
            TestCa ca = new TestCa("example.org");
            bundle = ca.bundle();
            subject = ca.issue("/subject-wl");
            asserting = ca.issue("/asserting-wl");
            mtier = ca.issue("/m-tier");
            hops.add(subject);
            hops.add(asserting);
            hops.add(subject);
            hops.add(mtier);
            for (int i = 2; i <= 8; i++) {
                hops.add(ca.issue("/m-tier" + i));
            }
            TimeRules time = TimeRules.defaults(Clock.systemUTC());
            bases = new LsvidBaseBuilder(time, null);
            extender = new LsvidExtender(time, null);
        }

        /** A document of {@code depth} tokens along the path; the hop {@code hops[depth - 2]} presents it. */
        Lsvid ofDepth(int depth) {
            Lsvid doc = Lsvid.of(bases.build(subject.chain(), subject.key()));
            for (int k = 1; k < depth; k++) {
                Workload by = hops.get(k - 1);
                doc = step(doc, k, bases.build(by.chain(), by.key()));
            }
            return doc;
        }

        /**
         * Step {@code k} of the path: {@code hops[k - 1]}, with its base {@code base}, extends {@code
         * doc} for {@code hops[k]} (step 2 is the asserting workload's delegation).
         */
        Lsvid step(Lsvid doc, int k, LsvidToken base) {
            Workload by = hops.get(k - 1);
            Workload to = hops.get(k);
            return k == 2
                    ? extender.extendWithDelegation(doc, base, by.key(), to.id(), DPA, DPR)
                    : extender.extend(doc, base, by.key(), to.id());
        }

        /**
         * {@code count} documents of {@code depth} tokens that share every token but the outermost
         * layer, each signed anew (ECDSA signatures are randomized): what a hop receives when the one
         * before it signs a new extension for every request. Encoded.
         */
        String[] newOutermost(int depth, int count) {
            Lsvid inner = ofDepth(depth - 1);
            Workload by = hops.get(depth - 2);
            LsvidToken base = bases.build(by.chain(), by.key());
            String[] docs = new String[count];
            for (int i = 0; i < count; i++) {
                docs[i] = LsvidCodec.encode(step(inner, depth - 1, base));
            }
            return docs;
        }
    }

    /** The JCA provider under test and the builders and verifier that use it. */
    @State(Scope.Benchmark)
    public static class Crypto {

        @Param({"sun", "bc", "accp"})
        public String provider;

        LsvidBaseBuilder bases;
        LsvidExtender extender;
        LsvidVerifier verifier;
        LsvidVerifier verifierReusing;
        LsvidVerifier verifierNoMemo;
        LsvidVerifier verifierChainMemoOnly;
        Lsvid request;
        Lsvid minted;
        LsvidToken subjectBase;
        LsvidToken assertingBase;

        @Setup(Level.Trial)
        public void setUp(Path path) {
            Provider jca = Providers.of(provider, "EC");
            TimeRules time = TimeRules.defaults(Clock.systemUTC());
            bases = new LsvidBaseBuilder(time, jca);
            extender = new LsvidExtender(time, jca);
            // as a hop verifies where the hop before signs an extension per request (lsvid-extension off)
            verifier = new LsvidVerifier(
                    LsvidSettings.strict(path.asserting.id(), path.bundle, Clock.systemUTC(), jca),
                    Memos.only(
                            Set.of(LsvidVerifier.CHAIN_MEMO, LsvidVerifier.BASE_MEMO, LsvidVerifier.LAYER_MEMO),
                            Clock.systemUTC()));
            // as a hop verifies where the hop before reuses its young extension (every other profile)
            verifierReusing =
                    new LsvidVerifier(LsvidSettings.strict(path.asserting.id(), path.bundle, Clock.systemUTC(), jca));
            // no chain or base memo: every base anchored and verified on every call (as before the memos)
            verifierNoMemo = new LsvidVerifier(
                    LsvidSettings.strict(path.asserting.id(), path.bundle, Clock.systemUTC(), jca), Memos.none());
            // the chain memo only: verification as it was before the memos
            verifierChainMemoOnly = new LsvidVerifier(
                    LsvidSettings.strict(path.asserting.id(), path.bundle, Clock.systemUTC(), jca),
                    Memos.only(Set.of(LsvidVerifier.CHAIN_MEMO), Clock.systemUTC()));
            subjectBase = bases.build(path.subject.chain(), path.subject.key());
            assertingBase = bases.build(path.asserting.chain(), path.asserting.key());
            request = extender.extend(Lsvid.of(subjectBase), subjectBase, path.subject.key(), path.asserting.id());
            minted = extender.extendWithDelegation(
                    request, assertingBase, path.asserting.key(), path.subject.id(), DPA, DPR);
        }
    }

    /** A document at depth 1 to 8, encoded. */
    @State(Scope.Benchmark)
    public static class Encoded {

        @Param({"1", "2", "3", "4", "5", "6", "7", "8"})
        public int depth;

        Lsvid document;
        String encoded;

        @Setup(Level.Trial)
        public void setUp(Path path) {
            document = path.ofDepth(depth);
            encoded = LsvidCodec.encode(document);
        }
    }

    /**
     * A document at depth 2 to 8 with the hop that presents it and the hop that verifies it; and
     * {@link #NEW_OUTERMOST} documents of that depth that differ only in their outermost layer, more
     * than a verifier remembers, taken in turn by {@link #next()}.
     */
    @State(Scope.Benchmark)
    public static class Presented {

        /** How many documents with a new outermost layer {@link #next()} cycles through. */
        static final int NEW_OUTERMOST = 4096;

        @Param({"2", "3", "4", "5", "6", "7", "8"})
        public int depth;

        String encoded;
        SpiffeId audience;
        Presenter presenter;
        DelegationRule rule;
        private String[] fresh;
        private int next;

        @Setup(Level.Trial)
        public void setUp(Path path) {
            fresh = path.newOutermost(depth, NEW_OUTERMOST);
            encoded = LsvidCodec.encode(path.ofDepth(depth));
            audience = path.hops.get(depth - 1).id();
            Workload by = path.hops.get(depth - 2);
            presenter = new Presenter(by.id(), by.leaf().getPublicKey());
            rule = depth >= 3 ? DelegationRule.REQUIRED : DelegationRule.ABSENT;
        }

        /** The next document with a new outermost layer (one benchmark thread). */
        String next() {
            String doc = fresh[next];
            next = (next + 1) % fresh.length;
            return doc;
        }
    }

    /**
     * The encoded size of the document, in bytes, as a secondary result. JMH resets {@code EVENTS}
     * counters before each iteration and sums them over the measurement iterations and threads, so
     * the size is counted by one thread in the first measurement iteration of a trial only.
     */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Size {
        public long encodedBytes;
        private boolean armed;
        private boolean counted;

        @Setup(Level.Iteration)
        public void arm(IterationParams iteration, ThreadParams thread) {
            armed = iteration.getType() == IterationType.MEASUREMENT && !counted && thread.getThreadIndex() == 0;
            counted |= armed;
        }

        void count(String encoded) {
            if (armed) {
                encodedBytes = encoded.length();
            }
        }
    }

    /** A workload builds and signs its base document from its SVID (done once per SVID). */
    @Benchmark
    public LsvidToken baseBuild(Crypto crypto, Path path) {
        return crypto.bases.build(path.subject.chain(), path.subject.key());
    }

    /** The subject workload extends the minted document for the middle tier (once per use). */
    @Benchmark
    public Lsvid extend(Crypto crypto, Path path) {
        return crypto.extender.extend(crypto.minted, crypto.subjectBase, path.subject.key(), path.mtier.id());
    }

    /** The asserting workload adds its delegation layer (the LSVID mint). */
    @Benchmark
    public Lsvid extendWithDelegation(Crypto crypto, Path path) {
        return crypto.extender.extendWithDelegation(
                crypto.request, crypto.assertingBase, path.asserting.key(), path.subject.id(), DPA, DPR);
    }

    /**
     * Strict verification at a hop: every anchored base, every layer, delegation, audience, bearer,
     * of a document whose outermost layer is new (the hop before signed it for this request), as in
     * the original and with the memo {@code lsvid-extension} off; the inner layers and bases are remembered
     * from earlier calls, as a hop remembers them between requests.
     */
    @Benchmark
    public LsvidVerification verify(Crypto crypto, Presented doc) {
        return crypto.verifier.verify(doc.next(), doc.audience, doc.presenter, doc.rule);
    }

    /**
     * The same document again, as a hop receives it while the one before it reuses its extension:
     * the verifier finds it decoded and its layers verified, and runs every other check.
     */
    @Benchmark
    public LsvidVerification verifyRepeated(Crypto crypto, Presented doc) {
        return crypto.verifierReusing.verify(doc.encoded, doc.audience, doc.presenter, doc.rule);
    }

    /** {@link #verify} without any memo (every base, layer and document in full), same run, for the ratio. */
    @Benchmark
    public LsvidVerification verifyNoMemo(Crypto crypto, Presented doc) {
        return crypto.verifierNoMemo.verify(doc.encoded, doc.audience, doc.presenter, doc.rule);
    }

    /** {@link #verify} with the chain memo but no other (before the memos), same run. */
    @Benchmark
    public LsvidVerification verifyChainMemoOnly(Crypto crypto, Presented doc) {
        return crypto.verifierChainMemoOnly.verify(doc.encoded, doc.audience, doc.presenter, doc.rule);
    }

    /** Canonical encoding; reports the encoded size as {@code encodedBytes} (see {@link Size}). */
    @Benchmark
    public String encode(Encoded doc, Size size) {
        String encoded = LsvidCodec.encode(doc.document);
        size.count(encoded);
        return encoded;
    }

    /** Strict decoding with the canonical round-trip check. */
    @Benchmark
    public Lsvid decode(Encoded doc) {
        return LsvidCodec.decode(doc.encoded);
    }

    /** A workload's SVID: its ID, chain (leaf first) and private key. */
    record Workload(SpiffeId id, List<X509Certificate> chain, PrivateKey key) {
        X509Certificate leaf() {
            return chain.get(0);
        }
    }

    /** A P-256 test CA for one trust domain that issues X.509-SVIDs (URI SAN, digitalSignature). */
    static final class TestCa {
        private final String trustDomain;
        private final KeyPair caKey;
        private final X509Certificate caCert;
        private final Instant notBefore = Instant.now().minus(Duration.ofHours(1));
        private final Instant notAfter = Instant.now().plus(Duration.ofDays(1));
        private long serial = 1;

        TestCa(String trustDomain) throws Exception {
            this.trustDomain = trustDomain;
            this.caKey = p256();
            X500Name name = new X500Name("O=spiffeidt perf,CN=" + trustDomain);
            this.caCert = certificate(name, name, caKey.getPublic(), true, "spiffe://" + trustDomain);
        }

        TrustBundle bundle() {
            return new TrustBundle(trustDomain, List.of(caCert));
        }

        Workload issue(String path) throws Exception {
            KeyPair kp = p256();
            SpiffeId id = SpiffeId.parse("spiffe://" + trustDomain + path);
            X509Certificate leaf = certificate(
                    X500Name.getInstance(caCert.getSubjectX500Principal().getEncoded()),
                    new X500Name("O=spiffeidt perf"),
                    kp.getPublic(),
                    false,
                    id.toString());
            return new Workload(id, List.of(leaf), kp.getPrivate());
        }

        private X509Certificate certificate(
                X500Name issuer, X500Name subject, java.security.PublicKey key, boolean ca, String uri)
                throws Exception {
            JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                    issuer, BigInteger.valueOf(serial++), Date.from(notBefore), Date.from(notAfter), subject, key);
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(ca));
            builder.addExtension(
                    Extension.keyUsage,
                    true,
                    new KeyUsage(ca ? KeyUsage.keyCertSign | KeyUsage.cRLSign : KeyUsage.digitalSignature));
            builder.addExtension(
                    Extension.subjectAlternativeName,
                    false,
                    new GeneralNames(new GeneralName(GeneralName.uniformResourceIdentifier, uri)));
            byte[] der = builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(caKey.getPrivate()))
                    .getEncoded();
            return (X509Certificate)
                    CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(der));
        }

        private static KeyPair p256() throws Exception {
            KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
            g.initialize(new ECGenParameterSpec("secp256r1"));
            return g.generateKeyPair();
        }
    }
}
