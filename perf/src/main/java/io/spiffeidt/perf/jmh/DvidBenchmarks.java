package io.spiffeidt.perf.jmh;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.dvid.DvidKeyResolver;
import io.spiffeidt.core.dvid.DvidKeys;
import io.spiffeidt.core.dvid.DvidMintRequest;
import io.spiffeidt.core.dvid.DvidMinter;
import io.spiffeidt.core.dvid.DvidSettings;
import io.spiffeidt.core.dvid.DvidVerifier;
import io.spiffeidt.core.dvid.VerifiedDvid;
import io.spiffeidt.core.zkp.IdpKeyResolver;
import io.spiffeidt.core.zkp.OAuthProof;
import io.spiffeidt.core.zkp.RsaSignatureProof;
import io.spiffeidt.core.zkp.ZkProof;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Provider;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.HashMap;
import java.util.Map;
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
 * DVID per operation: mint, verify, ZKP prove and verify at 80 rounds, and OAuth RS256
 * token verification, each with the JCA provider as a parameter.
 *
 * <p>Cold (nothing remembered from an earlier call, as at a verifier's first contact):
 *
 * <ul>
 *   <li>{@code verifyCold}: a DVID never seen, signed by a key of a key set never read: the
 *       asserting workload's JWKS text parsed into new key objects (what a tier holding the key set
 *       does once per new key, {@code dvid-keys} memo), then {@link DvidVerifier#verify} with it;
 *       {@code verify} above takes the key object of the trial instead;
 *   <li>{@code proofVerifyCold}: the introspection answer of a DVID never seen ({@link OAuthProof}:
 *       the OAuth message, a proof never verified as JSON text, 80 rounds), under an IdP key parsed
 *       from its JWKS text, with no memo of verified proofs ({@code oauth-proof} off): what the
 *       middle tier pays for a new DVID; {@code zkpVerify80} takes a parsed proof and key.
 * </ul>
 *
 * Each cycles through {@link Cold#DOCUMENTS} documents made at set-up over {@link Cold#KEY_SETS}
 * key sets (DVID) and {@link Cold#PROOFS} proofs over {@link Cold#IDP_KEYS} IdP keys, each parsed
 * anew per call, so no key object, certificate or result of an earlier call is reused.
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
    private static final String DPA = "http://127.0.0.1:9000";

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
        random = Providers.secureRandom(provider, p);
        KeyPair dvidKey = Providers.rsaKeyPair();
        KeyPair idp = Providers.rsaKeyPair();
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
    /** Documents, key sets and proofs that {@code verifyCold} and {@code proofVerifyCold} cycle through. */
    @State(Scope.Benchmark)
    public static class Cold {

        /** How many DVIDs {@code verifyCold} cycles through. */
        static final int DOCUMENTS = 1024;

        /** How many asserting-workload keys (key sets) sign them. */
        static final int KEY_SETS = 32;

        /** How many introspection answers {@code proofVerifyCold} cycles through. */
        static final int PROOFS = 64;

        /** How many IdP keys sign their OAuth tokens. */
        static final int IDP_KEYS = 8;

        Provider p;
        DvidSettings settings;
        String[] dvids;
        String[] keySets;
        OAuthProof[] proofs;
        String[] idpKeySets;
        String[] users;
        private int nextDvid;
        private int nextProof;

        /** The provider of the benchmark's parameter {@code provider}. */
        @Setup(Level.Trial)
        public void setUp(DvidBenchmarks bench) throws Exception {
            p = bench.p;
            SecureRandom random = new SecureRandom();
            settings = DvidSettings.defaults(ASSERTING, Clock.systemUTC());
            KeyPairGenerator gen = KeyPairGenerator.getInstance("RSA");
            gen.initialize(2048, random);
            Instant now = Instant.now();
            DvidMinter[] minters = new DvidMinter[KEY_SETS];
            String[] jwks = new String[KEY_SETS];
            for (int k = 0; k < KEY_SETS; k++) {
                KeyPair pair = gen.generateKeyPair();
                minters[k] = new DvidMinter(pair.getPrivate(), pair.getPublic(), p, settings, random);
                jwks[k] = DvidKeys.jwks(pair.getPublic());
            }
            dvids = new String[DOCUMENTS];
            keySets = new String[DOCUMENTS];
            for (int i = 0; i < DOCUMENTS; i++) {
                int k = i % KEY_SETS;
                dvids[i] = minters[k]
                        .mint(DvidMintRequest.of(SUBJECT, DPA, "user" + i, now.plusSeconds(6 * 3600)))
                        .token();
                keySets[i] = jwks[k];
            }

            proofs = new OAuthProof[PROOFS];
            idpKeySets = new String[PROOFS];
            users = new String[PROOFS];
            KeyPair[] idps = new KeyPair[IDP_KEYS];
            for (int k = 0; k < IDP_KEYS; k++) {
                idps[k] = gen.generateKeyPair();
            }
            for (int i = 0; i < PROOFS; i++) {
                KeyPair idp = idps[i % IDP_KEYS];
                String kid = "idp-" + (i % IDP_KEYS);
                users[i] = "user" + i;
                RSASSASigner signer = new RSASSASigner((RSAPrivateKey) idp.getPrivate());
                SignedJWT oauth = new SignedJWT(
                        new JWSHeader.Builder(JWSAlgorithm.RS256)
                                .keyID(kid)
                                .type(JOSEObjectType.JWT)
                                .build(),
                        new JWTClaimsSet.Builder()
                                .issuer(DPA)
                                .subject(users[i])
                                .audience("spiffeidt")
                                .issueTime(Date.from(now))
                                .expirationTime(Date.from(now.plusSeconds(6 * 3600)))
                                .build());
                oauth.sign(signer);
                proofs[i] = OAuthProof.create(oauth.serialize(), (RSAPublicKey) idp.getPublic(), kid, 80, random, p);
                idpKeySets[i] = DvidKeys.jwks(Map.of(kid, idp.getPublic()));
            }

            // the rows must measure verifications that succeed, and a tampered input must fail
            for (int i = 0; i < DOCUMENTS; i++) {
                verifyDvid(i);
            }
            for (int i = 0; i < PROOFS; i++) {
                verifyProof(i);
            }
            String dvid = dvids[0];
            char last = dvid.charAt(dvid.length() - 2);
            String tampered =
                    dvid.substring(0, dvid.length() - 2) + (last == 'A' ? 'B' : 'A') + dvid.charAt(dvid.length() - 1);
            requireFails(() -> verifier(keySets[0]).verify(tampered, MTIER), ErrorCode.BAD_SIGNATURE);
            requireFails(() -> verifier(keySets[1]).verify(dvids[0], MTIER), ErrorCode.UNTRUSTED_KEY);
            OAuthProof other = new OAuthProof(proofs[0].msg(), proofs[1].zkp(), proofs[0].idpKey());
            requireFails(
                    () -> other.verify(
                            DPA, users[0], idpKeys(idpKeySets[0]), VerificationProfile.STRICT, Limits.defaults(), p),
                    ErrorCode.BAD_PROOF);
        }

        /** A verifier over the key set {@code jwks}, parsed now into new key objects. */
        DvidVerifier verifier(String jwks) {
            Map<String, PublicKey> keys = DvidKeys.parse(jwks, p);
            return new DvidVerifier(settings, p, DvidKeyResolver.of(keys));
        }

        /** The IdP's keys, parsed now from {@code jwks}. */
        IdpKeyResolver idpKeys(String jwks) {
            Map<String, RSAPublicKey> keys = new HashMap<>();
            DvidKeys.parse(jwks, p).forEach((kid, key) -> keys.put(kid, (RSAPublicKey) key));
            return IdpKeyResolver.of(DPA, keys);
        }

        VerifiedDvid verifyDvid(int i) {
            return verifier(keySets[i]).verify(dvids[i], MTIER);
        }

        OAuthProof verifyProof(int i) {
            proofs[i].verify(DPA, users[i], idpKeys(idpKeySets[i]), VerificationProfile.STRICT, Limits.defaults(), p);
            return proofs[i];
        }

        /** The index of the next DVID (one benchmark thread). */
        int nextDvid() {
            int i = nextDvid;
            nextDvid = (i + 1) % DOCUMENTS;
            return i;
        }

        /** The index of the next introspection answer (one benchmark thread). */
        int nextProof() {
            int i = nextProof;
            nextProof = (i + 1) % PROOFS;
            return i;
        }

        private static void requireFails(Runnable verification, ErrorCode expected) {
            try {
                verification.run();
            } catch (AssertionException e) {
                if (e.code() == expected) {
                    return;
                }
                throw new IllegalStateException("expected " + expected + ", got " + e.code(), e);
            }
            throw new IllegalStateException("a tampered input verified");
        }
    }

    @Benchmark
    public VerifiedDvid verifyCold(Cold cold) {
        return cold.verifyDvid(cold.nextDvid());
    }

    @Benchmark
    public OAuthProof proofVerifyCold(Cold cold) {
        return cold.verifyProof(cold.nextProof());
    }
}
