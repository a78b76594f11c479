package io.spiffeidt.devstack.ca;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TrustBundle;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import java.util.List;
import java.util.Objects;
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
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The development certificate authority of one trust domain: a self-signed EC P-256 root that
 * issues X.509-SVIDs (one URI SAN, TLS server and client usage) and an EC P-256 JWT authority
 * that signs ES256 JWT-SVIDs and is published as a JWKS. It stands in for the SPIRE server.
 *
 * <p>Every SVID gets a fresh key pair. Keys are generated and certificates signed with a
 * BouncyCastle provider instance that is never registered globally; the private keys handed out
 * are re-read by the JDK's default {@code KeyFactory}, exactly as a Workload API client would
 * read them from the PKCS#8 encoding.
 *
 * <p>Thread safety: thread-safe; every method may be called concurrently.
 */
public final class DevCa {

    /** The default X.509-SVID lifetime. */
    public static final Duration DEFAULT_SVID_TTL = Duration.ofHours(1);

    /** The JWT-SVID lifetime the development Workload API uses (SPIRE's default). */
    public static final Duration DEFAULT_JWT_SVID_TTL = Duration.ofMinutes(5);

    /** Certificates start this much before "now", so a peer whose clock lags still accepts them. */
    private static final Duration BACKDATE = Duration.ofSeconds(10);

    private static final Duration MIN_ROOT_TTL = Duration.ofDays(365);
    private static final int MAX_JWT_LENGTH = 16 * 1024;
    private static final String SIGNATURE_ALGORITHM = "SHA256withECDSA";
    private static final String CURVE = "secp256r1";
    private static final X500Name LEAF_SUBJECT = new X500Name("O=SPIFFE-IdT devstack");

    /** One provider instance for every CA: building one is costly, using one is thread-safe. */
    private static final Provider PROVIDER = new BouncyCastleProvider();

    private final Provider provider;
    private final SecureRandom random;
    private final String trustDomain;
    private final Duration svidTtl;
    private final Clock clock;
    private final PrivateKey rootKey;
    private final X509Certificate root;
    private final X500Name rootName;
    private final ECPrivateKey jwtSigningKey;
    private final ECKey jwtAuthority;

    private DevCa(String trustDomain, Duration svidTtl, Clock clock) {
        this.provider = PROVIDER;
        this.random = new SecureRandom();
        this.trustDomain = trustDomain;
        this.svidTtl = svidTtl;
        this.clock = clock;
        try {
            KeyPair rootPair = newKeyPair();
            this.rootKey = rootPair.getPrivate();
            this.rootName = new X500Name("O=SPIFFE-IdT devstack, CN=" + trustDomain + " root CA");
            this.root = selfSign(rootPair);
            KeyPair jwtPair = newKeyPair();
            this.jwtSigningKey = (ECPrivateKey) jwtPair.getPrivate();
            this.jwtAuthority = new ECKey.Builder(Curve.P_256, (ECPublicKey) jwtPair.getPublic())
                    .keyUse(new KeyUse("jwt-svid"))
                    .algorithm(JWSAlgorithm.ES256)
                    .keyIDFromThumbprint()
                    .build();
        } catch (GeneralSecurityException | OperatorCreationException | JOSEException | java.io.IOException e) {
            throw new IllegalStateException("cannot create the development CA", e);
        }
    }

    /**
     * Creates a CA with a fresh root and JWT authority.
     *
     * @param trustDomain the trust domain name, e.g. {@code example.org}
     * @param svidTtl the lifetime of every X.509-SVID it issues (positive)
     * @param clock the source of "now" for certificate validity and JWT times
     * @throws IllegalArgumentException if the trust domain is not a valid name or the TTL is not
     *     positive
     */
    public static DevCa create(String trustDomain, Duration svidTtl, Clock clock) {
        Objects.requireNonNull(trustDomain, "trustDomain");
        Objects.requireNonNull(svidTtl, "svidTtl");
        Objects.requireNonNull(clock, "clock");
        if (!SpiffeId.isValid("spiffe://" + trustDomain) || trustDomain.contains("/")) {
            throw new IllegalArgumentException("not a trust domain name: " + trustDomain);
        }
        if (svidTtl.isNegative() || svidTtl.isZero()) {
            throw new IllegalArgumentException("the SVID TTL must be positive");
        }
        return new DevCa(trustDomain, svidTtl, clock);
    }

    /** Creates a CA with the {@link #DEFAULT_SVID_TTL default TTL} and the system UTC clock. */
    public static DevCa create(String trustDomain) {
        return create(trustDomain, DEFAULT_SVID_TTL, Clock.systemUTC());
    }

    /** The root certificate: the trust domain's X.509 bundle. */
    public X509Certificate root() {
        return root;
    }

    /** The trust domain name. */
    public String trustDomain() {
        return trustDomain;
    }

    /** The X.509-SVID lifetime. */
    public Duration svidTtl() {
        return svidTtl;
    }

    /** The clock that dates certificates and JWTs. */
    public Clock clock() {
        return clock;
    }

    /** The X.509 bundle of the trust domain as the core type. */
    public TrustBundle trustBundle() {
        return new TrustBundle(trustDomain, List.of(root));
    }

    /** The key ID of the JWT authority (its RFC 7638 thumbprint), as JWT-SVID headers carry it. */
    public String jwtKeyId() {
        return jwtAuthority.getKeyID();
    }

    /**
     * Issues an X.509-SVID for {@code id} with a new EC P-256 key: not a CA, one URI SAN,
     * keyUsage digitalSignature only, extendedKeyUsage serverAuth and clientAuth, valid from ten
     * seconds before now for the configured TTL (never beyond the root).
     *
     * @throws IllegalArgumentException if {@code id} is not in this trust domain
     */
    public IssuedSvid issue(SpiffeId id) {
        requireMember(id);
        try {
            KeyPair pair = newKeyPair();
            Instant now = now();
            Instant notAfter = now.plus(svidTtl);
            Instant rootNotAfter = root.getNotAfter().toInstant();
            if (notAfter.isAfter(rootNotAfter)) {
                notAfter = rootNotAfter;
            }
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                    rootName,
                    serial(),
                    Date.from(now.minus(BACKDATE)),
                    Date.from(notAfter),
                    LEAF_SUBJECT,
                    pair.getPublic());
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
            builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(new KeyPurposeId[] {
                KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth
            }));
            builder.addExtension(
                    Extension.subjectAlternativeName,
                    false,
                    new GeneralNames(new GeneralName(GeneralName.uniformResourceIdentifier, id.toString())));
            builder.addExtension(
                    Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(pair.getPublic()));
            builder.addExtension(
                    Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(root.getPublicKey()));
            X509Certificate leaf = new JcaX509CertificateConverter().getCertificate(builder.build(signer()));
            PrivateKey key = KeyFactory.getInstance("EC")
                    .generatePrivate(new PKCS8EncodedKeySpec(pair.getPrivate().getEncoded()));
            return new IssuedSvid(List.of(leaf), key, id);
        } catch (GeneralSecurityException | OperatorCreationException | java.io.IOException e) {
            throw new IllegalStateException("cannot issue an X.509-SVID for " + id, e);
        }
    }

    /**
     * Signs a JWT-SVID (ES256, header {@code kid} = {@link #jwtKeyId()}, {@code typ} JWT) with the
     * claims {@code sub}, {@code aud}, {@code iat} and {@code exp} = now + {@code ttl}.
     *
     * @throws IllegalArgumentException if {@code id} is not in this trust domain, the audience is
     *     empty or has a blank entry, or the TTL is not positive
     */
    public String signJwtSvid(SpiffeId id, List<String> audience, Duration ttl) {
        requireMember(id);
        Objects.requireNonNull(audience, "audience");
        Objects.requireNonNull(ttl, "ttl");
        if (audience.isEmpty() || audience.stream().anyMatch(a -> a == null || a.isBlank())) {
            throw new IllegalArgumentException("a JWT-SVID needs a non-empty audience");
        }
        if (ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("the JWT-SVID TTL must be positive");
        }
        Instant now = now();
        JWSHeader header = new JWSHeader.Builder(JWSAlgorithm.ES256)
                .keyID(jwtAuthority.getKeyID())
                .type(JOSEObjectType.JWT)
                .build();
        JWTClaimsSet claims = new JWTClaimsSet.Builder()
                .subject(id.toString())
                .audience(List.copyOf(audience))
                .issueTime(Date.from(now))
                .expirationTime(Date.from(now.plus(ttl)))
                .build();
        SignedJWT jwt = new SignedJWT(header, claims);
        try {
            ECDSASigner signer = new ECDSASigner(jwtSigningKey);
            signer.getJCAContext().setProvider(provider);
            jwt.sign(signer);
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot sign a JWT-SVID for " + id, e);
        }
        return jwt.serialize();
    }

    /**
     * Validates a JWT-SVID as the Workload API's ValidateJWTSVID does: ES256 signature by this
     * CA's JWT authority, {@code sub} a SPIFFE ID of this trust domain, not expired (no skew),
     * {@code aud} containing {@code audience}.
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED} (unparsable, missing claims),
     *     {@link ErrorCode#LIMIT_EXCEEDED} (too long), {@link ErrorCode#UNSUPPORTED} (not ES256),
     *     {@link ErrorCode#UNTRUSTED_KEY} (unknown {@code kid}, foreign trust domain),
     *     {@link ErrorCode#BAD_SIGNATURE}, {@link ErrorCode#EXPIRED}, {@link
     *     ErrorCode#NOT_YET_VALID}, {@link ErrorCode#WRONG_AUDIENCE}
     */
    public VerifiedJwtSvid validateJwtSvid(String token, String audience) {
        if (token == null || token.isEmpty()) {
            throw new AssertionException(ErrorCode.MALFORMED, "empty JWT-SVID");
        }
        if (token.length() > MAX_JWT_LENGTH) {
            throw new AssertionException(ErrorCode.LIMIT_EXCEEDED, "JWT-SVID too long");
        }
        SignedJWT jwt;
        JWTClaimsSet claims;
        try {
            jwt = SignedJWT.parse(token);
            claims = jwt.getJWTClaimsSet();
        } catch (ParseException | RuntimeException e) {
            throw new AssertionException(ErrorCode.MALFORMED, "JWT-SVID cannot be parsed");
        }
        if (!JWSAlgorithm.ES256.equals(jwt.getHeader().getAlgorithm())) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, "JWT-SVID algorithm is not ES256");
        }
        if (!jwtAuthority.getKeyID().equals(jwt.getHeader().getKeyID())) {
            throw new AssertionException(ErrorCode.UNTRUSTED_KEY, "JWT-SVID key ID is not in the JWT bundle");
        }
        boolean valid;
        try {
            ECDSAVerifier verifier = new ECDSAVerifier(jwtAuthority.toECPublicKey());
            verifier.getJCAContext().setProvider(provider);
            valid = jwt.verify(verifier);
        } catch (JOSEException | RuntimeException e) {
            valid = false;
        }
        if (!valid) {
            throw new AssertionException(ErrorCode.BAD_SIGNATURE, "JWT-SVID signature does not verify");
        }
        if (claims.getSubject() == null) {
            throw new AssertionException(ErrorCode.MALFORMED, "JWT-SVID without sub");
        }
        SpiffeId id = SpiffeId.parse(claims.getSubject());
        if (!id.memberOf(trustDomain)) {
            throw new AssertionException(
                    ErrorCode.UNTRUSTED_KEY, "JWT-SVID subject " + id + " is not in " + trustDomain);
        }
        Instant now = clock.instant();
        Date exp = claims.getExpirationTime();
        if (exp == null) {
            throw new AssertionException(ErrorCode.MALFORMED, "JWT-SVID without exp");
        }
        if (!now.isBefore(exp.toInstant())) {
            throw new AssertionException(ErrorCode.EXPIRED, "JWT-SVID of " + id + " has expired");
        }
        Date nbf = claims.getNotBeforeTime();
        if (nbf != null && now.isBefore(nbf.toInstant())) {
            throw new AssertionException(ErrorCode.NOT_YET_VALID, "JWT-SVID of " + id + " is not yet valid");
        }
        List<String> aud = claims.getAudience();
        if (audience == null || !aud.contains(audience)) {
            throw new AssertionException(
                    ErrorCode.WRONG_AUDIENCE, "JWT-SVID of " + id + " is not for the requested audience");
        }
        return new VerifiedJwtSvid(id, aud, exp.toInstant(), claims.toJSONObject());
    }

    /**
     * The JWT bundle of the trust domain: a JWKS (RFC 7517) holding the public JWT authority with
     * its {@code kid} and {@code "use": "jwt-svid"}, as SPIRE publishes it.
     */
    public String jwtBundleJson() {
        return new JWKSet(jwtAuthority).toString(true);
    }

    @Override
    public String toString() {
        return "DevCa[" + trustDomain + "]";
    }

    private void requireMember(SpiffeId id) {
        Objects.requireNonNull(id, "id");
        if (!id.memberOf(trustDomain)) {
            throw new IllegalArgumentException(id + " is not in the trust domain " + trustDomain);
        }
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.SECONDS);
    }

    private KeyPair newKeyPair() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC", provider);
        generator.initialize(new ECGenParameterSpec(CURVE), random);
        return generator.generateKeyPair();
    }

    private BigInteger serial() {
        return new BigInteger(127, random).add(BigInteger.ONE);
    }

    private ContentSigner signer() throws OperatorCreationException {
        return new JcaContentSignerBuilder(SIGNATURE_ALGORITHM)
                .setProvider(provider)
                .setSecureRandom(random)
                .build(rootKey);
    }

    private X509Certificate selfSign(KeyPair pair)
            throws GeneralSecurityException, OperatorCreationException, java.io.IOException {
        Instant now = now();
        Duration ttl = svidTtl.multipliedBy(2).compareTo(MIN_ROOT_TTL) > 0 ? svidTtl.multipliedBy(2) : MIN_ROOT_TTL;
        JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
        X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                rootName,
                serial(),
                Date.from(now.minus(BACKDATE)),
                Date.from(now.plus(ttl)),
                rootName,
                pair.getPublic());
        builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
        builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
        builder.addExtension(
                Extension.subjectAlternativeName,
                false,
                new GeneralNames(new GeneralName(GeneralName.uniformResourceIdentifier, "spiffe://" + trustDomain)));
        builder.addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(pair.getPublic()));
        return new JcaX509CertificateConverter().getCertificate(builder.build(signer()));
    }
}
