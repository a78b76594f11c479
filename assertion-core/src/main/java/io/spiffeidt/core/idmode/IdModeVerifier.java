package io.spiffeidt.core.idmode;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.Delegation;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.LayerInfo;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.Presenter;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TrustBundle;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.VerifiedResult;
import io.spiffeidt.core.internal.Es256;
import io.spiffeidt.core.internal.ValidatedChains;
import io.spiffeidt.core.memo.Expiry;
import io.spiffeidt.core.memo.Memo;
import io.spiffeidt.core.memo.MemoSettings;
import io.spiffeidt.core.memo.Memos;
import java.security.Provider;
import java.security.PublicKey;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Verifies an ID-Mode token with its artifacts (docs/formats/id-mode.md "Verification"), failing closed:
 * it returns a {@link VerifiedIdMode} or throws {@link AssertionException} with its code.
 *
 * <p>Steps, in order:
 *
 * <ol>
 *   <li>limits, split, {@code N} even and {@code ≥ 2}, depth limit, every segment non-empty
 *       strict base64url, every payload one JSON object with typed claims ({@link
 *       ErrorCode#MALFORMED}, {@link ErrorCode#LIMIT_EXCEEDED}); under strict, {@code exp} is
 *       required in every layer;
 *   <li>exactly one artifact chain per layer ({@link ErrorCode#MALFORMED});
 *   <li>for each layer, outermost first: (a) the chain validates against the bundle of the
 *       {@code iss} trust domain under the SPIFFE X.509-SVID rules at the current time and the
 *       leaf URI SAN equals {@code iss} ({@link ErrorCode#UNTRUSTED_KEY}); (b) the leaf key is EC
 *       P-256 ({@link ErrorCode#UNSUPPORTED}) and the signature verifies over the received
 *       signing input ({@link ErrorCode#BAD_SIGNATURE}); (c) unless the root, {@code iss} equals
 *       the {@code aud} of the layer it wraps ({@link ErrorCode#BROKEN_LINK}); (d) {@code iat ≤
 *       now + skew}, {@code exp > now − skew} ({@link ErrorCode#NOT_YET_VALID}, {@link
 *       ErrorCode#EXPIRED}) and, under strict, {@code exp} not later than the wrapped layer's
 *       ({@link ErrorCode#BROKEN_LINK});
 *   <li>the root's {@code iss} is the pinned asserting workload and it carries {@code dpa} and
 *       {@code dpr}; no other layer carries either ({@link ErrorCode#DELEGATION_INVALID});
 *   <li>the outermost {@code aud} is the verifier ({@link ErrorCode#WRONG_AUDIENCE}); over mTLS,
 *       the outermost {@code iss} is the peer's ID and the peer's leaf key is the key that
 *       verified the outermost layer ({@link ErrorCode#WRONG_PRESENTER}).
 * </ol>
 *
 * <p>The original-compatible profile relaxes only step 3d: a missing {@code exp} becomes {@code
 * iat + originalMaxAge}, and {@code exp} need not shrink outwards. Links, audience, presenter,
 * chains and signatures are checked under both profiles.
 *
 * <p>The result's {@code encodedSize} is the token's size in bytes; {@link IdModeSize} gives
 * the artifacts' size too. Error layer indexes count from the root (0). Every certificate is parsed once (in {@link
 * IdModeArtifacts}); every payload is decoded and parsed once; signatures are checked over
 * slices of the received bytes.
 *
 * <p>Thread safety: safe for concurrent use; the only mutable state is the bounded memos of
 * validated chains and of signed tokens (see {@link #IdModeVerifier(IdModeSettings, Provider, Memos)}).
 */
public final class IdModeVerifier {

    /** The memo of validated certificate chains (see {@link #IdModeVerifier(IdModeSettings, Provider, Memos)}). */
    public static final String CHAIN_MEMO = "idmode-chain";

    /** The memo of tokens whose signatures verified. */
    public static final String TOKEN_MEMO = "idmode-token";

    private final IdModeSettings settings;
    private final Provider provider;
    private final ValidatedChains chains;
    private final Memo<String, Signed> signedTokens;

    /**
     * A token received as text whose every layer's signature verified with the leaf keys of exactly
     * these artifacts (received as {@code artifacts}, parsed as {@code parsed}).
     */
    private record Signed(IdModeToken token, String artifacts, IdModeArtifacts parsed) {}

    /**
     * A verifier with every memo at its {@linkplain MemoSettings#DEFAULTS defaults}.
     *
     * @param settings pinned asserting workload, bundles, profile, limits, time rules
     * @param provider the JCA provider for ECDSA signature verification
     */
    public IdModeVerifier(IdModeSettings settings, Provider provider) {
        this(settings, provider, Memos.defaults(settings.timeRules().clock()));
    }

    /**
     * A verifier remembering work in the memos {@code memos} makes (docs/design.md "Memos").
     *
     * <p>{@value #CHAIN_MEMO}: certificate chain validation (RFC 5280 path validation to the
     * bundle, SPIFFE leaf rules) costs at least the layer's ECDSA check again, and a deployment has
     * few SVIDs. A chain that
     * validated is therefore remembered by its exact DER bytes, together with the bundle it validated
     * against and the window in which all its certificates are valid; a later request with the same
     * chain, an equal bundle and a time inside that window skips the path validation. Every other check,
     * signatures included, runs on every request.
     *
     * <p>{@value #TOKEN_MEMO}: where the hop before reuses its extension, the same token
     * and artifacts arrive again and again. Decoding them and checking each layer's signature is a
     * function of the token text, the artifacts text and the limits alone, so a token that verified
     * from text ({@link #verifyEncoded}) is remembered by its exact text with the exact artifacts
     * text (weighing both lengths): when both are received again, the parsed token and artifacts are
     * taken from the memo and the signature checks (step 3b) skipped. Every other step runs on every
     * call: the chains against the current bundles and time (3a, with the chain memo), links, times,
     * delegation, audience and presenter. Only successes are remembered.
     *
     * <p>{@link Memos#none()} validates every chain and verifies every token in full.
     *
     * @param settings pinned asserting workload, bundles, profile, limits, time rules
     * @param provider the JCA provider for ECDSA signature verification
     * @param memos makes the memos {@value #CHAIN_MEMO} and {@value #TOKEN_MEMO}
     */
    public IdModeVerifier(IdModeSettings settings, Provider provider, Memos memos) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.provider = Objects.requireNonNull(provider, "provider");
        this.chains = new ValidatedChains(memos, CHAIN_MEMO);
        this.signedTokens = memos.memo(TOKEN_MEMO, Expiry.ttl());
    }

    /** The settings this verifier checks against. */
    public IdModeSettings settings() {
        return settings;
    }

    /**
     * Verifies a token presented over mTLS by {@code peer}, as the workload {@code verifier}.
     *
     * @throws AssertionException with the code of the first failed check
     */
    public VerifiedIdMode verify(String token, IdModeArtifacts artifacts, SpiffeId verifier, Presenter peer) {
        Objects.requireNonNull(peer, "peer");
        return doVerify(token, artifacts, verifier, peer);
    }

    /** {@link #verify(String, IdModeArtifacts, SpiffeId, Presenter)} of a presentation. */
    public VerifiedIdMode verify(IdModePresentation presentation, SpiffeId verifier, Presenter peer) {
        Objects.requireNonNull(presentation, "presentation");
        return verify(presentation.token(), presentation.artifacts(), verifier, peer);
    }

    /**
     * Verifies every step except the presenter binding (step 5, second half). Only for callers
     * that did not receive the token over mTLS, and for unit checks: a workload that received
     * the token from a peer must use {@link #verify(String, IdModeArtifacts, SpiffeId, Presenter)}.
     *
     * @throws AssertionException with the code of the first failed check
     */
    public VerifiedIdMode verifyWithoutPresenter(String token, IdModeArtifacts artifacts, SpiffeId verifier) {
        return doVerify(token, artifacts, verifier, null);
    }

    /**
     * {@link #verifyWithoutPresenter(String, IdModeArtifacts, SpiffeId)} of a token the caller has
     * already parsed (to read its issuers before verifying it), so that it is not parsed twice. A
     * token parsed under other limits than this verifier's is parsed again under them (step 1 never
     * runs under looser limits).
     *
     * @throws AssertionException with the code of the first failed check
     */
    public VerifiedIdMode verifyWithoutPresenter(IdModeToken token, IdModeArtifacts artifacts, SpiffeId verifier) {
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(verifier, "verifier");
        if (artifacts == null) {
            throw new AssertionException(ErrorCode.MALFORMED, "missing artifacts");
        }
        IdModeToken parsed =
                token.parsedUnder(settings.limits()) ? token : IdModeToken.parse(token.text(), settings.limits());
        return check(parsed.text(), parsed, artifacts, verifier, null, false);
    }

    /**
     * {@link #verify(String, IdModeArtifacts, SpiffeId, Presenter)} of a token and its artifacts as
     * received (either accepted artifacts form), parsed here or found in the memo of verified
     * tokens (see {@link #IdModeVerifier(IdModeSettings, Provider, Memos)}).
     *
     * @throws AssertionException with the code of the first failed check ({@link
     *     ErrorCode#MALFORMED} when the artifacts are missing)
     */
    public VerifiedIdMode verifyEncoded(String token, String artifacts, SpiffeId verifier, Presenter peer) {
        Objects.requireNonNull(peer, "peer");
        return verifyText(token, artifacts, verifier, peer);
    }

    /**
     * {@link #verifyWithoutPresenter(String, IdModeArtifacts, SpiffeId)} of a token and its artifacts
     * as received; remembered like {@link #verifyEncoded}.
     *
     * @throws AssertionException with the code of the first failed check
     */
    public VerifiedIdMode verifyEncodedWithoutPresenter(String token, String artifacts, SpiffeId verifier) {
        return verifyText(token, artifacts, verifier, null);
    }

    /** How many times a token was found verified before, so that its decoding and signatures were skipped. */
    public long rememberedTokenHits() {
        return signedTokens.hits();
    }

    private VerifiedIdMode verifyText(String text, String artifacts, SpiffeId verifier, Presenter peer) {
        Objects.requireNonNull(verifier, "verifier");
        if (artifacts == null) {
            throw new AssertionException(ErrorCode.MALFORMED, "missing artifacts");
        }
        Signed known = signedTokens.get(text, signed -> signed.artifacts().equals(artifacts));
        if (known != null) {
            return check(text, known.token(), known.parsed(), verifier, peer, true);
        }
        IdModeArtifacts parsed = IdModeArtifacts.parse(artifacts, settings.limits());
        IdModeToken token = IdModeToken.parse(text, settings.limits());
        VerifiedIdMode verified = check(text, token, parsed, verifier, peer, false);
        signedTokens.put(text, new Signed(token, artifacts, parsed), text.length() + artifacts.length());
        return verified;
    }

    private Optional<TrustBundle> bundleFor(SpiffeId iss, int layer) {
        try {
            return settings.bundles().bundleFor(iss.trustDomain());
        } catch (RuntimeException e) {
            throw new AssertionException(
                    ErrorCode.UNTRUSTED_KEY, layer, "trust bundle of " + iss.trustDomain() + " unavailable", e);
        }
    }

    private VerifiedIdMode doVerify(String text, IdModeArtifacts artifacts, SpiffeId verifier, Presenter peer) {
        Objects.requireNonNull(verifier, "verifier");
        if (artifacts == null) {
            throw new AssertionException(ErrorCode.MALFORMED, "missing artifacts");
        }
        // 1. limits, split, decode, claims
        return check(text, IdModeToken.parse(text, settings.limits()), artifacts, verifier, peer, false);
    }

    /**
     * Steps 1 (the required claims) to 5 on a parsed token; {@code signed} when every layer's
     * signature is known to verify with the leaf keys of these very artifacts (a remembered token),
     * so that step 3b checks the key type only.
     */
    private VerifiedIdMode check(
            String text,
            IdModeToken token,
            IdModeArtifacts artifacts,
            SpiffeId verifier,
            Presenter peer,
            boolean signed) {
        boolean strict = settings.profile() == VerificationProfile.STRICT;
        int depth = token.depth();
        if (strict) {
            for (int k = depth - 1; k >= 0; k--) {
                if (token.claims(k).expiresAt() == null) {
                    throw new AssertionException(ErrorCode.MALFORMED, k, "missing claim exp");
                }
            }
        }

        // 2. one chain per layer
        if (artifacts.size() != depth) {
            throw new AssertionException(
                    ErrorCode.MALFORMED, "artifacts hold " + artifacts.size() + " chains for " + depth + " layers");
        }

        // 3. every layer, outermost first
        Instant now = settings.timeRules().clock().instant();
        byte[] ascii = token.asciiBytes();
        Instant[] expiry = new Instant[depth];
        PublicKey outermostKey = null;
        for (int k = depth - 1; k >= 0; k--) {
            IdModeClaims claims = token.claims(k);
            List<X509Certificate> chain = artifacts.chain(k);

            // 3a. chain anchored in the bundle of the issuer's trust domain, SAN == iss
            SpiffeId iss = claims.issuer();
            Optional<TrustBundle> bundle = bundleFor(iss, k);
            if (bundle == null || bundle.isEmpty()) {
                throw new AssertionException(
                        ErrorCode.UNTRUSTED_KEY, k, "no trust bundle for the trust domain of " + iss);
            }
            SpiffeId leafId = chains.validate(chain, artifacts.toBase64().get(k), bundle.get(), now, k, provider);
            if (!leafId.equals(iss)) {
                throw new AssertionException(
                        ErrorCode.UNTRUSTED_KEY, k, "certificate of " + leafId + " signed a layer of " + iss);
            }

            // 3b. EC P-256 key, signature over the received signing input
            PublicKey key = chain.get(0).getPublicKey();
            Es256.requireP256(key, k);
            int from = token.signingInputStart(k);
            int to = token.signingInputEnd(k);
            if (!signed && !verifies(key, ascii, from, to - from, token.signatureBytes(k), provider, k)) {
                throw new AssertionException(ErrorCode.BAD_SIGNATURE, k, "signature of " + iss + " does not verify");
            }
            if (k == depth - 1) {
                outermostKey = key;
            }

            // 3c. iss(k) == aud(k-1)
            if (k > 0) {
                SpiffeId innerAud = token.claims(k - 1).audience();
                if (!iss.equals(innerAud)) {
                    throw new AssertionException(
                            ErrorCode.BROKEN_LINK, k, "issuer " + iss + " is not the inner audience " + innerAud);
                }
            }

            // 3d. time
            Instant exp = claims.expiresAt() != null
                    ? claims.expiresAt()
                    : claims.issuedAt().plus(settings.timeRules().originalMaxAge());
            expiry[k] = exp;
            settings.timeRules().check(k, claims.issuedAt(), null, exp);
            if (strict && k > 0) {
                Instant innerExp = token.claims(k - 1).expiresAt();
                if (exp.isAfter(innerExp)) {
                    throw new AssertionException(ErrorCode.BROKEN_LINK, k, "layer outlives the layer it wraps");
                }
            }
        }

        // 4. delegation: only in the root, by the pinned asserting workload
        IdModeClaims root = token.claims(0);
        if (!root.issuer().equals(settings.assertingWorkload())) {
            throw new AssertionException(
                    ErrorCode.DELEGATION_INVALID,
                    0,
                    "root issued by " + root.issuer() + ", not by the pinned " + settings.assertingWorkload());
        }
        if (root.dpa() == null
                || root.dpa().isEmpty()
                || root.dpr() == null
                || root.dpr().isEmpty()) {
            throw new AssertionException(ErrorCode.DELEGATION_INVALID, 0, "root layer without dpa and dpr");
        }
        for (int k = 1; k < depth; k++) {
            if (token.claims(k).carriesDelegation()) {
                throw new AssertionException(
                        ErrorCode.DELEGATION_INVALID,
                        k,
                        "hop " + token.claims(k).issuer() + " carries dpa or dpr");
            }
        }

        // 5. outermost audience and presenter
        IdModeClaims outer = token.claims(depth - 1);
        if (!outer.audience().equals(verifier)) {
            throw new AssertionException(
                    ErrorCode.WRONG_AUDIENCE,
                    depth - 1,
                    "token addressed to " + outer.audience() + ", verified by " + verifier);
        }
        if (peer != null) {
            if (!peer.id().equals(outer.issuer())) {
                throw new AssertionException(
                        ErrorCode.WRONG_PRESENTER,
                        depth - 1,
                        "presented by " + peer.id() + ", outermost issuer " + outer.issuer());
            }
            if (!peer.hasKey(outermostKey)) {
                throw new AssertionException(
                        ErrorCode.WRONG_PRESENTER, depth - 1, "peer " + peer.id() + " holds another key");
            }
        }

        List<LayerInfo> layers = new ArrayList<>(depth);
        for (int k = depth - 1; k >= 0; k--) {
            IdModeClaims c = token.claims(k);
            layers.add(new LayerInfo(c.issuer().toString(), c.audience().toString(), c.issuedAt(), expiry[k]));
        }
        List<SpiffeId> path = new ArrayList<>(depth);
        for (int k = 0; k < depth; k++) {
            path.add(token.claims(k).issuer());
        }
        VerifiedResult result = new VerifiedResult(
                Mode.ID_MODE,
                layers,
                new Delegation(root.dpa(), root.dpr(), root.issuer().toString()),
                token.encodedSize(),
                depth);
        return new VerifiedIdMode(result, path, outer.audience(), new IdModePresentation(text, artifacts), token);
    }

    /** Whether a signature is canonical DER and verifies: a non-canonical encoding never does. */
    private static boolean verifies(
            PublicKey key, byte[] data, int off, int len, byte[] signature, Provider provider, int layer) {
        return Es256.isCanonicalDer(signature) && Es256.verify(key, data, off, len, signature, provider, layer);
    }
}
