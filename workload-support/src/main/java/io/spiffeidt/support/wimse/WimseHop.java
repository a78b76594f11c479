package io.spiffeidt.support.wimse;

import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.memo.MemoSettings;
import io.spiffeidt.core.txntoken.TxnToken;
import io.spiffeidt.core.txntoken.TxnTokenKeyResolver;
import io.spiffeidt.core.txntoken.TxnTokenKeys;
import io.spiffeidt.core.txntoken.TxnTokenVerifier;
import io.spiffeidt.core.wimse.BoundedJtiReplayCache;
import io.spiffeidt.core.wimse.VerifiedWimse;
import io.spiffeidt.core.wimse.WimseHeaders;
import io.spiffeidt.core.wimse.WimseRequest;
import io.spiffeidt.core.wimse.WimseSettings;
import io.spiffeidt.core.wimse.WimseVerifier;
import io.spiffeidt.core.wimse.Wit;
import io.spiffeidt.core.wimse.WitIssuer;
import io.spiffeidt.core.wimse.WitKeyResolver;
import io.spiffeidt.core.wimse.WitKeys;
import io.spiffeidt.core.wimse.Wpt;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.hop.AbstractHop;
import io.spiffeidt.support.hop.Forwarding;
import io.spiffeidt.support.hop.HopParts;
import io.spiffeidt.support.hop.Outgoing;
import io.spiffeidt.support.hop.Received;
import io.spiffeidt.support.hop.Verified;
import io.spiffeidt.support.identity.IdentityProperties;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.keys.FetchedKeySet;
import io.spiffeidt.support.memo.MemoProperties;
import io.spiffeidt.support.metrics.Operation;
import io.spiffeidt.support.problem.ChallengedException;
import io.spiffeidt.support.txntoken.TxnTokenHop;
import io.spiffeidt.support.txntoken.TxnTokenKeySet;
import io.spiffeidt.support.wire.DocumentRequest;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import java.security.Provider;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.interfaces.ECPublicKey;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.springframework.http.HttpHeaders;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * One workload's part of the wimse mode (docs/formats/wimse.md): every call between the tiers
 * carries the sender's WIT ({@value WimseHeaders#WORKLOAD_IDENTITY_TOKEN}), a WPT in {@code
 * Authorization: WPT} bound to the method, the target URI, the WIT ({@code wth}) and the Txn-Token
 * ({@code tth}), and the Txn-Token itself: the user, exactly as in mode txn-token, whose hop ({@link
 * TxnTokenHop}) exchanges, verifies the claims of and replaces it here.
 *
 * <p>The {@link io.spiffeidt.support.hop.Hop} verbs: {@link #receive} (the three headers, none in the
 * body), {@link #verify} (the WIT under the issuer's keys, the WPT under the WIT's key, its binding to
 * this request, freshness, single use in a bounded replay cache, the WIT naming the mTLS peer, then
 * the Txn-Token), {@link #forward} (a new WPT for the next tier, over the Txn-Token as received or
 * as the Txn-Token Service replaced it, timed as {@code extend}); at the asserting workload {@link
 * #mint} (a WIT for the mTLS peer's key); at the subject workload {@link #forward(String, Role,
 * String)}.
 *
 * <p>The WPT's target URI is the next tier's configured endpoint and the path of the request this
 * tier verified ({@code /wimse/balance} goes on to {@code /wimse/balance}); a receiving tier computes
 * its own from {@code spiffeidt.wimse.base-uri} and the request path, never from {@code Host}.
 *
 * <p>The replay cache is the core's {@link BoundedJtiReplayCache}, sized by the memo settings
 * {@code spiffeidt.memo.uses.wimse-jti.size}: not a {@code Memo}, which forgets its least recently
 * used entries when full and remembers nothing when the memos are off; a replay check may do
 * neither, so it refuses when full and runs whatever the memo switch says.
 *
 * <p>Thread safety: thread safe.
 */
public class WimseHop extends AbstractHop<WimseDocument, Void> {

    /** The memo of the WIT issuer's key set. */
    public static final String KEYS_MEMO = "wimse-keys";

    /** The memo settings that size the WPT replay cache (only {@code size} is read). */
    public static final String JTI_MEMO = "wimse-jti";

    /** The WIT issuance endpoint of the asserting workload. */
    public static final String WIT_PATH = "/wimse/wit";

    /** The JWKS endpoint of the WIT issuer. */
    public static final String KEYS_PATH = "/wimse/keys";

    /** The only method the tiers call each other with. */
    private static final String METHOD = "POST";

    private final TxnTokenHop txnTokenHop;
    private final IdentityProperties identityProperties;
    private final WimseProperties properties;
    private final Provider provider;
    private final WimseSettings settings;
    private final WimseVerifier verifier;
    private final TxnTokenVerifier txnTokenVerifier;
    private final WorkloadCredential credential;
    private final int replayCapacity;

    public WimseHop(
            HopParts parts,
            WimseProperties properties,
            IdentityProperties identityProperties,
            TxnTokenHop txnTokenHop) {
        // each forward signs a new WPT: timed as extend by its own step, so that a Txn-Token's
        // replacement at the middle tier (the txn-token hop's mint_call) stays out of that timer
        super(Mode.WIMSE, parts, Forwarding.RELAYS);
        this.txnTokenHop = Objects.requireNonNull(txnTokenHop, "txnTokenHop");
        this.identityProperties = Objects.requireNonNull(identityProperties, "identityProperties");
        this.properties = Objects.requireNonNull(properties, "properties");
        this.provider = parts.provider().provider();
        SecureRandom random = parts.provider().secureRandom();
        this.settings = new WimseSettings(
                parts.identity().self().trustDomain(),
                parts.identity().idOf(Role.ASSERTING_WL),
                parts.limits(),
                parts.timeRules(),
                WimseSettings.DEFAULT_WIT_LIFETIME,
                WimseSettings.DEFAULT_WPT_LIFETIME,
                WimseSettings.DEFAULT_MAX_TOKEN_LENGTH);
        MemoSettings jti = parts.memos().settings(JTI_MEMO);
        // the memo switch turns off remembered work, never this check: off, the default size holds
        this.replayCapacity =
                jti.size() > 0 ? jti.size() : MemoProperties.defaults(JTI_MEMO).size();
        this.verifier = new WimseVerifier(
                settings,
                provider,
                witKeys(parts.memos().settings(KEYS_MEMO)),
                new BoundedJtiReplayCache(replayCapacity, settings.timeRules().clock()));
        this.txnTokenVerifier = txnTokenHop.verifier(txnTokenKeys(parts.memos().settings(TxnTokenHop.KEYS_MEMO)));
        this.credential = new WorkloadCredential(
                parts.identity().self(), settings, provider, random, this::askForWit, verifier::verifyWit);
    }

    /** The trust domain, the WIT issuer (the asserting workload), lifetimes and limits. */
    public WimseSettings settings() {
        return settings;
    }

    /** The most unexpired WPT {@code jti}s this workload remembers. */
    public int replayCapacity() {
        return replayCapacity;
    }

    /**
     * The three headers of a wimse call, each exactly once: the Txn-Token (read as mode txn-token
     * reads it, a token in the body refused), the WIT and the WPT; with the method and the target URI
     * of the request, which the WPT must be bound to.
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED} when one is missing, repeated, or the
     *     {@code Authorization} is not one {@code WPT} token68
     */
    @Override
    public Received receive(DocumentRequest body, HttpHeaders headers) {
        Received txnToken = txnTokenHop.receive(body, headers);
        String wit = single(headers, WimseHeaders.WORKLOAD_IDENTITY_TOKEN);
        String wpt = WimseHeaders.wptFromAuthorization(single(headers, WimseHeaders.AUTHORIZATION));
        HttpServletRequest request = currentRequest();
        URI target = URI.create(base(request) + request.getRequestURI());
        // Received holds a token and one side-car: the request's other parts go in the side-car, one a
        // line (no header value, method or request URI holds a line break)
        return new Received(txnToken.token(), String.join("\n", wit, wpt, request.getMethod(), target.toString()));
    }

    /**
     * The WIT and WPT ({@link WimseVerifier}: issuer key, lifetime, {@code cnf}, proof of possession,
     * method, target, {@code wth}, {@code tth}, freshness, single use), the WIT naming the mTLS peer
     * ({@link ErrorCode#WRONG_PRESENTER}: no proxy stands between two tiers here), then the Txn-Token
     * as mode txn-token verifies it.
     */
    @Override
    protected Verified<WimseDocument> check(Received received, Caller caller, Void none) {
        String[] parts = sideCar(received);
        VerifiedWimse proof;
        try {
            proof = verifier.verify(
                    new WimseRequest(parts[0], parts[1], parts[2], URI.create(parts[3]), received.token()));
        } catch (AssertionException e) {
            // a refused WIT or WPT answers 401 with the WPT challenge (draft-ietf-wimse-wpt-02 §2.1)
            throw new ChallengedException(e, WimseHeaders.WPT_SCHEME);
        }
        if (!proof.workload().equals(caller.id())) {
            throw new AssertionException(
                    ErrorCode.WRONG_PRESENTER,
                    "the WIT names " + proof.workload() + ", the mTLS peer is " + caller.id());
        }
        TxnToken token = txnTokenVerifier.verify(received.token());
        Verified<TxnToken> txn = new Verified<>(
                token, token.result(txnTokenHop.settings().service().toString()), Received.of(received.token()));
        return new Verified<>(new WimseDocument(proof, txn), txn.result(), received);
    }

    /**
     * The Txn-Token as the txn-token hop forwards it (replaced at the middle tier while {@code
     * spiffeidt.txn-token.replace} is on), with a new WPT for the same operation at {@code next}.
     */
    @Override
    protected Outgoing onward(Verified<WimseDocument> verified, Role next) {
        String txnToken =
                txnTokenHop.forward(verified.document().txnToken(), next).token();
        return proven(txnToken, next, operationOf(verified.document().proof().audience()));
    }

    /**
     * The subject workload's step for the Txn-Token it keeps: to {@code next}'s {@code
     * /wimse/<operation>} with a new WPT, timed as {@code extend}.
     */
    public Outgoing forward(String kept, Role next, String operation) {
        return proven(kept, next, operation);
    }

    /**
     * The asserting workload's step: a WIT for {@code workload} (the mTLS peer) confirming {@code
     * key}, timed as {@code mint}, its size recorded. Not the mode's mint verb ({@link #minting()}:
     * none here): a WIT is a workload's credential, not the user's document, which is the Txn-Token the
     * txn-token hop mints.
     */
    public Wit issue(WitIssuer issuer, SpiffeId workload, PublicKey key) {
        return new Issuing(issuer).run(new WitOrder(workload, key));
    }

    private Outgoing proven(String txnToken, Role next, String operation) {
        WorkloadCredential.Held held = credential.current();
        URI target = URI.create(
                trimmed(identityProperties.endpointOf(next)) + "/" + Mode.WIMSE.pathSegment() + "/" + operation);
        return new Signing(held).run(new Call(txnToken, target));
    }

    private static String operationOf(String audience) {
        return audience.substring(audience.lastIndexOf('/') + 1);
    }

    private static String single(HttpHeaders headers, String name) {
        List<String> values = headers.get(name);
        if (values == null || values.isEmpty()) {
            throw new AssertionException(ErrorCode.MALFORMED, "no " + name + " header");
        }
        if (values.size() != 1) {
            throw new AssertionException(
                    ErrorCode.MALFORMED, values.size() + " " + name + " headers, exactly one allowed");
        }
        String value = values.get(0);
        if (value == null || value.isBlank()) {
            throw new AssertionException(ErrorCode.MALFORMED, "empty " + name + " header");
        }
        return value;
    }

    private static String[] sideCar(Received received) {
        String[] parts = received.artifacts() == null
                ? new String[0]
                : received.artifacts().split("\n", -1);
        if (parts.length != 4) {
            throw new AssertionException(ErrorCode.MALFORMED, "not a wimse request");
        }
        return parts;
    }

    /** This workload's base URI as its callers write it (see {@link WimseProperties#baseUri()}). */
    private String base(HttpServletRequest request) {
        if (properties.baseUri() != null) {
            return trimmed(properties.baseUri());
        }
        URI own = identityProperties.workload() == null
                ? null
                : identityProperties.endpoints().get(identityProperties.workload());
        if (own != null) {
            return trimmed(own);
        }
        String host = request.getLocalAddr();
        if (host.indexOf(':') >= 0) {
            host = "[" + host + "]";
        }
        return request.getScheme() + "://" + host + ":" + request.getLocalPort();
    }

    private static String trimmed(URI uri) {
        String s = uri.toString();
        return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    }

    private static HttpServletRequest currentRequest() {
        if (RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes attributes) {
            return attributes.getRequest();
        }
        throw new IllegalStateException("a wimse request is received in a servlet request only");
    }

    /** Rare (a new WIT every half lifetime): no operation of its own, http.client.requests counts it. */
    private String askForWit(PublicKey key) {
        Map<String, Object> jwk = new LinkedHashMap<>(
                new ECKey.Builder(Curve.P_256, (ECPublicKey) key).build().toJSONObject());
        WitWire.Response answer =
                client(Role.ASSERTING_WL).post(WIT_PATH, new WitWire.Request(jwk), WitWire.Response.class);
        if (answer == null || answer.wit() == null) {
            throw new AssertionException(ErrorCode.UPSTREAM_UNAVAILABLE, "the WIT issuer answered no WIT");
        }
        return answer.wit();
    }

    /** Rare (see FetchedKeySet), so no operation of its own: http.client.requests counts it. */
    private String fetch(String path) {
        return client(Role.ASSERTING_WL).get(path, String.class);
    }

    private WitKeyResolver witKeys(MemoSettings memo) {
        Supplier<String> fetch = () -> fetch(KEYS_PATH);
        if (memo.remembers()) {
            return new WitKeySet(fetch, provider, settings.timeRules().clock(), ttl(memo));
        }
        // the memo off remembers nothing: the key set is fetched for every verification
        return kid -> required(WitKeys.parse(fetch.get(), provider), kid, "unknown WIT issuer key id");
    }

    private TxnTokenKeyResolver txnTokenKeys(MemoSettings memo) {
        Supplier<String> fetch = () -> fetch(TxnTokenHop.KEYS_PATH);
        if (memo.remembers()) {
            return new TxnTokenKeySet(fetch, provider, settings.timeRules().clock(), ttl(memo));
        }
        return kid -> required(TxnTokenKeys.parse(fetch.get(), provider), kid, "unknown Txn-Token key id");
    }

    private static Duration ttl(MemoSettings memo) {
        return memo.ttl() == null ? FetchedKeySet.MAX_AGE : memo.ttl();
    }

    private static PublicKey required(Map<String, PublicKey> keys, String kid, String message) {
        PublicKey key = keys.get(kid);
        if (key == null) {
            throw new AssertionException(ErrorCode.UNTRUSTED_KEY, message);
        }
        return key;
    }

    private record Call(String txnToken, URI target) {}

    private record WitOrder(SpiffeId workload, PublicKey key) {}

    /** A WPT for one call, and what carries it: the three headers, the body only the amount. */
    private final class Signing extends OutgoingProduction<Call> {

        private final WorkloadCredential.Held held;

        Signing(WorkloadCredential.Held held) {
            super(Operation.EXTEND);
            this.held = held;
        }

        @Override
        protected Outgoing make(Call call) {
            String wit = held.wit().token();
            Wpt wpt = held.signer().sign(wit, METHOD, call.target(), call.txnToken());
            Map<String, String> headers = Map.of(
                    WimseHeaders.TXN_TOKEN, call.txnToken(),
                    WimseHeaders.WORKLOAD_IDENTITY_TOKEN, wit,
                    WimseHeaders.AUTHORIZATION, WimseHeaders.authorization(wpt.token()));
            return new Outgoing(call.txnToken(), null, 1, headers, true);
        }
    }

    /** The issuer's WIT for a workload's key. */
    private final class Issuing extends Production<WitOrder, Wit> {

        private final WitIssuer issuer;

        Issuing(WitIssuer issuer) {
            super(Operation.MINT);
            this.issuer = issuer;
        }

        @Override
        protected Wit make(WitOrder order) {
            return issuer.issue(order.workload(), order.key());
        }

        @Override
        protected int depthOf(Wit made) {
            return 1;
        }

        @Override
        protected int charactersOf(Wit made) {
            return made.token().length();
        }
    }
}
