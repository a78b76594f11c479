package io.spiffeidt.support.wire;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/**
 * The body of {@code POST /anon-mode/introspect} (docs/formats/anon-mode.md "Endpoints"): the root {@code
 * P(0) . R(0)} of an Anon-Mode token, never the whole token (the hops beyond the root are none of
 * the asserting workload's business, and the last segment of a token is a bearer key).
 */
public record AnonModeIntrospectRequest(@NotBlank @Size(max = 262144) String root) {

    @Override
    public String toString() {
        return "AnonModeIntrospectRequest[root=<" + (root == null ? 0 : root.length()) + " chars>]";
    }
}
