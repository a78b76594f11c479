package io.spiffeidt.core.internal;

import io.spiffeidt.core.TrustBundle;
import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import java.security.PublicKey;
import java.security.cert.CertPathValidatorException;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Set;

/**
 * Our own RFC 5280 path validation for the shape every X.509-SVID chain has, because the JDK's
 * {@code CertPathValidator} verifies certificate signatures with the JDK's registered providers
 * only (SunEC's P-256 costs about a millisecond per signature here) and a verifier's provider
 * (ACCP, BouncyCastle) is never registered globally. Not API.
 *
 * <p>{@link #covers} admits a chain only where this class makes every check the JDK's PKIX
 * validator makes with the parameters {@link X509Svids} gives it (revocation off, no initial
 * policies, no name constraints on the anchors): every certificate is X.509 v3, signed with ECDSA or
 * RSA PKCS#1 v1.5 over SHA-256/384/512 by a NIST P-256/384/521 or RSA ≥ 2048-bit key (inside the
 * JDK's {@code jdk.certpath.disabledAlgorithms}), has no critical extension but basic constraints,
 * key usage, subject alternative name and extended key usage, and none of name constraints or the
 * policy extensions; the roots that could anchor it have such keys too. Any other chain goes to the
 * JDK's validator. {@link #validate} then checks, as RFC 5280 section 6.1 does: validity at the
 * date of every certificate, issuer / subject name chaining, every signature up to a root of the
 * bundle whose subject is the last issuer (the root's own validity and extensions are not checked,
 * as PKIX treats a trust anchor), CA basic constraints, keyCertSign and the path length of every
 * intermediate.
 *
 * <p>Thread safety: stateless.
 */
final class SvidChains {

    private static final String BASIC_CONSTRAINTS = "2.5.29.19";
    private static final String KEY_USAGE = "2.5.29.15";
    private static final String SUBJECT_ALT_NAME = "2.5.29.17";
    private static final String EXT_KEY_USAGE = "2.5.29.37";

    /** Critical extensions the JDK's validator processes with our parameters and this class too. */
    private static final Set<String> CRITICAL_HANDLED =
            Set.of(BASIC_CONSTRAINTS, KEY_USAGE, SUBJECT_ALT_NAME, EXT_KEY_USAGE);

    /** Name constraints and the policy extensions: left to the JDK's validator wherever they occur. */
    private static final Set<String> LEFT_TO_PKIX =
            Set.of("2.5.29.30", "2.5.29.32", "2.5.29.33", "2.5.29.36", "2.5.29.54");

    /** ECDSA and RSA PKCS#1 v1.5 with SHA-256, SHA-384, SHA-512. */
    private static final Set<String> SIGNATURES = Set.of(
            "1.2.840.10045.4.3.2",
            "1.2.840.10045.4.3.3",
            "1.2.840.10045.4.3.4",
            "1.2.840.113549.1.1.11",
            "1.2.840.113549.1.1.12",
            "1.2.840.113549.1.1.13");

    private static final int MIN_RSA_BITS = 2048;
    private static final int KU_KEY_CERT_SIGN = 5;

    /** The DER length of an empty name: {@code SEQUENCE {}}. */
    private static final int EMPTY_NAME_LENGTH = 2;

    private static final List<ECParameterSpec> NIST_CURVES = nistCurves();

    private SvidChains() {}

    private static List<ECParameterSpec> nistCurves() {
        List<ECParameterSpec> curves = new ArrayList<>();
        for (String name : List.of("secp256r1", "secp384r1", "secp521r1")) {
            try {
                AlgorithmParameters p = AlgorithmParameters.getInstance("EC");
                p.init(new ECGenParameterSpec(name));
                curves.add(p.getParameterSpec(ECParameterSpec.class));
            } catch (GeneralSecurityException e) {
                // a curve the JDK lacks: keys on it go to the JDK's validator
            }
        }
        return List.copyOf(curves);
    }

    /** Whether {@link #validate} makes every check PKIX makes for this chain and bundle. */
    static boolean covers(List<X509Certificate> chain, TrustBundle bundle) {
        for (X509Certificate cert : chain) {
            if (cert.getVersion() != 3
                    || !SIGNATURES.contains(cert.getSigAlgOID())
                    || !allowedKey(cert.getPublicKey())
                    || !handled(cert)) {
                return false;
            }
        }
        X509Certificate last = chain.get(chain.size() - 1);
        for (X509Certificate root : bundle.roots()) {
            if (root.getSubjectX500Principal().equals(last.getIssuerX500Principal())
                    && !allowedKey(root.getPublicKey())) {
                return false;
            }
        }
        return true;
    }

    private static boolean handled(X509Certificate cert) {
        Set<String> critical = cert.getCriticalExtensionOIDs();
        if (critical != null) {
            for (String oid : critical) {
                if (!CRITICAL_HANDLED.contains(oid)) {
                    return false;
                }
            }
        }
        Set<String> nonCritical = cert.getNonCriticalExtensionOIDs();
        if (nonCritical != null) {
            for (String oid : nonCritical) {
                if (LEFT_TO_PKIX.contains(oid)) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean allowedKey(PublicKey key) {
        if (key instanceof RSAPublicKey rsa) {
            return rsa.getModulus().bitLength() >= MIN_RSA_BITS;
        }
        if (key instanceof ECPublicKey ec) {
            ECParameterSpec p = ec.getParams();
            for (ECParameterSpec nist : NIST_CURVES) {
                if (nist.getCurve().equals(p.getCurve())
                        && nist.getGenerator().equals(p.getGenerator())
                        && nist.getOrder().equals(p.getOrder())
                        && nist.getCofactor() == p.getCofactor()) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Validates a chain that {@link #covers} admitted (leaf first) to a root of the bundle at
     * {@code at}.
     *
     * @param provider the JCA provider for the signatures, or {@code null} for the JDK's list
     * @throws GeneralSecurityException if the chain does not validate
     */
    static void validate(List<X509Certificate> chain, TrustBundle bundle, Date at, Provider provider)
            throws GeneralSecurityException {
        validate(chain, bundle, null, at, provider);
    }

    /**
     * As {@link #validate(List, TrustBundle, Date, Provider)}, with {@code rootKeys} the keys of the
     * bundle's roots in its order, as {@code provider}'s own key objects ({@link #rootKeys}), or
     * {@code null} to take each root's key as it is.
     */
    static void validate(
            List<X509Certificate> chain, TrustBundle bundle, List<PublicKey> rootKeys, Date at, Provider provider)
            throws GeneralSecurityException {
        int n = chain.size();
        // RFC 5280 6.1.4 (l), (m): from the anchor towards the leaf, self-issued certificates uncounted
        int maxPathLength = n;
        for (int i = n - 1; i >= 1; i--) {
            X509Certificate ca = chain.get(i);
            if (ca.getBasicConstraints() < 0) {
                throw new CertPathValidatorException("intermediate is not a CA");
            }
            boolean[] ku = ca.getKeyUsage();
            if (ku != null && (ku.length <= KU_KEY_CERT_SIGN || !ku[KU_KEY_CERT_SIGN])) {
                throw new CertPathValidatorException("intermediate may not sign certificates");
            }
            if (!ca.getSubjectX500Principal().equals(ca.getIssuerX500Principal())) {
                if (maxPathLength <= 0) {
                    throw new CertPathValidatorException("path length exceeded");
                }
                maxPathLength--;
            }
            maxPathLength = Math.min(maxPathLength, ca.getBasicConstraints());
        }
        for (int i = 0; i < n; i++) {
            X509Certificate cert = chain.get(i);
            cert.checkValidity(at);
            if (cert.getIssuerX500Principal().getEncoded().length == EMPTY_NAME_LENGTH) {
                throw new CertPathValidatorException("empty issuer name");
            }
            if (i + 1 < n) {
                X509Certificate issuer = chain.get(i + 1);
                if (!cert.getIssuerX500Principal().equals(issuer.getSubjectX500Principal())) {
                    throw new CertPathValidatorException("issuer / subject name chaining failed");
                }
                verify(cert, issuer.getPublicKey(), provider);
            }
        }
        X509Certificate last = chain.get(n - 1);
        List<X509Certificate> roots = bundle.roots();
        for (int r = 0; r < roots.size(); r++) {
            X509Certificate root = roots.get(r);
            if (root.getSubjectX500Principal().equals(last.getIssuerX500Principal())
                    && signedBy(last, rootKeys == null ? root.getPublicKey() : rootKeys.get(r), provider)) {
                return;
            }
        }
        throw new CertPathValidatorException("no root of the bundle signed the chain");
    }

    /**
     * The keys of the bundle's roots, in its order, as {@code provider}'s own key objects where it
     * can translate them (a provider given a foreign key translates it on every verification; for
     * Amazon Corretto a DER round trip into a native key), else as they are.
     */
    static List<PublicKey> rootKeys(TrustBundle bundle, Provider provider) {
        List<PublicKey> keys = new ArrayList<>(bundle.roots().size());
        for (X509Certificate root : bundle.roots()) {
            PublicKey key = root.getPublicKey();
            if (provider != null) {
                try {
                    key = (PublicKey)
                            KeyFactory.getInstance(key.getAlgorithm(), provider).translateKey(key);
                } catch (GeneralSecurityException | RuntimeException e) {
                    // a provider that cannot translate it verifies with the key as it is
                }
            }
            keys.add(key);
        }
        return List.copyOf(keys);
    }

    private static boolean signedBy(X509Certificate cert, PublicKey key, Provider provider) {
        try {
            verify(cert, key, provider);
            return true;
        } catch (GeneralSecurityException | RuntimeException e) {
            return false;
        }
    }

    private static void verify(X509Certificate cert, PublicKey key, Provider provider) throws GeneralSecurityException {
        if (provider == null) {
            cert.verify(key);
            return;
        }
        try {
            cert.verify(key, provider);
        } catch (NoSuchAlgorithmException e) {
            // a provider without this certificate's algorithm: the JDK's list verifies it
            cert.verify(key);
        }
    }
}
