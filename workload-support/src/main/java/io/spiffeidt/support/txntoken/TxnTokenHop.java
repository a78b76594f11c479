package io.spiffeidt.support.txntoken;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.jws.CompactJws;
import io.spiffeidt.core.memo.MemoSettings;
import io.spiffeidt.core.memo.Memos;
import io.spiffeidt.core.txntoken.TxnToken;
import io.spiffeidt.core.txntoken.TxnTokenKeyResolver;
import io.spiffeidt.core.txntoken.TxnTokenKeys;
import io.spiffeidt.core.txntoken.TxnTokenMinter;
import io.spiffeidt.core.txntoken.TxnTokenRequest;
import io.spiffeidt.core.txntoken.TxnTokenSettings;
import io.spiffeidt.core.txntoken.TxnTokenVerifier;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.crypto.SignatureProvider;
import io.spiffeidt.support.hop.AbstractHop;
import io.spiffeidt.support.hop.Outgoing;
import io.spiffeidt.support.hop.Received;
import io.spiffeidt.support.hop.Verified;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.identity.WorkloadIdentity;
import io.spiffeidt.support.metrics.Operation;
import io.spiffeidt.support.wire.DocumentRequest;
import io.spiffeidt.support.wire.TxnTokenResponse;
import java.security.Provider;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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
 * asserting workload {@link #mint} and {@link #replace}.
 *
 * <p>Thread safety: thread safe.
 */
public class TxnTokenHop extends AbstractHop<TxnToken> {

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

    /** The verifier over the service's key set, built at the first use. */
    private volatile TxnTokenVerifier verifier;

    public TxnTokenHop(
            WorkloadIdentity identity,
            SignatureProvider provider,
            Limits limits,
            TimeRules timeRules,
            Memos memos,
            TxnTokenProperties properties) {
        super(Mode.TXN_TOKEN, identity);
        this.provider = provider.provider();
        this.properties = properties;
        this.keysMemo = memos.settings(KEYS_MEMO);
        this.settings = new TxnTokenSettings(
                identity.self().trustDomain(),
                identity.idOf(Role.ASSERTING_WL),
                limits,
                timeRules.withLifetime(properties.lifetime()),
                TxnTokenSettings.DEFAULT_MAX_TOKEN_LENGTH);
    }

    /** The settings: this trust domain as {@code aud}, the asserting workload as the service. */
    public TxnTokenSettings settings() {
        return settings;
    }

    /** The scope requested and granted. */
    public String scope() {
        return properties.scope();
    }

    /** Whether the middle tier asks for a replacement before calling the target. */
    public boolean replaces() {
        return properties.replace();
    }

    /** A verifier with this hop's settings over {@code keys} (the service's own key at the service). */
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
     * "Verification" for the rest), timed as {@code validate}.
     */
    @Override
    public Verified<TxnToken> verify(Received received, Caller caller) {
        TxnTokenVerifier v = remoteKeysVerifier();
        TxnToken token = timeValidate(received, () -> v.verify(received.token()), t -> 1);
        return new Verified<>(token, token.result(settings.service().toString()), received);
    }

    /**
     * What goes to {@code next}: at the middle tier, while {@link #replaces()}, a replacement the
     * service issued for this workload ({@code mint_call}); else the token as received.
     */
    @Override
    public Outgoing forward(Verified<TxnToken> verified, Role next) {
        if (!replaces() || !self().equals(idOf(Role.M_TIER))) {
            return inHeader(verified.received().token());
        }
        TxnTokenResponse answer = client(Role.ASSERTING_WL)
                .post(
                        Operation.MINT_CALL,
                        TOKEN_PATH,
                        exchange(verified.received().token(), TxnTokenResponse.TXN_TOKEN_TYPE),
                        TxnTokenResponse.class);
        String token = requireTxnToken(answer);
        recordSize(1, token.length());
        return inHeader(token);
    }

    /** What carries {@code token} to the next tier: the {@value #HEADER} header, the body only the amount. */
    public static Outgoing inHeader(String token) {
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

    /** Reads a Txn-Token for display; nothing is verified. */
    public CompactJws read(String token) {
        return CompactJws.parse(token);
    }

    /** The service's step: mints with {@code minter}, timed as {@code mint}, the size recorded. */
    public TxnToken mint(TxnTokenMinter minter, TxnTokenRequest request) {
        return timeProduced(Operation.MINT, () -> minter.mint(request), t -> 1, t -> t.token()
                .length());
    }

    /**
     * The service's replacement: verifies the token {@code caller} presents with {@code own} (its own
     * key; {@code validate}), then mints the replacement for the caller ({@code mint}).
     */
    public TxnToken replace(TxnTokenMinter minter, TxnTokenVerifier own, String token, Caller caller) {
        TxnToken verified = timeValidate(Received.of(token), () -> own.verify(token), t -> 1);
        return timeProduced(Operation.MINT, () -> minter.replace(verified, caller.id()), t -> 1, t -> t.token()
                .length());
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
}
