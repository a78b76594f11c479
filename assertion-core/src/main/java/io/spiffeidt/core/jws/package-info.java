/**
 * JSON Web Signatures in compact serialization as every mode reads them: {@link
 * io.spiffeidt.core.jws.CompactJws} splits and decodes one under the strict rules of
 * docs/formats/common.md, nothing more. Depends on the core's root types and its internal codecs;
 * the modes depend on it, never the other way round.
 */
package io.spiffeidt.core.jws;
