package io.spiffeidt.support.mtlsonly;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.Delegation;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.LayerInfo;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.VerifiedResult;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.hop.AbstractHop;
import io.spiffeidt.support.hop.Forwarding;
import io.spiffeidt.support.hop.HopParts;
import io.spiffeidt.support.hop.Outgoing;
import io.spiffeidt.support.hop.Received;
import io.spiffeidt.support.hop.Verified;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.oauth.VerifiedOAuthToken;
import io.spiffeidt.support.wire.DocumentRequest;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.http.HttpHeaders;

/**
 * The {@code mtls-only} baseline (docs/formats/mtls-only.md): nothing travels but SPIFFE mTLS and
 * the header {@value #USER_HEADER}, in which the subject workload names the user of the access
 * token it verified and every later tier repeats its caller's word. A tier trusts the header
 * because its caller is on the endpoint's allow-list ({@code @AllowedCallers}, checked before
 * {@link #verify}); it checks only that the header is well formed and names an allowed OAuth
 * issuer. A compromised middle tier can therefore act as any user: that is the baseline's point.
 *
 * <p>Thread safety: thread safe.
 */
public class MtlsOnlyHop extends AbstractHop<Delegation, Void> {

    /** The header that names the user: {@code iss="<issuer>", sub="<subject>"}. */
    public static final String USER_HEADER = "SpiffeIdt-User";

    /** Printable ASCII without {@code "} and {@code \}: an RFC 8941 string needing no escapes. */
    private static final String VALUE = "([\\x20\\x21\\x23-\\x5b\\x5d-\\x7e]{1,%d})";

    private static final int MAX_ISSUER = 1024;
    private static final int MAX_SUBJECT = 255;

    private static final Pattern FORMAT = Pattern.compile(
            "iss=\"" + VALUE.formatted(MAX_ISSUER) + "\", sub=\"" + VALUE.formatted(MAX_SUBJECT) + "\"");

    private final Set<String> issuers;

    /**
     * @param issuers the allowed OAuth issuers ({@code spiffeidt.oauth.issuers}): a header naming
     *     another is refused
     */
    public MtlsOnlyHop(HopParts parts, Set<String> issuers) {
        super(Mode.MTLS_ONLY, parts, Forwarding.REWRITES);
        this.issuers = Set.copyOf(Objects.requireNonNull(issuers, "issuers"));
    }

    /**
     * The subject workload's step: what travels to {@code next} for the user of an access token it
     * verified.
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED} when the issuer or subject cannot be
     *     written in the header
     */
    public Outgoing begin(VerifiedOAuthToken user, Role next) {
        return recorded(headerFor(user.issuer(), user.subject()));
    }

    /**
     * The subject workload's step for the header value it keeps ({@link #begin}): it goes to {@code
     * next} as kept; nothing is recorded again.
     */
    public Outgoing forward(String kept, Role next) {
        return Outgoing.wordInHeader(USER_HEADER, kept);
    }

    /**
     * The header value of {@code issuer} and {@code subject}.
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED} when either holds a character the header
     *     cannot carry, or is too long
     */
    static String headerValue(String issuer, String subject) {
        String value = "iss=\"" + issuer + "\", sub=\"" + subject + "\"";
        Matcher m = FORMAT.matcher(value);
        if (!m.matches() || !m.group(1).equals(issuer) || !m.group(2).equals(subject)) {
            throw new AssertionException(ErrorCode.MALFORMED, "the user cannot be written in " + USER_HEADER);
        }
        return value;
    }

    /**
     * The value of {@value #USER_HEADER}; a body token is refused (this mode carries no document).
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED} without exactly one header, or with a
     *     token in the body
     */
    @Override
    public Received receive(DocumentRequest body, HttpHeaders headers) {
        if (body.token() != null) {
            throw new AssertionException(ErrorCode.MALFORMED, "mtls-only carries no document in the body");
        }
        List<String> raw = headers.get(USER_HEADER);
        if (raw == null || raw.size() != 1) {
            throw new AssertionException(ErrorCode.MALFORMED, "exactly one " + USER_HEADER + " header required");
        }
        return Received.of(raw.get(0));
    }

    /**
     * Reads the user the caller names: a well-formed header ({@code MALFORMED}) naming an allowed
     * OAuth issuer ({@code UNKNOWN_ISSUER}). The delegation is asserted by the caller; the one layer
     * is the mTLS hop (issuer: the caller, audience: this workload). The caller itself was checked
     * against the endpoint's allow-list before this.
     *
     * @throws AssertionException MALFORMED or UNKNOWN_ISSUER
     */
    @Override
    protected Verified<Delegation> check(Received received, Caller caller, Void none) {
        Matcher m = FORMAT.matcher(received.token());
        if (!m.matches()) {
            throw new AssertionException(
                    ErrorCode.MALFORMED, USER_HEADER + " is not iss=\"<issuer>\", sub=\"<subject>\"");
        }
        String issuer = m.group(1);
        if (!issuers.contains(issuer)) {
            throw new AssertionException(ErrorCode.UNKNOWN_ISSUER, "the user's issuer is not allowed");
        }
        Delegation delegation = new Delegation(issuer, m.group(2), caller.id().toString());
        VerifiedResult result = new VerifiedResult(
                Mode.MTLS_ONLY,
                List.of(new LayerInfo(caller.id().toString(), self().toString(), null, null)),
                delegation,
                received.token().length(),
                1);
        return new Verified<>(delegation, result, received);
    }

    /** The user header for {@code next}, written again from the delegation this tier accepted. */
    @Override
    protected Outgoing onward(Verified<Delegation> verified, Role next) {
        Delegation user = verified.document();
        return headerFor(user.dpa(), user.dpr());
    }

    private static Outgoing headerFor(String issuer, String subject) {
        return Outgoing.wordInHeader(USER_HEADER, headerValue(issuer, subject));
    }
}
