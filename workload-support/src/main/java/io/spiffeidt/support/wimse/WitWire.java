package io.spiffeidt.support.wimse;

import java.util.Map;
import java.util.Objects;

/**
 * The bodies of the WIT issuance at the asserting workload ({@code POST /wimse/wit};
 * docs/formats/wimse.md "Who issues WITs"): the workload sends only its public key, the issuer
 * answers the WIT for the SPIFFE ID of the mTLS peer.
 */
public final class WitWire {

    private WitWire() {}

    /**
     * A workload's request for a WIT.
     *
     * @param jwk the workload's EC P-256 public key as a JWK (RFC 7517), public members only
     */
    public record Request(Map<String, Object> jwk) {}

    /**
     * The issuer's answer.
     *
     * @param wit the Workload Identity Token, a compact JWS
     */
    public record Response(String wit) {

        public Response {
            Objects.requireNonNull(wit, "wit");
        }

        /** Never the token. */
        @Override
        public String toString() {
            return "WitWire.Response[<" + wit.length() + " chars>]";
        }
    }
}
