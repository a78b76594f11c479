package io.spiffeidt.idp.token;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.RSAPublicKeySpec;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The IdP's RS256 signing key as a JWK: generated (RSA-2048) or read from a PEM file. The key id
 * ({@code kid}) is the RFC 7638 SHA-256 thumbprint, so a key read from a file keeps its id across
 * restarts.
 *
 * <p>Thread safety: stateless.
 */
public final class SigningKeys {

    /** The smallest RSA modulus accepted, in bits. */
    public static final int MIN_BITS = 2048;

    private static final Pattern PKCS8_PEM =
            Pattern.compile("-----BEGIN PRIVATE KEY-----([A-Za-z0-9+/=\\s]+)-----END PRIVATE KEY-----");

    private SigningKeys() {}

    /**
     * Generates a fresh RSA-2048 key pair.
     *
     * @return the private JWK ({@code alg} RS256, {@code use} sig, thumbprint {@code kid})
     */
    public static RSAKey generate() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(MIN_BITS);
            KeyPair pair = generator.generateKeyPair();
            return jwk((RSAPublicKey) pair.getPublic(), pair.getPrivate());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot generate an RSA signing key", e);
        }
    }

    /**
     * Reads an unencrypted PKCS#8 RSA private key ({@code -----BEGIN PRIVATE KEY-----}, as written
     * by {@code openssl genpkey -algorithm RSA}); other blocks in the file are ignored. A PKCS#1
     * key ({@code BEGIN RSA PRIVATE KEY}) can be converted with
     * {@code openssl pkcs8 -topk8 -nocrypt}.
     *
     * @param pemFile the file
     * @return the private JWK ({@code alg} RS256, {@code use} sig, thumbprint {@code kid})
     * @throws IllegalStateException when the file cannot be read or holds no usable RSA key; the
     *     message names the file, never the key material
     */
    public static RSAKey load(Path pemFile) {
        String pem;
        try {
            pem = Files.readString(pemFile, StandardCharsets.US_ASCII);
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("cannot read the signing key file " + pemFile, e);
        }
        return parse(pem, pemFile.toString());
    }

    /**
     * Parses PEM text as {@link #load(Path)} does.
     *
     * @param pem the PEM text
     * @param source what to name in error messages
     * @return the private JWK
     */
    static RSAKey parse(String pem, String source) {
        Matcher matcher = PKCS8_PEM.matcher(pem);
        if (!matcher.find()) {
            throw new IllegalStateException("no PKCS#8 'BEGIN PRIVATE KEY' block in " + source);
        }
        try {
            byte[] der = Base64.getMimeDecoder().decode(matcher.group(1));
            PrivateKey privateKey = KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(der));
            if (!(privateKey instanceof RSAPrivateCrtKey crt)) {
                throw new IllegalStateException("the RSA key in " + source + " lacks its CRT parameters");
            }
            RSAPublicKey publicKey = (RSAPublicKey) KeyFactory.getInstance("RSA")
                    .generatePublic(new RSAPublicKeySpec(crt.getModulus(), crt.getPublicExponent()));
            return jwk(publicKey, privateKey);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalStateException("no usable RSA private key in " + source, e);
        }
    }

    private static RSAKey jwk(RSAPublicKey publicKey, PrivateKey privateKey) {
        if (publicKey.getModulus().bitLength() < MIN_BITS) {
            throw new IllegalStateException("the RSA signing key must have at least " + MIN_BITS + " bits");
        }
        try {
            return new RSAKey.Builder(publicKey)
                    .privateKey(privateKey)
                    .keyUse(KeyUse.SIGNATURE)
                    .algorithm(JWSAlgorithm.RS256)
                    .keyIDFromThumbprint()
                    .build();
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot compute the signing key thumbprint", e);
        }
    }
}
