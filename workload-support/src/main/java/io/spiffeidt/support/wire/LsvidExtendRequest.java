package io.spiffeidt.support.wire;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/**
 * The body of {@code POST /lsvid/extendlsvid} (docs/formats/lsvid.md "Endpoints"): the user's OAuth access
 * token and the subject workload's LSVID, extended with {@code aud} = the asserting workload. Neither
 * is ever logged or returned.
 */
public record LsvidExtendRequest(
        @NotBlank @Size(max = 65536) String accessToken, @NotBlank @Size(max = 262144) String lsvid) {

    @Override
    public String toString() {
        return "LsvidExtendRequest[accessToken=<" + (accessToken == null ? 0 : accessToken.length())
                + " chars>, lsvid=<" + (lsvid == null ? 0 : lsvid.length()) + " chars>]";
    }
}
