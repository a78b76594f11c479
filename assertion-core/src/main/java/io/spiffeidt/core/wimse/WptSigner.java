package io.spiffeidt.core.wimse;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import java.net.URI;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Signs Workload Proof Tokens as a workload (docs/formats/wimse.md "WPT"; draft-ietf-wimse-wpt-02
 * §2) with the private key whose public half is its WIT's {@code cnf.jwk}: a compact JWS, ES256,
 * header {@code {"alg":"ES256","typ":"wpt+jwt"}}, claims {@code aud} (the target URI without query
 * and fragment), {@code exp} (now + the WPT lifetime), {@code htm} (the HTTP method, the claim of
 * RFC 9449 §4.2: this project's addition), {@code iat}, {@code jti} (128 random bits), {@code tth}
 * (when the request carries a Txn-Token) and {@code wth}.
 *
 * <p>Thread safety: immutable and safe for concurrent use (a {@link java.security.Signature} is made
 * per call; the {@link SecureRandom} must be thread-safe, as the JDK's is).
 */
public final class WptSigner extends Es256JwtSigner {

    /** The JWT {@code typ} of a WPT (draft-ietf-wimse-wpt-02 §2, §4.2.1). */
    public static final String TYPE = "wpt+jwt";

    /**
     * A signer for the workload's key pair.
     *
     * @param privateKey the workload's private key (EC P-256), the one its WIT confirms
     * @param publicKey its public key (for a self-check)
     * @param provider the JCA provider that signs
     * @param settings the WPT lifetime, limits and clock
     * @param random the source of {@code jti}
     * @throws IllegalArgumentException when the key is not P-256 or the two keys are not a pair
     */
    public WptSigner(
            PrivateKey privateKey,
            PublicKey publicKey,
            Provider provider,
            WimseSettings settings,
            SecureRandom random) {
        super(privateKey, publicKey, provider, settings, random, "workload");
    }

    /**
     * Signs a WPT for one request.
     *
     * @param wit the WIT the request carries in {@link WimseHeaders#WORKLOAD_IDENTITY_TOKEN}
     * @param method the HTTP method, as sent
     * @param target the target URI of the request (absolute); query and fragment are dropped
     * @param txnToken the Txn-Token the request carries, or {@code null} when it carries none
     * @throws AssertionException {@link ErrorCode#MALFORMED} for a token that is not ASCII, {@link
     *     ErrorCode#LIMIT_EXCEEDED} for a claim or the token over its limit
     * @throws IllegalArgumentException for an empty method or a relative target
     */
    public Wpt sign(String wit, String method, URI target, String txnToken) {
        Objects.requireNonNull(wit, "wit");
        String audience = audience(target);
        String htm = method(method);
        settings.limits().checkClaim("aud", audience);
        Instant now = settings.timeRules().now();
        Instant exp = now.plusSeconds(settings.wptLifetime().toSeconds());
        String jti = newJti();

        Map<String, Object> header = new TreeMap<>();
        header.put("alg", "ES256");
        header.put("typ", TYPE);

        Map<String, Object> claims = new TreeMap<>();
        claims.put("aud", audience);
        claims.put("exp", exp.getEpochSecond());
        claims.put("htm", htm);
        claims.put("iat", now.getEpochSecond());
        claims.put("jti", jti);
        if (txnToken != null) {
            claims.put("tth", TokenHash.of(txnToken));
        }
        claims.put("wth", TokenHash.of(wit));

        String token = signCompact(header, claims, "WPT");
        return new Wpt(token, jti, audience, htm, exp);
    }

    /**
     * The {@code aud} of a request to {@code target}: the URI as written, without its query and
     * fragment (draft-ietf-wimse-wpt-02 §2). The verifier computes it with the same rule.
     *
     * @throws IllegalArgumentException for a relative or opaque URI
     */
    public static String audience(URI target) {
        Objects.requireNonNull(target, "target");
        if (!target.isAbsolute() || target.isOpaque() || target.getRawAuthority() == null) {
            throw new IllegalArgumentException("the target URI must be absolute with an authority");
        }
        String s = target.toString();
        int cut = s.length();
        int q = s.indexOf('?');
        int f = s.indexOf('#');
        if (q >= 0) {
            cut = q;
        }
        if (f >= 0 && f < cut) {
            cut = f;
        }
        return s.substring(0, cut);
    }

    static String method(String method) {
        Objects.requireNonNull(method, "method");
        if (method.isEmpty()) {
            throw new IllegalArgumentException("the HTTP method must not be empty");
        }
        return method;
    }
}
