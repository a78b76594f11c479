package io.spiffeidt.core.internal;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TrustBundle;
import java.io.ByteArrayInputStream;
import java.security.GeneralSecurityException;
import java.security.Provider;
import java.security.PublicKey;
import java.security.cert.CertPath;
import java.security.cert.CertPathValidator;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * X.509-SVID checks shared by ID-Mode and LSVID: chain to the bundle, SPIFFE leaf rules, the URI
 * SAN. Not API.
 *
 * <p>Thread safety: stateless.
 */
public final class X509Svids {

    private static final int KU_DIGITAL_SIGNATURE = 0;
    private static final int KU_KEY_CERT_SIGN = 5;
    private static final int KU_CRL_SIGN = 6;

    private X509Svids() {}

    /**
     * Parses concatenated or single DER certificates.
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED}
     */
    public static List<X509Certificate> parseDer(byte[] der) {
        try {
            CertificateFactory cf = CertificateFactory.getInstance("X.509");
            Collection<? extends java.security.cert.Certificate> certs =
                    cf.generateCertificates(new ByteArrayInputStream(der));
            List<X509Certificate> out = new ArrayList<>();
            for (java.security.cert.Certificate c : certs) {
                out.add((X509Certificate) c);
            }
            if (out.isEmpty()) {
                throw new AssertionException(ErrorCode.MALFORMED, "no certificate");
            }
            return out;
        } catch (GeneralSecurityException | RuntimeException e) {
            throw malformed(e);
        }
    }

    /**
     * Parses exactly one DER certificate. The JDK's X.509 factory answers a certificate it parsed
     * before from its cache of recent encodings, so a chain received on every request (ID-Mode
     * artifacts) is not parsed again each time.
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED} for anything but one certificate
     */
    public static X509Certificate parseOne(byte[] der) {
        try {
            ByteArrayInputStream in = new ByteArrayInputStream(der);
            X509Certificate cert =
                    (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
            if (cert == null || in.available() != 0) {
                throw new AssertionException(ErrorCode.MALFORMED, "not exactly one certificate");
            }
            return cert;
        } catch (GeneralSecurityException | RuntimeException e) {
            throw malformed(e);
        }
    }

    /**
     * The SubjectPublicKeyInfo of a DER certificate as it stands in the certificate, when it is the
     * usual form of a P-256 key ({@link P256#KEY_INFO_PREFIX}, named curve, uncompressed point:
     * then these bytes are also its DER encoding); {@code null} for any other key or an encoding
     * this walk does not follow. Only reads the TLV structure up to the key: call it on a
     * certificate that parsed.
     */
    public static byte[] p256KeyInfo(byte[] certDer) {
        // Certificate ::= SEQUENCE { tbsCertificate SEQUENCE { [0] version OPTIONAL, serialNumber,
        //   signature, issuer, validity, subject, subjectPublicKeyInfo, ... }, ... }
        int[] tlv = new int[2];
        if (!Der.header(certDer, 0, 0x30, tlv) || !Der.header(certDer, tlv[0], 0x30, tlv)) {
            return null;
        }
        int pos = tlv[0];
        if (pos < certDer.length && (certDer[pos] & 0xFF) == 0xA0) {
            if (!Der.header(certDer, pos, 0xA0, tlv)) {
                return null;
            }
            pos = tlv[0] + tlv[1];
        }
        for (int skip = 0; skip < 5; skip++) { // serialNumber, signature, issuer, validity, subject
            if (!Der.header(certDer, pos, -1, tlv)) {
                return null;
            }
            pos = tlv[0] + tlv[1];
        }
        int length = P256.KEY_INFO_LENGTH;
        if (pos + length > certDer.length
                || !Arrays.equals(
                        certDer,
                        pos,
                        pos + P256.KEY_INFO_PREFIX.length,
                        P256.KEY_INFO_PREFIX,
                        0,
                        P256.KEY_INFO_PREFIX.length)) {
            return null;
        }
        return Arrays.copyOfRange(certDer, pos, pos + length);
    }

    /** Reading DER headers: definite lengths only. */
    private static final class Der {
        private Der() {}

        /**
         * Reads the header of the TLV at {@code pos}, with tag {@code tag} (any when negative); on
         * success {@code out} holds the content's offset and length, inside {@code der}.
         */
        static boolean header(byte[] der, int pos, int tag, int[] out) {
            if (pos < 0 || pos + 2 > der.length || (tag >= 0 && (der[pos] & 0xFF) != tag)) {
                return false;
            }
            if ((der[pos] & 0x1F) == 0x1F) {
                return false; // high tag numbers do not occur before the key
            }
            int first = der[pos + 1] & 0xFF;
            int at = pos + 2;
            long length;
            if (first < 0x80) {
                length = first;
            } else {
                int count = first & 0x7F;
                if (count == 0 || count > 4 || at + count > der.length) {
                    return false;
                }
                length = 0;
                for (int i = 0; i < count; i++) {
                    length = (length << 8) | (der[at++] & 0xFF);
                }
            }
            if (length > der.length - at) {
                return false;
            }
            out[0] = at;
            out[1] = (int) length;
            return true;
        }
    }

    /** {@code e} itself when it already carries a code, else {@code MALFORMED}. */
    private static AssertionException malformed(Exception e) {
        return e instanceof AssertionException ae
                ? ae
                : new AssertionException(ErrorCode.MALFORMED, "invalid certificate encoding");
    }

    /**
     * The single URI SAN of a certificate, parsed as a SPIFFE ID.
     *
     * @throws AssertionException {@link ErrorCode#UNTRUSTED_KEY} if there is not exactly one
     */
    public static SpiffeId spiffeId(X509Certificate cert) {
        return SpiffeId.fromX509Svid(cert);
    }

    /** {@link #validate(List, TrustBundle, Instant, int, Provider)} with the JDK's provider list. */
    public static SpiffeId validate(List<X509Certificate> chain, TrustBundle bundle, Instant at, int layer) {
        return validate(chain, bundle, at, layer, null);
    }

    /**
     * Validates an X.509-SVID chain (leaf first) against the bundle at {@code at}, enforces the
     * SPIFFE leaf rules (not a CA, digitalSignature, no keyCertSign / cRLSign, one URI SAN in the
     * bundle's trust domain) and returns the leaf's SPIFFE ID. The chain is validated as PKIX
     * validates it (RFC 5280 section 6, revocation off); a chain of the usual SVID shape is
     * validated by {@link SvidChains}, with the certificates' signatures verified by {@code
     * provider}, anything else by the JDK's {@code CertPathValidator}.
     *
     * @param provider the JCA provider for the certificates' signatures, or {@code null} for the
     *     JDK's provider list
     * @throws AssertionException {@link ErrorCode#UNTRUSTED_KEY} on any failure
     */
    public static SpiffeId validate(
            List<X509Certificate> chain, TrustBundle bundle, Instant at, int layer, Provider provider) {
        return validate(chain, new Anchors(bundle, provider, null), at, layer);
    }

    /**
     * A trust bundle and the provider that verifies certificate signatures, with the roots' keys
     * as that provider's own key objects: made once per bundle and provider (a verifier's settings)
     * rather than once per chain. Not API.
     *
     * @param rootKeys the keys of {@code bundle}'s roots in its order, or {@code null} for the
     *     roots' keys as they are
     */
    public record Anchors(TrustBundle bundle, Provider provider, List<PublicKey> rootKeys) {

        /** Requires the bundle; the root keys, when given, match its roots. */
        public Anchors {
            Objects.requireNonNull(bundle, "bundle");
            if (rootKeys != null && rootKeys.size() != bundle.roots().size()) {
                throw new IllegalArgumentException("one key per root");
            }
        }

        /** The anchors of {@code bundle} for {@code provider} ({@code null}: the JDK's list). */
        public static Anchors of(TrustBundle bundle, Provider provider) {
            return new Anchors(bundle, provider, SvidChains.rootKeys(bundle, provider));
        }
    }

    /**
     * {@link #validate(List, TrustBundle, Instant, int, Provider)} against {@code anchors}' bundle,
     * with its provider and root keys.
     */
    public static SpiffeId validate(List<X509Certificate> chain, Anchors anchors, Instant at, int layer) {
        TrustBundle bundle = anchors.bundle();
        Provider provider = anchors.provider();
        if (chain.isEmpty()) {
            throw new AssertionException(ErrorCode.UNTRUSTED_KEY, layer, "empty certificate chain");
        }
        X509Certificate leaf = chain.get(0);
        if (leaf.getBasicConstraints() >= 0) {
            throw new AssertionException(ErrorCode.UNTRUSTED_KEY, layer, "leaf certificate is a CA");
        }
        boolean[] ku = leaf.getKeyUsage();
        if (ku == null
                || !ku[KU_DIGITAL_SIGNATURE]
                || (ku.length > KU_KEY_CERT_SIGN && ku[KU_KEY_CERT_SIGN])
                || (ku.length > KU_CRL_SIGN && ku[KU_CRL_SIGN])) {
            throw new AssertionException(ErrorCode.UNTRUSTED_KEY, layer, "leaf key usage violates SPIFFE rules");
        }
        SpiffeId id;
        try {
            id = spiffeId(leaf);
        } catch (AssertionException e) {
            throw new AssertionException(ErrorCode.UNTRUSTED_KEY, layer, "leaf has no valid SPIFFE ID");
        }
        if (!id.memberOf(bundle.trustDomain())) {
            throw new AssertionException(ErrorCode.UNTRUSTED_KEY, layer, "leaf " + id + " is not in the trust domain");
        }
        try {
            Date date = Date.from(at);
            if (SvidChains.covers(chain, bundle)) {
                SvidChains.validate(chain, bundle, anchors.rootKeys(), date, provider);
            } else {
                pkix(chain, bundle, date);
            }
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new AssertionException(
                    ErrorCode.UNTRUSTED_KEY, layer, "certificate of " + id + " does not chain to the bundle");
        }
        return id;
    }

    /** The JDK's PKIX validation of {@code chain} to the bundle's roots, revocation off. */
    static void pkix(List<X509Certificate> chain, TrustBundle bundle, Date at) throws GeneralSecurityException {
        CertificateFactory cf = CertificateFactory.getInstance("X.509");
        CertPath path = cf.generateCertPath(chain);
        Set<TrustAnchor> anchors = new HashSet<>();
        for (X509Certificate root : bundle.roots()) {
            anchors.add(new TrustAnchor(root, null));
        }
        PKIXParameters params = new PKIXParameters(anchors);
        params.setRevocationEnabled(false);
        params.setDate(at);
        CertPathValidator.getInstance("PKIX").validate(path, params);
    }
}
