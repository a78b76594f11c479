package io.spiffeidt.core.anonmode;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.Delegation;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.LayerInfo;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.VerifiedResult;
import io.spiffeidt.core.internal.Claims;
import io.spiffeidt.core.internal.Codec;
import io.spiffeidt.core.memo.Expiry;
import io.spiffeidt.core.memo.Memo;
import io.spiffeidt.core.memo.MemoSettings;
import io.spiffeidt.core.memo.Memos;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Concatenated verification of Anon-Mode tokens (docs/formats/anon-mode.md "Verification"):
 *
 * <ol>
 *   <li>limits and shape: an even segment count of at least 2, inner signature segments of exactly
 *       32 bytes, the last of exactly 64, every payload one JSON object;
 *   <li>the key chain: {@code y = Y_0} from the root's {@code iss}; for each layer from the root
 *       outwards, {@code h_i = H(hex(R_i) + m_i + hex(y))}, and for an inner layer {@code y = R_i -
 *       h_i·y};
 *   <li>the outermost equation {@code s·B == R - h·y} with a canonical {@code s < L}; then, under
 *       the strict profile, every hop's {@code iss == base64url(enc(y_i))} (checked after the
 *       equation, so tampering reports {@link ErrorCode#BAD_SIGNATURE} and an honestly signed
 *       layer with a false {@code iss} reports {@link ErrorCode#BROKEN_LINK});
 *   <li>times of every layer (an outer layer never outlives the one it wraps, strict profile); the
 *       root {@code aud} is the subject workload; {@code dpa}/{@code dpr} in the root only.
 * </ol>
 *
 * <p>Points are decoded strictly; keys and commitments of small order are rejected. A root-only
 * token verifies with the plain signature check; its audience (the only audience in the token) must
 * then also be the verifier.
 *
 * <p>Root binding (step 5) is not a core check: the root key is random, so the service asks the
 * asserting workload to introspect {@link #rootIdentifier(String)}.
 *
 * <p>Original-compatible profile: {@code exp} may be absent ({@code iat} + max-age), {@code iid} may
 * be present, and a hop's {@code iss} is not compared with the recomputed key (the key used in the
 * hash is always the recomputed one). Never relaxed: the equations, strict point and scalar
 * decoding, the 32-/64-byte segment sizes, the audience and the delegation rules. So the
 * original's accepted flaws (a non-canonical {@code s + L}, an unstripped inner signature that
 * leaks its {@code s}) are rejected under both profiles.
 *
 * <p>Thread safety: safe for concurrent use; the only mutable state is the bounded memo of chained
 * tokens (see {@link #AnonModeVerifier(AnonModeSettings, Memos)}).
 */
public final class AnonModeVerifier {

    /** The memo of tokens whose steps 1 to 3 passed (see {@link #AnonModeVerifier(AnonModeSettings, Memos)}). */
    public static final String TOKEN_MEMO = "anonmode-token";

    private final AnonModeSettings settings;
    private final Memo<String, Chained> chainedTokens;

    /**
     * A token whose steps 1 to 3 passed: its parse, its layers' claims, their recomputed keys, its root
     * identifier and the hops' identities.
     */
    private record Chained(
            AnonModeToken parsed,
            List<Map<String, Object>> claims,
            String[] keys,
            String rootIdentifier,
            List<Optional<SpiffeId>> hopIdentities) {}

    /**
     * A verifier with its memo at its {@linkplain MemoSettings#DEFAULTS defaults}.
     *
     * @param settings the subject workload, profile, limits and time rules
     */
    public AnonModeVerifier(AnonModeSettings settings) {
        this(settings, Memos.defaults(settings.timeRules().clock()));
    }

    /**
     * A verifier that remembers, in the memo {@value #TOKEN_MEMO} of {@code memos}
     * (docs/design.md "Memos"), the tokens whose shape, key chain and equation (steps 1 to 3) passed.
     *
     * <p>Where the hop before reuses its extension, the same token arrives again and
     * again. Steps 1 to 3 are a function of the token text, the limits and the profile alone (the
     * keys come from the text), so a token that verified is remembered by its exact text (weighing
     * its length); received again, its decoded claims and recomputed keys are taken from the memo.
     * The claims, times, audience and delegation (step 4) are checked on every call. Only successes
     * are remembered. {@link Memos#none()} verifies every token in full.
     *
     * @param settings the subject workload, profile, limits and time rules
     * @param memos makes the memo {@value #TOKEN_MEMO}
     */
    public AnonModeVerifier(AnonModeSettings settings, Memos memos) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.chainedTokens = memos.memo(TOKEN_MEMO, Expiry.ttl());
    }

    /** How many times a token was found verified before, so that steps 1 to 3 were skipped. */
    public long rememberedTokenHits() {
        return chainedTokens.hits();
    }

    /** The settings. */
    public AnonModeSettings settings() {
        return settings;
    }

    /**
     * The root identifier {@code P(0) . base64url(enc(R_0))} of a token, to introspect at the
     * asserting workload. Checks the token's shape only.
     *
     * @param token a complete token
     * @return the root identifier
     * @throws AssertionException {@link ErrorCode#MALFORMED} or {@link ErrorCode#LIMIT_EXCEEDED}
     */
    public String rootIdentifier(String token) {
        return AnonModeTokens.rootIdentifier(token, settings.limits());
    }

    /**
     * Verifies a token, fail-closed.
     *
     * @param token the token as received
     * @param verifier the verifying workload's own SPIFFE ID
     * @return the verified layers (outermost first; each layer's issuer is base64url of its key as
     *     recomputed from the chain, which the strict profile also requires of its {@code iss}), the
     *     delegation ({@code assertedBy} = the root key) and sizes
     * @throws AssertionException with the code of the first failed check: {@link
     *     ErrorCode#LIMIT_EXCEEDED}, {@link ErrorCode#MALFORMED}, {@link ErrorCode#UNTRUSTED_KEY} (a
     *     small-order root key), {@link ErrorCode#BROKEN_LINK} (a hop {@code iss} that is not the
     *     recomputed key; a layer outliving the one it wraps), {@link ErrorCode#BAD_SIGNATURE},
     *     {@link ErrorCode#EXPIRED}, {@link ErrorCode#NOT_YET_VALID}, {@link
     *     ErrorCode#WRONG_AUDIENCE}, {@link ErrorCode#DELEGATION_INVALID}
     */
    public VerifiedResult verify(String token, SpiffeId verifier) {
        return verifyOnce(token, verifier).result();
    }

    /**
     * {@link #verify(String, SpiffeId)}, with what the rest of a request needs read from the same
     * parse: the root identifier to introspect, the hops' identities, and the parse an extension
     * signs over (so that no later step parses the token again). Thread safe.
     *
     * @throws AssertionException as {@link #verify(String, SpiffeId)}
     */
    public VerifiedAnonMode verifyOnce(String token, SpiffeId verifier) {
        Objects.requireNonNull(verifier, "verifier");
        Limits limits = settings.limits();
        boolean strict = settings.profile() == VerificationProfile.STRICT;
        Chained known = chainedTokens.get(token);
        Chained chained;
        if (known != null) {
            chained = known;
        } else {
            chained = chain(token, limits, strict);
        }
        List<Map<String, Object>> claims = chained.claims();
        String[] keys = chained.keys();
        int depth = claims.size();

        checkClaims(claims, strict);
        Instant[] iat = new Instant[depth];
        Instant[] exp = new Instant[depth];
        checkTimes(claims, strict, iat, exp);
        String rootAud = checkAudience(claims.get(0), verifier, depth);
        Map<String, Object> root = claims.get(0);
        String dpa = Claims.optString(root, "dpa", limits, 0);
        String dpr = Claims.optString(root, "dpr", limits, 0);
        if (dpa == null || dpa.isEmpty() || dpr == null || dpr.isEmpty()) {
            throw new AssertionException(ErrorCode.DELEGATION_INVALID, 0, "root layer without dpa and dpr");
        }

        List<LayerInfo> layers = new ArrayList<>(depth);
        for (int i = depth - 1; i >= 0; i--) {
            layers.add(new LayerInfo(keys[i], i == 0 ? rootAud : null, iat[i], exp[i]));
        }
        if (known == null) {
            chainedTokens.put(token, chained, token.length());
        }
        return new VerifiedAnonMode(
                token,
                new VerifiedResult(Mode.ANON_MODE, layers, new Delegation(dpa, dpr, keys[0]), token.length(), depth),
                chained.rootIdentifier(),
                chained.hopIdentities(),
                chained.parsed());
    }

    /** Steps 1 to 3: parses the token and checks its key chain and equation. */
    private static Chained chain(String token, Limits limits, boolean strict) {
        AnonModeToken parsed = AnonModeToken.parse(token, limits);
        int depth = parsed.depth();
        List<Map<String, Object>> claims = new ArrayList<>(depth);
        String[] iss = new String[depth];
        for (int i = 0; i < depth; i++) {
            Map<String, Object> c = parsed.claims(i);
            claims.add(c);
            iss[i] = Claims.string(c, "iss", limits, i);
        }
        return new Chained(
                parsed,
                List.copyOf(claims),
                verifyChain(parsed, iss, strict),
                parsed.rootIdentifier(),
                hopIdentities(parsed, limits));
    }

    /**
     * Who the hops of a token named themselves: the {@code iid} of every extension layer, from the
     * innermost (layer 1) outwards, or empty for an anonymous layer (and for a value that is no
     * SPIFFE ID). Only original-compatible tokens carry {@code iid}; call this on a token {@link
     * #verify} accepted, to show its path (docs/formats/anon-mode.md "Wire format"). Thread safe.
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED} or {@link ErrorCode#LIMIT_EXCEEDED} when
     *     the token does not parse
     */
    public List<Optional<SpiffeId>> hopIdentities(String token) {
        Limits limits = settings.limits();
        return hopIdentities(AnonModeToken.parse(token, limits), limits);
    }

    private static List<Optional<SpiffeId>> hopIdentities(AnonModeToken parsed, Limits limits) {
        List<Optional<SpiffeId>> hops = new ArrayList<>(parsed.depth() - 1);
        for (int i = 1; i < parsed.depth(); i++) {
            String iid = Claims.optString(parsed.claims(i), "iid", limits, i);
            hops.add(iid != null && SpiffeId.isValid(iid) ? Optional.of(SpiffeId.parse(iid)) : Optional.empty());
        }
        return hops;
    }

    /** Steps 2 and 3; returns base64url of each layer's (recomputed) key. */
    private static String[] verifyChain(AnonModeToken parsed, String[] iss, boolean strict) {
        int depth = parsed.depth();
        String[] keys = new String[depth];
        byte[] rootKey = Codec.fromB64url(iss[0]);
        Point y;
        try {
            y = Point.decode(rootKey);
        } catch (AssertionException e) {
            throw new AssertionException(ErrorCode.MALFORMED, 0, "root iss is not a canonical point");
        }
        if (y.isSmallOrder()) {
            throw new AssertionException(ErrorCode.UNTRUSTED_KEY, 0, "root key of small order");
        }
        byte[] yEnc = rootKey;
        keys[0] = iss[0];
        for (int i = 0; i < depth; i++) {
            if (i > 0) {
                keys[i] = Codec.b64url(yEnc);
            }
            byte[] rEnc = parsed.commitment(i);
            Point r;
            try {
                r = Point.decode(rEnc);
            } catch (AssertionException e) {
                throw new AssertionException(ErrorCode.MALFORMED, i, "commitment R is not a canonical point");
            }
            if (r.isSmallOrder()) {
                throw new AssertionException(ErrorCode.BAD_SIGNATURE, i, "commitment R of small order");
            }
            Scalar h = Schnorr.challenge(rEnc, parsed.signingInput(i), yEnc);
            if (i < depth - 1) {
                y = r.subtract(y.multiplyPublic(h));
                if (y.isSmallOrder()) {
                    throw new AssertionException(ErrorCode.BAD_SIGNATURE, i + 1, "derived key of small order");
                }
                yEnc = y.encoding();
            } else {
                Scalar s;
                try {
                    s = Scalar.decode(parsed.finalResponse());
                } catch (AssertionException e) {
                    throw new AssertionException(ErrorCode.MALFORMED, i, "non-canonical response s");
                }
                if (!Schnorr.holds(y, h, r, s)) {
                    throw new AssertionException(ErrorCode.BAD_SIGNATURE, i, "concatenated signature does not verify");
                }
            }
        }
        // checked after the equation, so that tampering reads as a bad signature and an honestly
        // signed layer with a false iss as a broken link
        for (int i = 1; strict && i < depth; i++) {
            if (!iss[i].equals(keys[i])) {
                throw new AssertionException(
                        ErrorCode.BROKEN_LINK, i, "iss is not the key derived from the inner layer");
            }
        }
        return keys;
    }

    /** Claims allowed per layer and profile: delegation only in the root; {@code iid} only when relaxed. */
    private void checkClaims(List<Map<String, Object>> claims, boolean strict) {
        Limits limits = settings.limits();
        for (int i = 0; i < claims.size(); i++) {
            Map<String, Object> c = claims.get(i);
            if (i > 0 && (c.containsKey("dpa") || c.containsKey("dpr"))) {
                throw new AssertionException(ErrorCode.DELEGATION_INVALID, i, "dpa or dpr outside the root layer");
            }
            String iid = Claims.optString(c, "iid", limits, i);
            if (iid != null && strict) {
                throw new AssertionException(
                        ErrorCode.MALFORMED, i, "iid claim (not anonymous) under the strict profile");
            }
        }
    }

    /** Step 4, times: outermost first; fills {@code iat} and the effective {@code exp}. */
    private void checkTimes(List<Map<String, Object>> claims, boolean strict, Instant[] iat, Instant[] exp) {
        TimeRules time = settings.timeRules();
        for (int i = claims.size() - 1; i >= 0; i--) {
            Map<String, Object> c = claims.get(i);
            iat[i] = Claims.optTime(c, "iat", i);
            exp[i] = Claims.optTime(c, "exp", i);
            if (exp[i] == null && !strict) {
                if (iat[i] == null) {
                    throw new AssertionException(ErrorCode.MALFORMED, i, "neither exp nor iat");
                }
                exp[i] = iat[i].plus(time.originalMaxAge());
            }
            time.check(i, iat[i], Claims.optTime(c, "nbf", i), exp[i]);
        }
        if (strict) {
            for (int i = 1; i < claims.size(); i++) {
                if (exp[i].isAfter(exp[i - 1])) {
                    throw new AssertionException(ErrorCode.BROKEN_LINK, i, "layer outlives the layer it wraps");
                }
            }
        }
    }

    /** The root audience is the subject workload; a root-only token's audience is the verifier. */
    private String checkAudience(Map<String, Object> root, SpiffeId verifier, int depth) {
        String aud = Claims.optString(root, "aud", settings.limits(), 0);
        if (aud == null || !SpiffeId.isValid(aud)) {
            throw new AssertionException(ErrorCode.WRONG_AUDIENCE, 0, "root audience missing or not a SPIFFE ID");
        }
        SpiffeId audience = SpiffeId.parse(aud);
        if (!audience.equals(settings.subjectWorkload())) {
            throw new AssertionException(
                    ErrorCode.WRONG_AUDIENCE,
                    0,
                    "root audience " + audience + " is not the subject workload " + settings.subjectWorkload());
        }
        if (depth == 1 && !audience.equals(verifier)) {
            throw new AssertionException(
                    ErrorCode.WRONG_AUDIENCE, 0, "unextended root for " + audience + " presented to " + verifier);
        }
        return aud;
    }
}
