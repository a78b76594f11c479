package io.spiffeidt.support.wire;

/**
 * The answer of {@code POST /lsvid/extendlsvid} (docs/formats/lsvid.md "Endpoints"): the LSVID extended
 * with the asserting workload's delegation layer ({@code dpa}/{@code dpr}, {@code aud} = the
 * subject workload), and the summary of the OAuth token it came from.
 */
public record LsvidExtendResponse(String lsvid, OAuthSummary oauth) {

    @Override
    public String toString() {
        return "LsvidExtendResponse[lsvid=<" + (lsvid == null ? 0 : lsvid.length()) + " chars>, oauth=" + oauth + "]";
    }
}
