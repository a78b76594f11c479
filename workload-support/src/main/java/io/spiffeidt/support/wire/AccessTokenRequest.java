package io.spiffeidt.support.wire;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/** The body of the mint calls: the user's OAuth access token (never logged, never returned). */
public record AccessTokenRequest(@NotBlank @Size(max = 65536) String accessToken) {
    @Override
    public String toString() {
        return "AccessTokenRequest[accessToken=<" + (accessToken == null ? 0 : accessToken.length()) + " chars>]";
    }
}
