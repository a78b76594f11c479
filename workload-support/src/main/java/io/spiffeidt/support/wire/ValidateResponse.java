package io.spiffeidt.support.wire;

import io.spiffeidt.core.VerifiedResult;

/** The answer of a remote validation: the verified result, the document's subject and its id. */
public record ValidateResponse(VerifiedResult result, String subject, String jti) {}
