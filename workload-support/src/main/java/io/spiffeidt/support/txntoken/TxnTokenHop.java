package io.spiffeidt.support.txntoken;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.jws.CompactJws;
import io.spiffeidt.core.memo.MemoSettings;
import io.spiffeidt.core.txntoken.TxnToken;
import io.spiffeidt.core.txntoken.TxnTokenKeyResolver;
import io.spiffeidt.core.txntoken.TxnTokenKeys;
import io.spiffeidt.core.txntoken.TxnTokenMinter;
import io.spiffeidt.core.txntoken.TxnTokenRequest;
import io.spiffeidt.core.txntoken.TxnTokenSettings;
import io.spiffeidt.core.txntoken.TxnTokenVerifier;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.hop.AbstractHop;
import io.spiffeidt.support.hop.Forwarding;
import io.spiffeidt.support.hop.Grant;
import io.spiffeidt.support.hop.HopParts;
import io.spiffeidt.support.hop.Minted;
import io.spiffeidt.support.hop.Outgoing;
import io.spiffeidt.support.hop.Received;
import io.spiffeidt.support.hop.Verified;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.metrics.Operation;
import io.spiffeidt.support.wire.DocumentRequest;
import io.spiffeidt.support.wire.TxnTokenResponse;
import java.security.Provider;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.http.HttpHeaders;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;

/**
 * One workload's part of the Txn-Token mode (docs/formats/txn-token.md "Flows"): the settings pinned
 * to the Txn-Token Service (the asserting workload) and the trust domain, verification against the
 * service's JWKS ({@link TxnTokenKeySet}), the token exchange of the subject workload and the
 * replacement of the middle tier (both RFC 8693 requests to the service's {@code /txn-token/token}).
 *
 * <p>Between the subject workload, the middle tier and the target the token travels only in the
 * request header {@value #HEADER} (draft §12.1), never in the body ({@link #receive}); the body
 * carries the deposit's amount alone. The header's value is never logged nor put in a message.
 *
 * <p>The {@link io.spiffeidt.support.hop.Hop} verbs: {@link #verify(Received, Caller)} (here, with
 * the service's keys, at every tier; a Txn-Token is not bound to its presenter, the mTLS allow-lists
 * say who may call), {@link #forward(Verified, Role)} (at the middle tier a replacement when {@code
 * spiffeidt.txn-token.replace} is on, else the token unchanged as draft §12.2 says), and at the
 * asserting workload {@link #minting()} (mint and replace); at the subject workload {@link #exchange} and
 * {@link #accept}.
 *
 * <p>Thread safety: thread safe.
 */
public class TxnTokenHop extends AbstractHop<TxnToken, Void> {

    /** The request header that carries the Txn-Token from one workload to the next (draft §12.1). */
    public static final String HEADER = "Txn-Token";

    /** The memo of the service's key set. */
    public static final String KEYS_MEMO = "txn-token-keys";

    /** RFC 8693's grant type. */
    public static final String GRANT_TYPE = "urn:ietf:params:oauth:grant-type:token-exchange";

    /** RFC 8693's type of an OAuth access token as a subject token. */
    public static final String ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token";

    /** The exchange endpoint of the service. */
    public static final String TOKEN_PATH = "/txn-token/token";

    /** The JWKS endpoint of the service. */
    public static final String KEYS_PATH = "/txn-token/keys";

    private final Provider provider;
    private final TxnTokenSettings settings;
    private final TxnTokenProperties properties;
    private final MemoSettings keysMemo;
    private final boolean replacesHere;
    private final Optional<TxnTokenService> minting;

    /** The verifier over the service's key set, built at the first use. */
    private volatile TxnTokenVerifier verifier;

    /** A hop that mints nothing: every workload's but the Txn-Token Service's. */
    public TxnTokenHop(HopParts parts, TxnTokenProperties properties) {
        this(Mode.TXN_TOKEN, parts, properties, null, null);
    }

    /**
     * A hop that mints nothing, for a mode whose user context is a Txn-Token (wimse): its steps and
     * calls are timed, counted and traced as {@code mode}'s.
     */
    public TxnTokenHop(Mode mode, HopParts parts, TxnTokenProperties properties) {
        this(mode, parts, properties, null, null);
    }

    /**
     * The Txn-Token Service's hop: {@link #TxnTokenHop(HopParts, TxnTokenProperties)} that also
     * mints and replaces tokens ({@link #minting()}) with {@code minter} (the service's key;
     * settings of {@link #serviceSettings}).
     *
     * @param minter the service's minter, or {@code null} for a hop that mints nothing
     * @param ownKeys the service's own key, which a token presented for replacement must be signed
     *     with ({@code null} with {@code minter})
     */
    public TxnTokenHop(
            HopParts parts, TxnTokenProperties properties, TxnTokenMinter minter, TxnTokenKeyResolver ownKeys) {
        this(Mode.TXN_TOKEN, parts, properties, minter, ownKeys);
    }

    private TxnTokenHop(
            Mode mode,
            HopParts parts,
            TxnTokenProperties properties,
            TxnTokenMinter minter,
            TxnTokenKeyResolver ownKeys) {
        super(mode, parts, replacesAt(parts, properties) ? Forwarding.REWRITES : Forwarding.RELAYS);
        this.provider = parts.provider().provider();
        this.properties = properties;
        this.replacesHere = replacesAt(parts, properties);
        this.keysMemo = parts.memos().settings(KEYS_MEMO);
        this.settings = serviceSettings(parts, properties);
        this.minting = minter == null ? Optional.empty() : Optional.of(new Service(minter, verifier(ownKeys)));
    }

    /**
     * The settings of the Txn-Token hops of {@code parts}: this trust domain as {@code aud}, the
     * asserting workload as the service, tokens living {@code spiffeidt.txn-token.lifetime}.
     */
    public static TxnTokenSettings serviceSettings(HopParts parts, TxnTokenProperties properties) {
        return new TxnTokenSettings(
                parts.identity().self().trustDomain(),
                parts.identity().idOf(Role.ASSERTING_WL),
                parts.limits(),
                parts.timeRules().withLifetime(properties.lifetime()),
                TxnTokenSettings.DEFAULT_MAX_TOKEN_LENGTH);
    }

    /** Whether the workload of {@code parts} has a Txn-Token replaced before calling the next tier: the middle tier, while {@code replace} is on. */
    private static boolean replacesAt(HopParts parts, TxnTokenProperties properties) {
        return properties.replace()
                && parts.identity().self().equals(parts.identity().idOf(Role.M_TIER));
    }

    /** The settings: this trust domain as {@code aud}, the asserting workload as the service. */
    public TxnTokenSettings settings() {
        return settings;
    }

    /** The scope requested and granted. */
    public String scope() {
        return properties.scope();
    }

    /**
     * A verifier with this hop's settings over {@code keys} (the service's own key at the service): also
     * the wimse hop's, whose user context is this mode's Txn-Token.
     */
    public TxnTokenVerifier verifier(TxnTokenKeyResolver keys) {
        return new TxnTokenVerifier(settings, provider, keys);
    }

    /**
     * The value of the one {@value #HEADER} header (draft §12.1: "MUST use the HTTP Header
     * "Txn-Token" ... The value of this header MUST be exactly one Txn-Token"); a token or artifacts
     * in the body are refused, not ignored, so that no request reads as valid for a reason the
     * sender did not mean.
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED} without the header, with two or more,
     *     with an empty value, or with a token or artifacts in the body; {@link
     *     ErrorCode#LIMIT_EXCEEDED} with a value over the token length limit (Tomcat refuses a header
     *     section over its own limit, 8 KB by default, before this with the same code)
     */
    @Override
    public Received receive(DocumentRequest body, HttpHeaders headers) {
        if (body.token() != null || body.artifacts() != null) {
            throw new AssertionException(
                    ErrorCode.MALFORMED, "txn-token carries its token in the " + HEADER + " header, not in the body");
        }
        List<String> raw = headers.get(HEADER);
        if (raw == null || raw.isEmpty()) {
            throw new AssertionException(ErrorCode.MALFORMED, "no " + HEADER + " header");
        }
        if (raw.size() != 1) {
            throw new AssertionException(
                    ErrorCode.MALFORMED, raw.size() + " " + HEADER + " headers, exactly one allowed");
        }
        String value = raw.get(0);
        if (value == null || value.isBlank()) {
            throw new AssertionException(ErrorCode.MALFORMED, "empty " + HEADER + " header");
        }
        if (value.length() > settings.maxTokenLength()) {
            throw new AssertionException(
                    ErrorCode.LIMIT_EXCEEDED,
                    HEADER + " header of " + value.length() + " characters over the limit "
                            + settings.maxTokenLength());
        }
        return Received.of(value);
    }

    /**
     * Verifies a Txn-Token {@code caller} sent, here, with the service's keys (draft §12.2: the
     * signature, {@code aud} = this trust domain, not expired; docs/formats/txn-token.md
     * "Verification" for the rest).
     */
    @Override
    protected Verified<TxnToken> check(Received received, Caller caller, Void none) {
        TxnToken token = remoteKeysVerifier().verify(received.token());
        return new Verified<>(token, token.result(settings.service().toString()), received);
    }

    /**
     * What goes to {@code next}: at the middle tier, while {@code spiffeidt.txn-token.replace} is on,
     * a replacement the service issued for this workload ({@code mint_call}); else the token as
     * received.
     */
    @Override
    protected Outgoing onward(Verified<TxnToken> verified, Role next) {
        if (!replacesHere) {
            return inHeader(verified.received().token());
        }
        TxnTokenResponse answer = client(Role.ASSERTING_WL)
                .post(
                        Operation.MINT_CALL,
                        TOKEN_PATH,
                        exchange(verified.received().token(), TxnTokenResponse.TXN_TOKEN_TYPE),
                        TxnTokenResponse.class);
        return inHeader(requireTxnToken(answer));
    }

    /**
     * The subject workload's step for a Txn-Token it keeps: it goes to {@code next} as issued, in the
     * {@value #HEADER} header (verified at every tier after this one); nothing is timed.
     */
    public Outgoing forward(String kept, Role next) {
        return inHeader(kept);
    }

    /** What carries {@code token} to the next tier: the {@value #HEADER} header, the body only the amount. */
    private static Outgoing inHeader(String token) {
        return Outgoing.inHeader(token, HEADER, token);
    }

    /**
     * The subject workload's token exchange: the user's access token for a Txn-Token, at the service
     * ({@code mint_call}); the answer is read, not verified (the next tier verifies it).
     */
    public String exchange(String accessToken) {
        TxnTokenResponse answer = client(Role.ASSERTING_WL)
                .post(
                        Operation.MINT_CALL,
                        TOKEN_PATH,
                        exchange(accessToken, ACCESS_TOKEN_TYPE),
                        TxnTokenResponse.class);
        return requireTxnToken(answer);
    }

    /**
     * The subject workload's reading of the Txn-Token the service answered, to show it and to know
     * when to ask again: parsed, not verified (the next tier verifies it).
     */
    public CompactJws accept(Received answer) {
        return CompactJws.parse(answer.token());
    }

    /**
     * The service's steps, where this hop was given the service's key: a token for the grant's user,
     * requested by its audience with the granted scope, and the replacement of a token the service
     * issued.
     */
    @Override
    public Optional<TxnTokenService> minting() {
        return minting;
    }

    /** The form of an RFC 8693 request for a Txn-Token (draft §11.1). */
    private MultiValueMap<String, String> exchange(String subjectToken, String subjectTokenType) {
        MultiValueMap<String, String> form = new LinkedMultiValueMap<>();
        form.add("grant_type", GRANT_TYPE);
        form.add("requested_token_type", TxnTokenResponse.TXN_TOKEN_TYPE);
        form.add("audience", settings.trustDomain());
        form.add("scope", scope());
        form.add("subject_token", subjectToken);
        form.add("subject_token_type", subjectTokenType);
        return form;
    }

    private static String requireTxnToken(TxnTokenResponse answer) {
        if (answer.accessToken() == null
                || !TxnTokenResponse.TXN_TOKEN_TYPE.equals(answer.issuedTokenType())
                || !"N_A".equals(answer.tokenType())) {
            throw new AssertionException(
                    ErrorCode.UPSTREAM_UNAVAILABLE, "the Txn-Token Service answered no Txn-Token Response");
        }
        return answer.accessToken();
    }

    /** Rare (see TxnTokenKeySet), so no operation of its own: http.client.requests counts it. */
    private String fetchKeys() {
        return client(Role.ASSERTING_WL).get(KEYS_PATH, String.class);
    }

    private TxnTokenVerifier remoteKeysVerifier() {
        TxnTokenVerifier v = verifier;
        if (v == null) {
            synchronized (this) {
                v = verifier;
                if (v == null) {
                    TxnTokenKeyResolver keys;
                    if (keysMemo.remembers()) {
                        Duration ttl = keysMemo.ttl() == null ? TxnTokenKeySet.MAX_AGE : keysMemo.ttl();
                        keys = new TxnTokenKeySet(
                                this::fetchKeys, provider, settings.timeRules().clock(), ttl);
                    } else {
                        // the memo off remembers nothing: the key set is fetched for every verification
                        keys = kid -> {
                            Map<String, java.security.PublicKey> fetched = TxnTokenKeys.parse(fetchKeys(), provider);
                            java.security.PublicKey key = fetched.get(kid);
                            if (key == null) {
                                throw new AssertionException(ErrorCode.UNTRUSTED_KEY, "unknown Txn-Token key id");
                            }
                            return key;
                        };
                    }
                    v = verifier(keys);
                    verifier = v;
                }
            }
        }
        return v;
    }

    private record Replacement(TxnToken verified, Caller caller) {}

    /** The service's token for an exchanged access token, and its replacement of a token it issued. */
    private final class Service extends MintingStep<TxnToken> implements TxnTokenService {

        private final TxnTokenMinter minter;
        private final OwnCheck ownCheck;
        private final Replacing replacing;

        Service(TxnTokenMinter minter, TxnTokenVerifier own) {
            this.minter = minter;
            this.ownCheck = new OwnCheck(own);
            this.replacing = new Replacing(minter);
        }

        @Override
        protected Minted<TxnToken> make(Grant grant) {
            return minted(minter.mint(
                    new TxnTokenRequest(grant.dpa(), grant.dpr(), scope(), grant.audience(), grant.notAfter())));
        }

        @Override
        public Minted<TxnToken> replace(Received presented, Caller caller) {
            TxnToken verified = ownCheck.run(presented, caller);
            return replacing.run(new Replacement(verified, caller));
        }
    }

    private static Minted<TxnToken> minted(TxnToken token) {
        return Minted.root(token, token.token(), null, token.expiresAt());
    }

    /** The service's check of a token it issued, with its own key. */
    private final class OwnCheck extends Check<TxnToken> {

        private final TxnTokenVerifier own;

        OwnCheck(TxnTokenVerifier own) {
            this.own = own;
        }

        @Override
        protected TxnToken apply(Received received, Caller caller) {
            return own.verify(received.token());
        }
    }

    /** The service's replacement of a token it verified, for the caller. */
    private final class Replacing extends MintedProduction<Replacement, TxnToken> {

        private final TxnTokenMinter minter;

        Replacing(TxnTokenMinter minter) {
            this.minter = minter;
        }

        @Override
        protected Minted<TxnToken> make(Replacement replacement) {
            return minted(
                    minter.replace(replacement.verified(), replacement.caller().id()));
        }
    }
}
