package io.spiffeidt.perf.jmh;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.dvid.DvidMintRequest;
import io.spiffeidt.core.dvid.DvidMinter;
import io.spiffeidt.core.dvid.DvidSettings;
import io.spiffeidt.core.dvid.DvidVerifier;
import io.spiffeidt.core.dvid.VerifiedDvid;
import io.spiffeidt.core.zkp.RsaSignatureProof;
import io.spiffeidt.core.zkp.ZkProof;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
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
 * DVID per operation (issue 2): mint, verify, ZKP prove and verify at 80 rounds, and OAuth RS256
 * token verification, each with the JCA provider as a parameter.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
public class DvidBenchmarks {

    @Param({"sun", "bc", "accp"})
    public String provider;

    private static final SpiffeId ASSERTING = SpiffeId.parse("spiffe://example.org/asserting-wl");
    private static final SpiffeId SUBJECT = SpiffeId.parse("spiffe://example.org/subject-wl");
    private static final SpiffeId MTIER = SpiffeId.parse("spiffe://example.org/m-tier");

    private DvidMinter minter;
    private DvidVerifier verifier;
    private DvidMintRequest request;
    private String dvid;
    private RSAPublicKey idpKey;
    private byte[] msg;
    private byte[] signature;
    private ZkProof proof;
    private SignedJWT oauthToken;
    private RSASSAVerifier oauthVerifier;
    private SecureRandom random;
    private Provider p;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        p = Providers.of(provider, "RSA");
        // as the asserting workload (SignatureProvider.secureRandom): ACCP's DRBG with ACCP, else the JDK's
        random = provider.equals("accp") ? SecureRandom.getInstance("DEFAULT", p) : new SecureRandom();
        KeyPairGenerator gen = KeyPairGenerator.getInstance("RSA");
        gen.initialize(2048);
        KeyPair dvidKey = gen.generateKeyPair();
        KeyPair idp = gen.generateKeyPair();
        DvidSettings settings = DvidSettings.defaults(ASSERTING, Clock.systemUTC());
        minter = new DvidMinter(dvidKey.getPrivate(), dvidKey.getPublic(), p, settings, random);
        String kid = minter.keyId();
        verifier = new DvidVerifier(settings, p, k -> {
            if (!kid.equals(k)) {
                throw new IllegalStateException("unknown kid");
            }
            return dvidKey.getPublic();
        });
        Instant now = Instant.now();
        request = DvidMintRequest.of(SUBJECT, "http://127.0.0.1:9000", "user0001", now.plusSeconds(3600));
        dvid = minter.mint(request).token();

        idpKey = (RSAPublicKey) idp.getPublic();
        RSASSASigner signer = new RSASSASigner((RSAPrivateKey) idp.getPrivate());
        signer.getJCAContext().setProvider(p);
        oauthToken = new SignedJWT(
                new JWSHeader.Builder(JWSAlgorithm.RS256)
                        .keyID("idp-kid")
                        .type(JOSEObjectType.JWT)
                        .build(),
                new JWTClaimsSet.Builder()
                        .issuer("http://127.0.0.1:9000")
                        .subject("user0001")
                        .audience("spiffeidt")
                        .issueTime(Date.from(now))
                        .expirationTime(Date.from(now.plusSeconds(3600)))
                        .build());
        oauthToken.sign(signer);
        String serialized = oauthToken.serialize();
        String[] parts = serialized.split("\\.");
        msg = (parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII);
        signature = Base64.getUrlDecoder().decode(parts[2]);
        proof = RsaSignatureProof.prove(msg, signature, idpKey, 80, random, p);
        oauthVerifier = new RSASSAVerifier(idpKey);
        oauthVerifier.getJCAContext().setProvider(p);
        oauthToken = SignedJWT.parse(serialized);
    }

    @Benchmark
    public String mint() {
        return minter.mint(request).token();
    }

    @Benchmark
    public VerifiedDvid verify() {
        return verifier.verify(dvid, MTIER);
    }

    @Benchmark
    public ZkProof zkpProve80() {
        return RsaSignatureProof.prove(msg, signature, idpKey, 80, random, p);
    }

    @Benchmark
    public ZkProof zkpVerify80() {
        RsaSignatureProof.verify(proof, msg, idpKey, VerificationProfile.STRICT, Limits.defaults(), p);
        return proof;
    }

    @Benchmark
    public boolean oauthVerify() throws Exception {
        return oauthToken.verify(oauthVerifier);
    }
}
