package io.spiffeidt.subject.flow;

import io.spiffeidt.subject.session.KeptDocument;
import java.util.Map;

/**
 * A freshly minted document with what the page shows of it: the decoded header (where the format has
 * one) and claims.
 */
public record MintedDocument(KeptDocument document, Map<String, Object> header, Object claims) {}
