package io.spiffeidt.support.wire;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The Txn-Token Response (draft-ietf-oauth-transaction-tokens §11.4, RFC 8693 §2.2.1): the
 * Txn-Token in {@code access_token}, {@code issued_token_type} the Txn-Token type URN and {@code
 * token_type} {@code N_A}; never a refresh token.
 */
public record TxnTokenResponse(
        @JsonProperty("access_token") String accessToken,
        @JsonProperty("issued_token_type") String issuedTokenType,
        @JsonProperty("token_type") String tokenType) {

    /** The token type URN of a Txn-Token (draft §11.1). */
    public static final String TXN_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:txn_token";

    /** The answer carrying {@code token}. */
    public static TxnTokenResponse of(String token) {
        return new TxnTokenResponse(token, TXN_TOKEN_TYPE, "N_A");
    }

    @Override
    public String toString() {
        return "TxnTokenResponse[<" + (accessToken == null ? 0 : accessToken.length()) + " chars>]";
    }
}
