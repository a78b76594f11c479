package io.spiffeidt.core.internal;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import java.security.PublicKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.ECParameterSpec;
import java.security.spec.RSAPublicKeySpec;
import java.text.ParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * RFC 7517 JSON Web Keys and Key Sets of the two JWS key kinds the project signs with (RS256 RSA
 * keys and ES256 P-256 keys), written and read strictly: public parameters only, {@code kid},
 * {@code alg} and {@code use}, RFC 7638 thumbprints. Used by the DVID key set (docs/formats/dvid.md
 * "Signing key") and by the IdP key of every mode's introspection answer (docs/formats/dvid.md
 * "Introspection"). Not API.
 *
 * <p>Reading fails closed: malformed JSON, a private member, a duplicate {@code kid} or a bad
 * encoding is {@link ErrorCode#MALFORMED}; an unknown {@code kty}, {@code crv}, {@code alg} or
 * {@code use}, or a key too weak, is {@link ErrorCode#UNSUPPORTED}.
 *
 * <p>Thread safety: stateless.
 */
public final class Jwks {

    /** Largest JWK / JWKS text read, characters. */
    public static final int MAX_LENGTH = 256 * 1024;

    /** Most keys in one JWKS. */
    public static final int MAX_KEYS = 64;

    /** Smallest RSA modulus of a JWS key, bits. */
    public static final int MIN_RSA_BITS = 2048;

    /** Largest RSA modulus of a JWS key, bits. */
    public static final int MAX_RSA_BITS = 16384;

    /** Largest public exponent of a JWS key, bits (bounds the work of a verification). */
    public static final int MAX_EXPONENT_BITS = 64;

    /** NIST P-256 (secp256r1), FIPS 186-4 D.1.2.3 ({@link io.spiffeidt.core.internal.P256#PARAMS}). */
    public static final ECParameterSpec P256 = io.spiffeidt.core.internal.P256.PARAMS;

    private static final Set<String> PRIVATE_MEMBERS = Set.of("d", "p", "q", "dp", "dq", "qi", "oth", "k");

    private Jwks() {}

    /**
     * The JWS {@code alg} a public key is used with, after checking it is usable: {@code RS256} for
     * RSA of 2048 to 16384 bits with an odd exponent from 3 to 2^64, {@code ES256} for EC on P-256.
     *
     * @throws AssertionException {@link ErrorCode#UNSUPPORTED} otherwise
     */
    public static String algorithmOf(PublicKey key) {
        if (key instanceof RSAPublicKey rsa) {
            int bits = rsa.getModulus().bitLength();
            BigInteger e = rsa.getPublicExponent();
            if (bits < MIN_RSA_BITS
                    || bits > MAX_RSA_BITS
                    || e.compareTo(BigInteger.valueOf(3)) < 0
                    || !e.testBit(0)
                    || e.bitLength() > MAX_EXPONENT_BITS) {
                throw new AssertionException(ErrorCode.UNSUPPORTED, "unsupported RSA key size or exponent");
            }
            return "RS256";
        }
        if (key instanceof ECPublicKey ec) {
            if (!isP256(ec.getParams())) {
                throw new AssertionException(ErrorCode.UNSUPPORTED, "unsupported EC curve");
            }
            return "ES256";
        }
        throw new AssertionException(ErrorCode.UNSUPPORTED, "unsupported key type");
    }

    /** Whether {@code params} are P-256 ({@link io.spiffeidt.core.internal.P256#isP256(ECParameterSpec)}). */
    public static boolean isP256(ECParameterSpec params) {
        return io.spiffeidt.core.internal.P256.isP256(params);
    }

    /** Whether {@code (x, y)} is a point of P-256. */
    public static boolean onP256(BigInteger x, BigInteger y) {
        return io.spiffeidt.core.internal.P256.onCurve(x, y);
    }

    /**
     * The RFC 7638 JWK thumbprint (SHA-256, base64url) of an RSA or P-256 public key.
     *
     * @throws AssertionException {@link ErrorCode#UNSUPPORTED} for another key type
     */
    public static String thumbprint(PublicKey key) {
        try {
            return nimbusKey(key, null).computeThumbprint().toString();
        } catch (JOSEException e) {
            throw new IllegalStateException("SHA-256 is required of every JDK", e);
        }
    }

    /**
     * The JWK of {@code key} (public parameters, {@code kid}, {@code alg}, {@code use: sig}), compact
     * with sorted members.
     *
     * @throws AssertionException {@link ErrorCode#UNSUPPORTED} for a key type or size not used
     */
    public static String jwk(PublicKey key, String kid) {
        return Json.write(jwkMembers(key, kid));
    }

    /** The JWKS {@code {"keys":[...]}} of the given keys, each with {@code kid} = its thumbprint. */
    public static String jwks(PublicKey... keys) {
        List<Object> list = new ArrayList<>();
        for (PublicKey key : keys) {
            list.add(jwkMembers(key, thumbprint(key)));
        }
        return Json.write(Map.of("keys", list));
    }

    /**
     * The JWKS {@code {"keys":[...]}} of the given {@code kid → key} entries (in iteration order).
     */
    public static String jwks(Map<String, ? extends PublicKey> keysById) {
        List<Object> list = new ArrayList<>();
        keysById.forEach((kid, key) -> list.add(jwkMembers(key, kid)));
        return Json.write(Map.of("keys", list));
    }

    /**
     * Reads a JWKS into {@code kid → key} (a missing {@code kid} reads as {@code ""}), in document
     * order. Keys are built with {@code provider}'s {@link KeyFactory}.
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED}, {@link ErrorCode#UNSUPPORTED} or
     *     {@link ErrorCode#LIMIT_EXCEEDED} (too long, too many keys)
     */
    public static Map<String, PublicKey> parse(String jwksJson, Provider provider) {
        Objects.requireNonNull(provider, "provider");
        checkLength(jwksJson);
        Map<String, Object> root = Json.parseObject(jwksJson);
        if (!(root.get("keys") instanceof List<?> keys)) {
            throw new AssertionException(ErrorCode.MALFORMED, "JWKS without a keys array");
        }
        if (keys.size() > MAX_KEYS) {
            throw new AssertionException(ErrorCode.LIMIT_EXCEEDED, "JWKS with more than " + MAX_KEYS + " keys");
        }
        Map<String, PublicKey> out = new LinkedHashMap<>();
        for (Object element : keys) {
            if (!(element instanceof Map<?, ?> jwk)) {
                throw new AssertionException(ErrorCode.MALFORMED, "JWKS entry is not an object");
            }
            String kid = kid(jwk);
            PublicKey key = key(jwk, provider);
            if (out.putIfAbsent(kid, key) != null) {
                throw new AssertionException(ErrorCode.MALFORMED, "duplicate kid in JWKS");
            }
        }
        return Collections.unmodifiableMap(out);
    }

    /**
     * Reads one JWK into a public key.
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED} or {@link ErrorCode#UNSUPPORTED}
     */
    public static PublicKey parseJwk(String jwkJson, Provider provider) {
        Objects.requireNonNull(provider, "provider");
        checkLength(jwkJson);
        return key(Json.parseObject(jwkJson), provider);
    }

    /**
     * The {@code kid} of one JWK ({@code ""} when absent).
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED}
     */
    public static String kidOf(String jwkJson) {
        checkLength(jwkJson);
        return kid(Json.parseObject(jwkJson));
    }

    /** The minimal unsigned big-endian bytes of a non-negative {@code v} (a fresh array). */
    public static byte[] unsigned(BigInteger v) {
        byte[] b = v.toByteArray();
        if (b.length > 1 && b[0] == 0) {
            byte[] out = new byte[b.length - 1];
            System.arraycopy(b, 1, out, 0, out.length);
            return out;
        }
        return b;
    }

    private static Map<String, Object> jwkMembers(PublicKey key, String kid) {
        Objects.requireNonNull(kid, "kid");
        Map<String, Object> members = new TreeMap<>(nimbusKey(key, kid).toJSONObject());
        members.put("alg", algorithmOf(key));
        members.put("use", KeyUse.SIGNATURE.identifier());
        return members;
    }

    /**
     * A nimbus JWK of an RSA or a P-256 public key (public parameters only), with {@code kid} when
     * given; the thumbprint ignores everything but the key's required members.
     */
    private static JWK nimbusKey(PublicKey key, String kid) {
        if (key instanceof RSAPublicKey rsa) {
            return new RSAKey.Builder(rsa).keyID(kid).build();
        }
        if (key instanceof ECPublicKey ec && io.spiffeidt.core.internal.P256.isP256(ec)) {
            return new ECKey.Builder(Curve.P_256, ec).keyID(kid).build();
        }
        throw new AssertionException(ErrorCode.UNSUPPORTED, "unsupported key type");
    }

    private static void checkLength(String json) {
        if (json == null) {
            throw new AssertionException(ErrorCode.MALFORMED, "missing JWK");
        }
        if (json.length() > MAX_LENGTH) {
            throw new AssertionException(ErrorCode.LIMIT_EXCEEDED, "JWK text over " + MAX_LENGTH + " characters");
        }
    }

    private static String kid(Map<?, ?> jwk) {
        Object kid = jwk.get("kid");
        if (kid == null) {
            return "";
        }
        if (!(kid instanceof String s) || s.length() > 1024) {
            throw new AssertionException(ErrorCode.MALFORMED, "JWK kid is not a string");
        }
        return s;
    }

    private static PublicKey key(Map<?, ?> jwk, Provider provider) {
        for (String member : PRIVATE_MEMBERS) {
            if (jwk.containsKey(member)) {
                throw new AssertionException(ErrorCode.MALFORMED, "JWK carries private parameters");
            }
        }
        String kty = string(jwk, "kty", true);
        String use = string(jwk, "use", false);
        String alg = string(jwk, "alg", false);
        if (use != null && !use.equals("sig")) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, "JWK use is not sig");
        }
        String expected =
                switch (kty) {
                    case "RSA" -> "RS256";
                    case "EC" -> "ES256";
                    default -> throw new AssertionException(ErrorCode.UNSUPPORTED, "unsupported JWK kty");
                };
        if (alg != null && !alg.equals(expected)) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, "JWK alg does not match its kty");
        }
        if (kty.equals("EC") && !"P-256".equals(string(jwk, "crv", true))) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, "unsupported JWK curve");
        }
        JWK parsed;
        try {
            @SuppressWarnings("unchecked")
            Map<String, Object> members = (Map<String, Object>) jwk;
            parsed = JWK.parse(members);
        } catch (ParseException | RuntimeException e) {
            throw new AssertionException(ErrorCode.MALFORMED, "invalid JWK parameters");
        }
        PublicKey key;
        try {
            if (parsed instanceof RSAKey rsa) {
                BigInteger n = rsa.getModulus().decodeToBigInteger();
                BigInteger e = rsa.getPublicExponent().decodeToBigInteger();
                if (n.signum() == 0 || e.signum() == 0) {
                    throw new AssertionException(ErrorCode.MALFORMED, "JWK RSA parameter is zero");
                }
                if (!n.testBit(0) || !e.testBit(0) || e.compareTo(BigInteger.valueOf(3)) < 0) {
                    throw new AssertionException(ErrorCode.UNSUPPORTED, "unusable JWK RSA modulus or exponent");
                }
                key = KeyFactory.getInstance("RSA", provider).generatePublic(new RSAPublicKeySpec(n, e));
            } else if (parsed instanceof ECKey ec && Curve.P_256.equals(ec.getCurve())) {
                if (ec.getX().decode().length != io.spiffeidt.core.internal.P256.BYTES
                        || ec.getY().decode().length != io.spiffeidt.core.internal.P256.BYTES) {
                    throw new AssertionException(ErrorCode.MALFORMED, "JWK EC coordinate length");
                }
                key = ec.toECPublicKey(provider);
                if (!io.spiffeidt.core.internal.P256.isP256(key)) {
                    throw new AssertionException(ErrorCode.MALFORMED, "JWK EC point is not on P-256");
                }
            } else {
                throw new AssertionException(ErrorCode.UNSUPPORTED, "unsupported JWK kty");
            }
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, "the provider cannot build " + kty + " keys");
        } catch (GeneralSecurityException | JOSEException | RuntimeException e) {
            if (e instanceof AssertionException ae) {
                throw ae;
            }
            if (e.getCause() instanceof NoSuchAlgorithmException) {
                throw new AssertionException(ErrorCode.UNSUPPORTED, "the provider cannot build " + kty + " keys");
            }
            throw new AssertionException(ErrorCode.MALFORMED, "invalid JWK parameters");
        }
        algorithmOf(key);
        return key;
    }

    private static String string(Map<?, ?> jwk, String name, boolean required) {
        Object v = jwk.get(name);
        if (v == null) {
            if (required) {
                throw new AssertionException(ErrorCode.MALFORMED, "JWK without " + name);
            }
            return null;
        }
        if (!(v instanceof String s)) {
            throw new AssertionException(ErrorCode.MALFORMED, "JWK member " + name + " is not a string");
        }
        return s;
    }
}
