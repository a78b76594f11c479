package io.spiffeidt.core.lsvid;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.Delegation;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.LayerInfo;
import io.spiffeidt.core.Presenter;
import io.spiffeidt.core.PublicKeys;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.VerifiedResult;
import io.spiffeidt.core.internal.Es256;
import io.spiffeidt.core.internal.ValidatedChains;
import io.spiffeidt.core.internal.X509Svids;
import io.spiffeidt.core.memo.MemoSettings;
import io.spiffeidt.core.memo.Memos;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.PublicKey;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPublicKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.x509.Certificate;

/**
 * Verifies LSVID documents (docs/formats/lsvid.md "Verification (strict)"), failing closed: a result, or
 * an {@link AssertionException} with its code, never {@code null} and never another exception.
 *
 * <p>The checks, in this order:
 *
 * <ol>
 *   <li>Limits, strict decoding, the canonical round-trip check and the depth limit (see {@link
 *       LsvidCodec}).
 *   <li>Structure, innermost first: every token has the document's version and {@code ES256}
 *       ({@code UNSUPPORTED}); each extension layer has {@code iss.cn}, {@code iss.id} and {@code
 *       aud.cn}; {@code iss.cn} equals the {@code aud.cn} of the layer it wraps (the base's owner
 *       {@code sub.cn} for the first extension) ({@code BROKEN_LINK}); {@code iss.id} names the
 *       same workload ({@code UNTRUSTED_KEY}); {@code iat}/{@code exp} within the skew and {@code
 *       exp} not after the inner {@code exp} ({@code BROKEN_LINK}, as in every nested mode).
 *   <li>Crypto: the base (innermost) token is anchored and its signature verifies; each layer's
 *       {@code iss.id} is itself verified as a base document of {@code iss.cn} and its {@code
 *       sub.pk} verifies the layer's signature over {@code {"nested":…,"payload":…,
 *       "signature":null}}. Each distinct base token is verified once per call (memoized by its
 *       canonical text), however many layers embed it; bases and layers verified and documents
 *       decoded by earlier calls are remembered (see {@link #LsvidVerifier(LsvidSettings, Memos)}).
 *   <li>Delegation: with {@link DelegationRule#REQUIRED} exactly one layer carries {@code dpa}/
 *       {@code dpr}, its {@code iss.cn} is the pinned asserting workload and its {@code aud.cn}
 *       is the {@code iss.cn} of the extension layer it wraps; base tokens never carry them. With
 *       {@link DelegationRule#ABSENT} no token may carry them.
 *   <li>Outermost: {@code aud.cn} is the verifier ({@code WRONG_AUDIENCE}); the mTLS peer's
 *       SPIFFE ID is {@code iss.cn} and the peer's leaf key is the key that verified the
 *       outermost layer ({@code WRONG_PRESENTER}).
 * </ol>
 *
 * <p>Anchoring of a version 2 base: {@code iss.cn} is the trust domain ID; the {@code sub.x5c}
 * chain validates against the trust bundle at the verification time with the SPIFFE leaf rules;
 * the leaf's URI SAN is {@code sub.cn}; the leaf's SubjectPublicKeyInfo is byte-equal to {@code
 * sub.pk}; {@code exp} is not after the leaf's {@code notAfter}; {@code sub.pk} signs the compact
 * JSON of the payload. Version 1 (the original, {@link VerificationProfile#ORIGINAL_COMPATIBLE}
 * only, else {@code UNSUPPORTED}): the base is signed by {@code iss.pk}, which must be one of the
 * configured trusted LSVID issuer keys; its {@code sub.cn} is in the bundle's trust domain; a
 * missing {@code exp} becomes {@code iat} + the original maximum age (never after the inner
 * {@code exp}); a bundle token, when present, must be signed by a trusted issuer key too.
 *
 * <p>Presenter rule: the peer must hold the very key that signed the outermost layer, not just
 * the right SPIFFE ID. A peer whose SVID rotated after it extended the document (same ID, new
 * key) is rejected with {@code WRONG_PRESENTER}; it must rebuild its base from the new SVID (see
 * {@link LsvidBaseBuilder#current}) and extend again. This is what makes the check a bearer check
 * by name <em>and</em> key: a stolen document cannot be replayed over another connection of the
 * same workload identity with a different key.
 *
 * <p>Thread safety: immutable; one instance may verify concurrently.
 */
public final class LsvidVerifier {

    /** Whether the document must carry the asserting workload's delegation. */
    public enum DelegationRule {
        /**
         * Exactly one delegation layer, from the pinned asserting workload (what m-tier, target
         * and the subject, on the minted document, verify).
         */
        REQUIRED,
        /**
         * No delegation layer yet (what the asserting workload verifies on {@code
         * /lsvid/extendlsvid} before it adds one).
         */
        ABSENT
    }

    /** The memo of validated {@code x5c} chains (see {@link #LsvidVerifier(LsvidSettings, Memos)}). */
    public static final String CHAIN_MEMO = "lsvid-chain";

    /** The memo of verified base documents. */
    public static final String BASE_MEMO = VerifiedBases.NAME;

    /** The memo of layers whose signature verified. */
    public static final String LAYER_MEMO = VerifiedLayers.NAME;

    /** The memo of decoded documents. */
    public static final String DOCUMENT_MEMO = DecodedDocuments.NAME;

    private final LsvidSettings settings;
    private final ValidatedChains chains;
    private final VerifiedBases bases;
    private final VerifiedLayers layers;
    private final DecodedDocuments documents;

    /** The bundle's roots with their keys as the provider's key objects, made once. */
    private final X509Svids.Anchors anchors;

    /**
     * A verifier for the given settings with every memo at its {@linkplain MemoSettings#DEFAULTS
     * defaults} (see {@link #LsvidVerifier(LsvidSettings, Memos)}).
     */
    public LsvidVerifier(LsvidSettings settings) {
        this(settings, Memos.defaults(settings.timeRules().clock()));
    }

    /**
     * A verifier for the given settings, remembering work in the memos {@code memos} makes
     * (docs/design.md "Memos"):
     *
     * <ul>
     *   <li>{@value #CHAIN_MEMO}: path validation of a base's {@code x5c} chain (parsing, one
     *       signature per certificate, the RFC 5280 checks) costs about as much as a base's own
     *       signature check, and a deployment has few SVIDs, so validated chains are remembered
     *       by their exact bytes; a hit still requires an equal bundle and the time inside every
     *       certificate's validity, and every other check (key binding, signatures, expiry) runs on
     *       every call.
     *   <li>{@value #BASE_MEMO}: verified base documents by their exact canonical text (a
     *       base rides in every request of its workload): a hit requires an equal bundle, the same
     *       version, the time inside its certificates' validity, and passes the base's time checks
     *       again; anything else verifies the base in full.
     *   <li>{@value #LAYER_MEMO}: layers whose signature verified (the layers a document keeps, such
     *       as the asserting workload's delegation, ride unchanged in every request made with it, and
     *       so does the outermost one while the hop reuses its extension): a hit requires the layer's
     *       exact text and the key this call established from its {@code iss.id}.
     *   <li>{@value #DOCUMENT_MEMO}: documents that verified, decoded, by their exact encoded text
     *       and the limits: a hit skips the decoding (step 1) only. Documents and outermost layers
     *       come back only when the hop before reuses its extension; with this memo off neither is
     *       remembered, and every outermost layer is verified.
     * </ul>
     *
     * Every layer's links and times, the delegation and the presenter are checked on every call.
     * {@link Memos#none()} verifies every chain, base and layer in full and decodes every document
     * (the original's per-request behaviour).
     */
    public LsvidVerifier(LsvidSettings settings, Memos memos) {
        this(
                settings,
                new ValidatedChains(memos, CHAIN_MEMO),
                new VerifiedBases(memos),
                new VerifiedLayers(memos),
                new DecodedDocuments(memos));
    }

    /** A verifier sharing its memos (tests, and verifiers rebuilt for new settings). */
    LsvidVerifier(
            LsvidSettings settings,
            ValidatedChains chains,
            VerifiedBases bases,
            VerifiedLayers layers,
            DecodedDocuments documents) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.chains = Objects.requireNonNull(chains, "chains");
        this.bases = Objects.requireNonNull(bases, "bases");
        this.layers = Objects.requireNonNull(layers, "layers");
        this.documents = Objects.requireNonNull(documents, "documents");
        this.anchors = X509Svids.Anchors.of(settings.trustBundle(), settings.provider());
    }

    /** The settings this verifier checks against. */
    public LsvidSettings settings() {
        return settings;
    }

    /**
     * Verifies a document that must carry the asserting workload's delegation.
     *
     * @param lsvid the encoded document
     * @param verifier this workload's SPIFFE ID: the outermost audience must be it
     * @param peer the authenticated mTLS peer that presented the document
     * @return the verified result; {@code delegation} is the asserting workload's
     * @throws AssertionException with the code of the first failed check
     */
    public VerifiedResult verify(String lsvid, SpiffeId verifier, Presenter peer) {
        return verify(lsvid, verifier, peer, DelegationRule.REQUIRED).toResult();
    }

    /**
     * Verifies a document under a delegation rule and returns it decoded, ready to be extended.
     *
     * @param lsvid the encoded document
     * @param verifier this workload's SPIFFE ID: the outermost audience must be it
     * @param peer the authenticated mTLS peer that presented the document ({@code null} fails
     *     with {@code WRONG_PRESENTER})
     * @param rule whether a delegation layer is required or must be absent
     * @throws AssertionException with the code of the first failed check
     */
    public LsvidVerification verify(String lsvid, SpiffeId verifier, Presenter peer, DelegationRule rule) {
        Objects.requireNonNull(verifier, "verifier");
        Objects.requireNonNull(rule, "rule");
        try {
            return new Call().run(lsvid, verifier, peer, rule);
        } catch (AssertionException e) {
            throw e;
        } catch (RuntimeException e) {
            // fail closed on anything a library throws that the checks above did not map
            throw new AssertionException(ErrorCode.MALFORMED, "unreadable LSVID content");
        }
    }

    /** A verified base token: who owns it and its key. */
    private record BaseKey(SpiffeId owner, ECPublicKey key) {}

    /**
     * An {@code x5c} chain validated in this call: its leaf's SPIFFE ID, the leaf, its
     * SubjectPublicKeyInfo as it stands in the certificate when that is the usual P-256 form (else
     * {@code null}), its {@code notAfter}, and the window in which every certificate is valid.
     */
    private record AnchoredChain(
            SpiffeId leafId,
            X509Certificate leaf,
            byte[] leafKeyInfo,
            Instant leafNotAfter,
            Instant notBefore,
            Instant notAfter) {}

    /**
     * The state of one verification: the time, the version, and what this call computed once for
     * every base that needs it (bases by their canonical text, validated chains by their bytes,
     * subject keys by their encoding; the same SVID's chain rides in several bases of a document).
     * Nothing of it outlives the call.
     */
    private final class Call {
        private final Instant now = settings.timeRules().now();
        private final Map<String, BaseKey> verifiedBases = new HashMap<>();
        private final Map<List<ByteBuffer>, AnchoredChain> anchoredChains = new HashMap<>();
        private final Map<ByteBuffer, ECPublicKey> subjectKeys = new HashMap<>();
        private int version;

        LsvidVerification run(String encoded, SpiffeId verifier, Presenter peer, DelegationRule rule) {
            LsvidCodec.Decoded known = documents.find(encoded, settings.limits());
            LsvidCodec.Decoded decoded =
                    known != null ? known : LsvidCodec.decodeForVerification(encoded, settings.limits());
            List<LsvidToken> chain = decoded.chain();
            int n = chain.size();
            LsvidToken base = chain.get(n - 1);
            version = base.payload().ver();
            checkVersion(version, 0);
            if (version == LsvidPayload.VERSION_2 && decoded.lsvid().bundle() != null) {
                throw new AssertionException(ErrorCode.MALFORMED, "a version 2 document carries no bundle token");
            }

            // Structure, innermost first (layer index k: 0 = base).
            SpiffeId[] issuers = new SpiffeId[n];
            SpiffeId[] audiences = new SpiffeId[n];
            Instant[] issuedAt = new Instant[n];
            Instant[] expiresAt = new Instant[n];
            LsvidPayload bp = base.payload();
            checkBaseShape(bp, 0);
            SpiffeId owner = parseId(bp.sub().cn(), 0, "sub.cn");
            issuedAt[0] = seconds(bp.iat(), 0, "iat");
            expiresAt[0] = baseExpiry(bp, 0);
            if (bp.aud() != null) {
                SpiffeId baseAud = parseId(bp.aud().cn(), 0, "aud.cn");
                if (!baseAud.equals(owner)) {
                    throw new AssertionException(ErrorCode.BROKEN_LINK, 0, "base audience is not its subject");
                }
                audiences[0] = baseAud;
            }
            SpiffeId linkAudience = owner;
            for (int k = 1; k < n; k++) {
                LsvidPayload p = chain.get(n - 1 - k).payload();
                checkVersion(p.ver(), k);
                checkAlg(p.alg(), k);
                checkNoSel(p, k);
                if (p.iss() == null || p.iss().id() == null) {
                    throw new AssertionException(ErrorCode.MALFORMED, k, "extension layer without iss.id");
                }
                if (p.iss().pkRaw() != null || !p.iss().x5cRaw().isEmpty() || p.sub() != null) {
                    throw new AssertionException(ErrorCode.MALFORMED, k, "extension layer with key material");
                }
                if (p.aud() == null
                        || p.aud().pkRaw() != null
                        || !p.aud().x5cRaw().isEmpty()
                        || p.aud().id() != null) {
                    throw new AssertionException(ErrorCode.MALFORMED, k, "extension layer without a plain aud");
                }
                issuers[k] = parseId(p.iss().cn(), k, "iss.cn");
                audiences[k] = parseId(p.aud().cn(), k, "aud.cn");
                if (!issuers[k].equals(linkAudience)) {
                    throw new AssertionException(
                            ErrorCode.BROKEN_LINK,
                            k,
                            "issuer " + issuers[k] + " is not the audience " + linkAudience + " of the inner layer");
                }
                IdClaim idSub = p.iss().id().payload().sub();
                if (idSub == null
                        || !idSub.hasCn()
                        || !SpiffeId.isValid(idSub.cn())
                        || !SpiffeId.parse(idSub.cn()).equals(issuers[k])) {
                    throw new AssertionException(ErrorCode.UNTRUSTED_KEY, k, "iss.id does not belong to " + issuers[k]);
                }
                issuedAt[k] = seconds(p.iat(), k, "iat");
                if (p.exp() != 0) {
                    expiresAt[k] = seconds(p.exp(), k, "exp");
                    if (expiresAt[k].isAfter(expiresAt[k - 1])) {
                        throw new AssertionException(ErrorCode.BROKEN_LINK, k, "layer outlives the layer it wraps");
                    }
                } else if (version == LsvidPayload.VERSION_1) {
                    Instant assumed = issuedAt[k].plus(settings.timeRules().originalMaxAge());
                    expiresAt[k] = assumed.isAfter(expiresAt[k - 1]) ? expiresAt[k - 1] : assumed;
                } else {
                    throw new AssertionException(ErrorCode.MALFORMED, k, "missing exp");
                }
                settings.timeRules().check(k, issuedAt[k], null, expiresAt[k]);
                linkAudience = audiences[k];
            }

            // Crypto: the anchored base, then each layer with the key of its verified iss.id.
            ECPublicKey[] keys = new ECPublicKey[n];
            BaseKey baseKey = verifyBase(base, decoded.tokenJson(n - 1), 0);
            keys[0] = baseKey.key();
            if (version == LsvidPayload.VERSION_1 && decoded.lsvid().bundle() != null) {
                verifyV1Bundle(decoded.lsvid().bundle());
            }
            for (int k = 1; k < n; k++) {
                LsvidToken t = chain.get(n - 1 - k);
                LsvidToken id = t.payload().iss().id();
                BaseKey issuerKey = verifyBase(id, LsvidJsonWriter.token(id, true), k);
                if (!issuerKey.owner().equals(issuers[k])) {
                    throw new AssertionException(ErrorCode.UNTRUSTED_KEY, k, "iss.id does not belong to " + issuers[k]);
                }
                int index = n - 1 - k;
                // the outermost layer only comes back when documents do (a reused extension)
                boolean rememberable = k < n - 1 || documents.remembers();
                byte[] signature = t.signatureRaw();
                if (!rememberable || !layers.holds(decoded, index, signature, issuerKey.key())) {
                    Es256.requireValid(issuerKey.key(), decoded.signingInput(index), signature, provider(), k);
                    if (rememberable) {
                        layers.remember(decoded, index, signature, issuerKey.key());
                    }
                }
                keys[k] = issuerKey.key();
            }

            // Delegation.
            Delegation delegation = delegation(chain, issuers, audiences, rule);

            // Outermost: audience, then the bearer by name and key.
            int top = n - 1;
            SpiffeId audience = audiences[top];
            if (audience == null || !audience.equals(verifier)) {
                throw new AssertionException(ErrorCode.WRONG_AUDIENCE, top, "outermost audience is not " + verifier);
            }
            SpiffeId bearer = top == 0 ? owner : issuers[top];
            if (peer == null) {
                throw new AssertionException(ErrorCode.WRONG_PRESENTER, top, "no authenticated presenter");
            }
            if (!peer.id().equals(bearer)) {
                throw new AssertionException(
                        ErrorCode.WRONG_PRESENTER, top, "presenter " + peer.id() + " is not the issuer " + bearer);
            }
            if (!peer.hasKey(keys[top])) {
                throw new AssertionException(
                        ErrorCode.WRONG_PRESENTER,
                        top,
                        "presenter " + peer.id() + " does not hold the key that signed the outermost layer");
            }

            List<LayerInfo> layers = new ArrayList<>(n);
            for (int k = top; k >= 0; k--) {
                String issuer = k == 0 ? bp.iss().cn() : issuers[k].toString();
                String aud = audiences[k] == null ? null : audiences[k].toString();
                layers.add(new LayerInfo(issuer, aud, issuedAt[k], expiresAt[k]));
            }
            if (known == null) {
                documents.remember(encoded, settings.limits(), decoded);
            }
            return new LsvidVerification(decoded.lsvid(), layers, delegation, decoded.encodedSize(), n);
        }

        private Delegation delegation(
                List<LsvidToken> chain, SpiffeId[] issuers, SpiffeId[] audiences, DelegationRule rule) {
            int n = chain.size();
            int found = -1;
            int count = 0;
            for (int k = 1; k < n; k++) {
                if (chain.get(n - 1 - k).payload().hasDelegation()) {
                    count++;
                    found = k;
                }
            }
            if (rule == DelegationRule.ABSENT) {
                if (count != 0) {
                    throw new AssertionException(
                            ErrorCode.DELEGATION_INVALID, found, "document already carries a delegation");
                }
                return null;
            }
            if (count != 1) {
                throw new AssertionException(
                        ErrorCode.DELEGATION_INVALID,
                        count == 0 ? "document carries no delegation" : "document carries " + count + " delegations");
            }
            LsvidPayload p = chain.get(n - 1 - found).payload();
            if (p.dpa() == null
                    || p.dpa().isEmpty()
                    || p.dpr() == null
                    || p.dpr().isEmpty()) {
                throw new AssertionException(ErrorCode.DELEGATION_INVALID, found, "delegation needs both dpa and dpr");
            }
            SpiffeId pinned = settings.assertingWorkload();
            if (!issuers[found].equals(pinned)) {
                throw new AssertionException(
                        ErrorCode.DELEGATION_INVALID,
                        found,
                        "delegation asserted by " + issuers[found] + ", not by " + pinned);
            }
            if (found < 2 || !audiences[found].equals(issuers[found - 1])) {
                throw new AssertionException(
                        ErrorCode.DELEGATION_INVALID,
                        found,
                        "delegation is not addressed to the workload that asked for it");
            }
            return new Delegation(p.dpa(), p.dpr(), issuers[found].toString());
        }

        /** Verifies a base token once per call; {@code canonical} is its canonical text. */
        private BaseKey verifyBase(LsvidToken base, String canonical, int layer) {
            BaseKey known = verifiedBases.get(canonical);
            if (known != null) {
                return known;
            }
            VerifiedBases.Entry remembered = bases.find(canonical, settings.trustBundle(), version, now);
            if (remembered != null) {
                settings.timeRules().check(layer, remembered.issuedAt(), null, remembered.expiresAt());
                BaseKey hit = new BaseKey(remembered.owner(), remembered.key());
                verifiedBases.put(canonical, hit);
                return hit;
            }
            if (!base.isBase()) {
                throw new AssertionException(ErrorCode.UNTRUSTED_KEY, layer, "iss.id is not a base document");
            }
            LsvidPayload p = base.payload();
            checkVersion(p.ver(), layer);
            if (p.ver() != version) {
                throw new AssertionException(ErrorCode.UNSUPPORTED, layer, "base of another version");
            }
            checkBaseShape(p, layer);
            SpiffeId owner = parseId(p.sub().cn(), layer, "sub.cn");
            Instant iat = seconds(p.iat(), layer, "iat");
            Instant exp = baseExpiry(p, layer);
            settings.timeRules().check(layer, iat, null, exp);
            byte[] payloadJson = LsvidJsonWriter.payload(p).getBytes(StandardCharsets.UTF_8);
            ECPublicKey subjectKey;
            Instant[] validity = {Instant.MIN, Instant.MAX};
            if (version == LsvidPayload.VERSION_2) {
                subjectKey = anchorV2(p, owner, exp, layer, validity);
                Es256.requireValid(subjectKey, payloadJson, base.signatureRaw(), provider(), layer);
            } else {
                if (!owner.memberOf(settings.trustBundle().trustDomain())) {
                    throw new AssertionException(ErrorCode.UNTRUSTED_KEY, layer, owner + " is not in the trust domain");
                }
                ECPublicKey issuerKey = trustedV1Issuer(p.iss(), layer);
                subjectKey = Es256.publicKey(p.sub().pkRaw(), provider(), layer);
                Es256.requireValid(issuerKey, payloadJson, base.signatureRaw(), provider(), layer);
            }
            BaseKey verified = new BaseKey(owner, subjectKey);
            verifiedBases.put(canonical, verified);
            if (version == LsvidPayload.VERSION_2) { // version 1 depends on the trusted issuer keys too
                bases.remember(
                        canonical,
                        new VerifiedBases.Entry(
                                settings.trustBundle(),
                                version,
                                owner,
                                subjectKey,
                                iat,
                                exp,
                                validity[0],
                                validity[1]));
            }
            return verified;
        }

        private ECPublicKey anchorV2(LsvidPayload p, SpiffeId owner, Instant exp, int layer, Instant[] validity) {
            String trustDomainId = "spiffe://" + settings.trustBundle().trustDomain();
            if (!trustDomainId.equals(p.iss().cn())) {
                throw new AssertionException(ErrorCode.UNTRUSTED_KEY, layer, "base not issued in the trust domain");
            }
            List<byte[]> x5c = p.sub().x5cRaw();
            if (x5c.isEmpty()) {
                throw new AssertionException(ErrorCode.MALFORMED, layer, "base without x5c");
            }
            List<ByteBuffer> chainKey = new ArrayList<>(x5c.size());
            for (byte[] der : x5c) {
                chainKey.add(ByteBuffer.wrap(der));
            }
            AnchoredChain chain = anchoredChains.get(chainKey);
            if (chain == null) {
                chain = anchor(x5c, chainKey, layer);
                anchoredChains.put(chainKey, chain);
            }
            if (!chain.leafId().equals(owner)) {
                throw new AssertionException(
                        ErrorCode.UNTRUSTED_KEY, layer, "certificate of " + chain.leafId() + " does not name " + owner);
            }
            validity[0] = chain.notBefore();
            validity[1] = chain.notAfter();
            byte[] pk = p.sub().pkRaw();
            if (!Arrays.equals(chain.leafKeyInfo(), pk) && !Arrays.equals(derKeyInfo(chain.leaf(), layer), pk)) {
                throw new AssertionException(
                        ErrorCode.UNTRUSTED_KEY, layer, "sub.pk of " + owner + " is not its certificate key");
            }
            if (exp.isAfter(chain.leafNotAfter())) {
                throw new AssertionException(ErrorCode.UNTRUSTED_KEY, layer, "base outlives its certificate");
            }
            ByteBuffer pkKey = ByteBuffer.wrap(pk);
            ECPublicKey key = subjectKeys.get(pkKey);
            if (key == null) {
                key = Es256.publicKey(pk, provider(), layer);
                subjectKeys.put(pkKey, key);
            }
            return key;
        }

        /** Parses and validates an {@code x5c} chain (its first use in this call). */
        private AnchoredChain anchor(List<byte[]> x5c, List<ByteBuffer> chainKey, int layer) {
            List<X509Certificate> certs = new ArrayList<>(x5c.size());
            for (byte[] der : x5c) {
                List<X509Certificate> one = X509Svids.parseDer(der);
                if (one.size() != 1) {
                    throw new AssertionException(ErrorCode.MALFORMED, layer, "x5c entry is not one certificate");
                }
                certs.add(one.get(0));
            }
            // the memo keeps its key beyond this call: its own copy of the bytes
            Object memoKey = chainKey;
            if (chains.remembers()) {
                List<ByteBuffer> copy = new ArrayList<>(x5c.size());
                for (byte[] der : x5c) {
                    copy.add(ByteBuffer.wrap(der.clone()));
                }
                memoKey = copy;
            }
            SpiffeId leafId = chains.validate(certs, memoKey, anchors, now, layer);
            Instant notBefore = Instant.MIN;
            Instant notAfter = Instant.MAX;
            for (X509Certificate c : certs) {
                Instant nb = c.getNotBefore().toInstant();
                Instant na = c.getNotAfter().toInstant();
                notBefore = nb.isAfter(notBefore) ? nb : notBefore;
                notAfter = na.isBefore(notAfter) ? na : notAfter;
            }
            X509Certificate leaf = certs.get(0);
            return new AnchoredChain(
                    leafId,
                    leaf,
                    X509Svids.p256KeyInfo(x5c.get(0)),
                    leaf.getNotAfter().toInstant(),
                    notBefore,
                    notAfter);
        }

        private ECPublicKey trustedV1Issuer(IdClaim iss, int layer) {
            byte[] pk = iss.pkRaw();
            if (pk == null || pk.length == 0) {
                throw new AssertionException(ErrorCode.UNTRUSTED_KEY, layer, "version 1 base without issuer key");
            }
            ECPublicKey issuerKey = Es256.publicKey(pk, provider(), layer);
            for (PublicKey trusted : settings.trustedV1IssuerKeys()) {
                if (PublicKeys.same(trusted, issuerKey)) {
                    return issuerKey;
                }
            }
            throw new AssertionException(ErrorCode.UNTRUSTED_KEY, layer, "version 1 issuer key is not trusted");
        }

        private void verifyV1Bundle(LsvidToken bundle) {
            if (!bundle.isBase() || bundle.payload().iss() == null) {
                throw new AssertionException(ErrorCode.MALFORMED, "bundle is not a base token");
            }
            ECPublicKey issuerKey = trustedV1Issuer(bundle.payload().iss(), -1);
            byte[] payloadJson = LsvidJsonWriter.payload(bundle.payload()).getBytes(StandardCharsets.UTF_8);
            Es256.requireValid(issuerKey, payloadJson, bundle.signatureRaw(), provider(), -1);
        }

        /** Shape of a base payload shared by the innermost base and every {@code iss.id}. */
        private void checkBaseShape(LsvidPayload p, int layer) {
            checkAlg(p.alg(), layer);
            checkNoSel(p, layer);
            if (p.hasDelegation()) {
                throw new AssertionException(ErrorCode.DELEGATION_INVALID, layer, "a base token carries dpa/dpr");
            }
            if (p.iss() == null || !p.iss().hasCn() || p.iss().id() != null) {
                throw new AssertionException(ErrorCode.MALFORMED, layer, "base without a plain iss");
            }
            if (p.sub() == null
                    || !p.sub().hasCn()
                    || p.sub().pkRaw() == null
                    || p.sub().id() != null) {
                throw new AssertionException(ErrorCode.MALFORMED, layer, "base without sub.cn and sub.pk");
            }
            if (version == LsvidPayload.VERSION_2) {
                if (p.iss().pkRaw() != null || !p.iss().x5cRaw().isEmpty() || p.aud() != null) {
                    throw new AssertionException(ErrorCode.MALFORMED, layer, "version 2 base with extra claims");
                }
            } else if (!p.sub().x5cRaw().isEmpty()) {
                throw new AssertionException(ErrorCode.MALFORMED, layer, "version 1 base with x5c");
            }
        }

        private Instant baseExpiry(LsvidPayload p, int layer) {
            if (p.exp() != 0) {
                return seconds(p.exp(), layer, "exp");
            }
            if (version == LsvidPayload.VERSION_1) {
                return seconds(p.iat(), layer, "iat").plus(settings.timeRules().originalMaxAge());
            }
            throw new AssertionException(ErrorCode.MALFORMED, layer, "missing exp");
        }

        private void checkVersion(int ver, int layer) {
            if (ver == LsvidPayload.VERSION_2 && (layer == 0 || ver == version)) {
                return;
            }
            if (ver == LsvidPayload.VERSION_1 && (layer == 0 || ver == version)) {
                if (settings.profile() != VerificationProfile.ORIGINAL_COMPATIBLE) {
                    throw new AssertionException(
                            ErrorCode.UNSUPPORTED, layer, "version 1 LSVID needs the original-compatible profile");
                }
                return;
            }
            throw new AssertionException(ErrorCode.UNSUPPORTED, layer, "unsupported or mixed LSVID version");
        }

        private java.security.Provider provider() {
            return settings.provider();
        }
    }

    private static void checkAlg(String alg, int layer) {
        if (!LsvidPayload.ES256.equals(alg)) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, layer, "unsupported algorithm");
        }
    }

    private static void checkNoSel(LsvidPayload p, int layer) {
        if (!p.sel().isEmpty() && p.ver() != LsvidPayload.VERSION_1) {
            throw new AssertionException(ErrorCode.MALFORMED, layer, "sel is a version 1 claim");
        }
    }

    private static SpiffeId parseId(String text, int layer, String claim) {
        if (text == null || !SpiffeId.isValid(text)) {
            throw new AssertionException(ErrorCode.MALFORMED, layer, claim + " is not a SPIFFE ID");
        }
        return SpiffeId.parse(text);
    }

    private static Instant seconds(long value, int layer, String claim) {
        if (value <= 0 || value > 253402300799L) {
            throw new AssertionException(ErrorCode.MALFORMED, layer, "missing or out-of-range " + claim);
        }
        return Instant.ofEpochSecond(value);
    }

    /** The certificate's SubjectPublicKeyInfo, DER-encoded (for a key not of the usual P-256 form). */
    private static byte[] derKeyInfo(X509Certificate cert, int layer) {
        try {
            return Certificate.getInstance(cert.getEncoded())
                    .getSubjectPublicKeyInfo()
                    .getEncoded(ASN1Encoding.DER);
        } catch (java.security.cert.CertificateEncodingException | java.io.IOException | RuntimeException e) {
            throw new AssertionException(ErrorCode.UNTRUSTED_KEY, layer, "unreadable certificate key");
        }
    }
}
