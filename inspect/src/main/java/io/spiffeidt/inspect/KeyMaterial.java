package io.spiffeidt.inspect;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.dvid.DvidKeys;
import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.Provider;
import java.security.PublicKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads public key material from files: PEM certificates and SPKI public keys, RFC 7517 JWKs and
 * JWK Sets (through {@link DvidKeys}, which refuses private members). A private key is refused with
 * a usage error that names the file, never its content.
 */
final class KeyMaterial {

    private static final Pattern PEM =
            Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----([A-Za-z0-9+/=\\s]*?)-----END \\1-----");

    private KeyMaterial() {}

    /**
     * Public keys by {@code kid} ({@code ""} when a JWK has none).
     *
     * @param byKid the keys
     * @param anyKid whether the one key is used whatever the {@code kid} (a PEM key or certificate)
     */
    record Keys(Map<String, PublicKey> byKid, boolean anyKid) {

        /**
         * The key for {@code kid}: the one PEM key for any kid; else the JWK of that kid; else, when
         * the set is one JWK without a kid, that key (nothing else could be meant).
         */
        Optional<PublicKey> forKid(String kid) {
            if (anyKid) {
                return Optional.of(first());
            }
            PublicKey exact = byKid.get(kid == null ? "" : kid);
            if (exact != null) {
                return Optional.of(exact);
            }
            return byKid.size() == 1 && byKid.containsKey("") ? Optional.of(first()) : Optional.empty();
        }

        /** The first key (to pick an algorithm). */
        PublicKey first() {
            return byKid.values().iterator().next();
        }
    }

    /** Reads a PEM public key or certificate, a JWK or a JWKS. */
    static Keys publicKeys(Path file, Provider provider) {
        String text = Inputs.readFile(file).strip();
        if (text.startsWith("{")) {
            try {
                if (text.contains("\"keys\"")) {
                    Map<String, PublicKey> keys = DvidKeys.parse(text, provider);
                    if (keys.isEmpty()) {
                        throw new UsageException("no keys in JWKS " + file);
                    }
                    return new Keys(keys, false);
                }
                Map<String, PublicKey> one = new LinkedHashMap<>();
                one.put(DvidKeys.kidOf(text), DvidKeys.parseJwk(text, provider));
                return new Keys(one, false);
            } catch (AssertionException e) {
                throw new UsageException("unusable JWK/JWKS in " + file + ": " + e.code(), e);
            }
        }
        List<PublicKey> keys = pemPublicKeys(text, file);
        if (keys.size() != 1) {
            throw new UsageException("expected one public key or certificate in " + file + ", found " + keys.size());
        }
        Map<String, PublicKey> one = new LinkedHashMap<>();
        one.put("", keys.get(0));
        return new Keys(one, true);
    }

    /** The one public key of a PEM or JWK file. */
    static PublicKey publicKey(Path file, Provider provider) {
        Keys keys = publicKeys(file, provider);
        if (keys.byKid().size() != 1) {
            throw new UsageException(
                    "expected one key in " + file + ", found " + keys.byKid().size());
        }
        return keys.first();
    }

    /** Every certificate of a PEM file (at least one). */
    static List<X509Certificate> certificates(Path file) {
        String text = Inputs.readFile(file);
        List<X509Certificate> out = new ArrayList<>();
        for (Block b : blocks(text, file)) {
            if (!b.type().equals("CERTIFICATE")) {
                throw new UsageException("expected only certificates in " + file + ", found a " + b.type() + " block");
            }
            out.add(certificate(b.der(), file));
        }
        if (out.isEmpty()) {
            throw new UsageException("no PEM certificate in " + file);
        }
        return out;
    }

    /** The SPIFFE ID URI SANs of a certificate. */
    static List<String> spiffeIds(X509Certificate cert) {
        List<String> ids = new ArrayList<>();
        try {
            Collection<List<?>> sans = cert.getSubjectAlternativeNames();
            if (sans != null) {
                for (List<?> san : sans) {
                    if (san.size() == 2
                            && Integer.valueOf(6).equals(san.get(0))
                            && san.get(1) instanceof String uri
                            && uri.startsWith("spiffe://")) {
                        ids.add(uri);
                    }
                }
            }
        } catch (CertificateParsingException e) {
            return List.of();
        }
        return ids;
    }

    private static List<PublicKey> pemPublicKeys(String text, Path file) {
        List<PublicKey> out = new ArrayList<>();
        for (Block b : blocks(text, file)) {
            switch (b.type()) {
                case "CERTIFICATE" -> out.add(certificate(b.der(), file).getPublicKey());
                case "PUBLIC KEY" -> out.add(spki(b.der(), file));
                default -> throw refuse(b.type(), file);
            }
        }
        if (out.isEmpty()) {
            throw new UsageException("no PEM public key or certificate in " + file);
        }
        return out;
    }

    private static UsageException refuse(String type, Path file) {
        if (type.contains("PRIVATE")) {
            return new UsageException(
                    file + " holds a private key; give the public key or the certificate (nothing of it was printed)");
        }
        return new UsageException("unsupported PEM block " + type + " in " + file);
    }

    private static PublicKey spki(byte[] der, Path file) {
        for (String alg : List.of("EC", "RSA", "Ed25519")) {
            try {
                return KeyFactory.getInstance(alg).generatePublic(new X509EncodedKeySpec(der));
            } catch (GeneralSecurityException | RuntimeException e) {
                // try the next algorithm
            }
        }
        throw new UsageException("unreadable public key in " + file);
    }

    private static X509Certificate certificate(byte[] der, Path file) {
        try {
            return (X509Certificate)
                    CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(der));
        } catch (CertificateException | RuntimeException e) {
            throw new UsageException("unreadable certificate in " + file);
        }
    }

    private record Block(String type, byte[] der) {}

    private static List<Block> blocks(String text, Path file) {
        if (text.contains("PRIVATE KEY-----")) {
            throw refuse("PRIVATE KEY", file);
        }
        List<Block> out = new ArrayList<>();
        Matcher m = PEM.matcher(text);
        while (m.find()) {
            try {
                out.add(new Block(m.group(1), Base64.getMimeDecoder().decode(m.group(2))));
            } catch (IllegalArgumentException e) {
                throw new UsageException("bad base64 in a PEM block of " + file);
            }
        }
        return out;
    }
}
