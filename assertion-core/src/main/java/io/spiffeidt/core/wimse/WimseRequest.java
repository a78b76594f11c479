package io.spiffeidt.core.wimse;

import java.net.URI;
import java.util.Objects;

/**
 * What a verifier checks a WIT and WPT against (docs/formats/wimse.md "Verifying a WPT"): the two
 * tokens as received, and the request they must be bound to.
 *
 * <p>The target URI must come from the workload's configuration (its own external base URI) and the
 * request path, never from the request's {@code Host} or {@code X-Forwarded-Host} header
 * (draft-ietf-wimse-wpt-02 §3.1.7).
 *
 * <p>Thread safety: immutable.
 *
 * @param wit the {@code Workload-Identity-Token} header value, or {@code null} when absent
 * @param wpt the WPT from the {@code Authorization} header ({@link
 *     WimseHeaders#wptFromAuthorization(String)}), or {@code null} when absent
 * @param method the request's HTTP method
 * @param target the request's target URI (absolute; query and fragment are ignored)
 * @param txnToken the {@code Txn-Token} header value, or {@code null} when the request has none
 */
public record WimseRequest(String wit, String wpt, String method, URI target, String txnToken) {

    /** Requires the method and an absolute target; the tokens are checked by the verifier. */
    public WimseRequest {
        WptSigner.method(method);
        WptSigner.audience(Objects.requireNonNull(target, "target"));
    }

    /** Names the request, never the tokens. */
    @Override
    public String toString() {
        return "WimseRequest[" + method + " " + WptSigner.audience(target) + "]";
    }
}
