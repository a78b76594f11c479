package io.spiffeidt.core.anonmode;

import io.spiffeidt.core.Limits;
import io.spiffeidt.core.internal.Codec;
import io.spiffeidt.core.internal.Json;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Builds Anon-Mode tokens the production code refuses to make: hops with a chosen key and a chosen
 * {@code iss}, unstripped inner signatures, replaced segments. Test-only.
 */
final class AnonModeForge {

    private AnonModeForge() {}

    /** The token's segments. */
    static List<String> parts(String token) {
        return new ArrayList<>(Arrays.asList(token.split("\\.", -1)));
    }

    static String join(List<String> parts) {
        return String.join(".", parts);
    }

    /** The {@code s} of the outermost signature: the bearer key of the next hop. */
    static Scalar lastResponse(String token) {
        return Scalar.decode(AnonModeToken.parse(token, Limits.defaults()).finalResponse());
    }

    /**
     * A hop signed with {@code key}, whose payload is exactly {@code claims} (which must hold
     * {@code iss}), over the stripped (or, when {@code strip} is false, the unstripped) token.
     */
    static String hop(String token, Map<String, ?> claims, SchnorrKeyPair key, boolean strip) {
        String previous = strip ? AnonModeToken.parse(token, Limits.defaults()).stripped() : token;
        String payload = Codec.b64url(Json.write(new TreeMap<>(claims)));
        String message = payload + "." + previous;
        SchnorrSignature signature = Schnorr.sign(key, message, NonceSource.secureRandom());
        return message + "." + Codec.b64url(signature.encode());
    }

    /** A root layer signed with {@code key}, whose payload is exactly {@code claims}. */
    static String root(Map<String, ?> claims, SchnorrKeyPair key) {
        String payload = Codec.b64url(Json.write(new TreeMap<>(claims)));
        SchnorrSignature signature = Schnorr.sign(key, payload, NonceSource.secureRandom());
        return payload + "." + Codec.b64url(signature.encode());
    }

    /** The token with its outermost {@code s} replaced by {@code s + L} (not reduced). */
    static String withLastResponsePlusOrder(String token) {
        List<String> parts = parts(token);
        byte[] last = Codec.fromB64url(parts.get(parts.size() - 1));
        BigInteger s = Scalar.decode(Arrays.copyOfRange(last, 32, 64)).toBigInteger();
        byte[] sPlusL = Ed25519GroupTests.littleEndian(s.add(Scalar.ORDER));
        System.arraycopy(sPlusL, 0, last, 32, 32);
        parts.set(parts.size() - 1, Codec.b64url(last));
        return join(parts);
    }

    /** The token with the payload of layer {@code layer} (0 = root) replaced by other JSON. */
    static String withPayload(String token, int layer, String json) {
        List<String> parts = parts(token);
        int depth = parts.size() / 2;
        parts.set(depth - 1 - layer, Codec.b64url(json));
        return join(parts);
    }

    /** The decoded JSON text of layer {@code layer}'s payload. */
    static String payloadJson(String token, int layer) {
        List<String> parts = parts(token);
        int depth = parts.size() / 2;
        return Codec.utf8(Codec.fromB64url(parts.get(depth - 1 - layer)));
    }

    /** The token with the commitment bytes of layer {@code layer} replaced. */
    static String withCommitment(String token, int layer, byte[] encoding) {
        List<String> parts = parts(token);
        int depth = parts.size() / 2;
        int index = depth + layer;
        if (layer == depth - 1) {
            byte[] last = Codec.fromB64url(parts.get(index));
            System.arraycopy(encoding, 0, last, 0, 32);
            parts.set(index, Codec.b64url(last));
        } else {
            parts.set(index, Codec.b64url(encoding));
        }
        return join(parts);
    }

    /** A 32-byte encoding of a y coordinate that is not on the curve. */
    static byte[] offCurveEncoding() {
        for (int y = 2; ; y++) {
            byte[] enc = Ed25519GroupTests.littleEndian(BigInteger.valueOf(y));
            if (Ed25519Reference.decode(enc).isEmpty()) {
                return enc;
            }
        }
    }
}
