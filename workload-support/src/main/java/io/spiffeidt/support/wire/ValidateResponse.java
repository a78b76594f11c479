package io.spiffeidt.support.wire;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.spiffeidt.core.VerifiedResult;

/**
 * The answer of a remote validation: the verified result, the document's subject and its id, and
 * the introspection answer when the request asked for it ({@link ValidateRequest#introspect()}).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ValidateResponse(VerifiedResult result, String subject, String jti, IntrospectionAnswer introspection) {

    /** A validation answer without introspection. */
    public ValidateResponse(VerifiedResult result, String subject, String jti) {
        this(result, subject, jti, null);
    }
}
