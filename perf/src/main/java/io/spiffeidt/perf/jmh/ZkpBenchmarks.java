package io.spiffeidt.perf.jmh;

import io.spiffeidt.core.Limits;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.zkp.RsaSignatureProof;
import io.spiffeidt.core.zkp.ZkProof;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.interfaces.RSAPublicKey;
import java.util.List;
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
 * The RSA-signature proof at 80 rounds (rows "ZKP prove" and "ZKP verify"): {@code
 * impl=provider} is the core as it is (the provider's {@code RSA/ECB/NoPadding}, one gcd), {@code
 * impl=biginteger} the arithmetic as it was ({@link BigInteger#modPow} and a gcd per round), in the
 * same run so that their ratio is taken under the same load.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
public class ZkpBenchmarks {

    @Param({"sun", "bc", "accp"})
    public String provider;

    @Param({"provider", "biginteger"})
    public String impl;

    private Provider p;
    private RSAPublicKey idpKey;
    private byte[] msg;
    private byte[] signature;
    private ZkProof proof;
    private BigInteger m;
    private SecureRandom random;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        p = Providers.of(provider, "RSA");
        // the commitments' randomness from where the workload takes it
        random = Providers.secureRandom(provider, p);
        KeyPair idp = Providers.rsaKeyPair();
        idpKey = (RSAPublicKey) idp.getPublic();
        msg = "eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJodHRwOi8vMTI3LjAuMC4xOjkwMDAiLCJzdWIiOiJ1c2VyMDAwMSJ9"
                .getBytes(StandardCharsets.US_ASCII);
        Signature signer = Signature.getInstance("SHA256withRSA");
        signer.initSign(idp.getPrivate());
        signer.update(msg);
        signature = signer.sign();
        proof = RsaSignatureProof.prove(msg, signature, idpKey, 80, random, p);
        // m = s^e mod n: the EMSA-PKCS1 encoding the baseline compares against
        m = new BigInteger(1, signature).modPow(idpKey.getPublicExponent(), idpKey.getModulus());
    }

    @Benchmark
    public Object zkpProve80() throws Exception {
        if (impl.equals("biginteger")) {
            return ZkpBaseline.prove(
                    new BigInteger(1, signature), idpKey.getModulus(), idpKey.getPublicExponent(), 80, random);
        }
        return RsaSignatureProof.prove(msg, signature, idpKey, 80, random, p);
    }

    @Benchmark
    public Object zkpVerify80() throws Exception {
        if (impl.equals("biginteger")) {
            boolean ok = ZkpBaseline.verify(proof.p(), proof.c(), m, idpKey.getModulus(), idpKey.getPublicExponent());
            if (!ok) {
                throw new IllegalStateException("baseline did not verify");
            }
            return List.of();
        }
        RsaSignatureProof.verify(proof, msg, idpKey, VerificationProfile.STRICT, Limits.defaults(), p);
        return proof;
    }
}
