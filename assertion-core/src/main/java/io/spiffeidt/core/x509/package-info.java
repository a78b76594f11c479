/**
 * X.509-SVID chains as the ID-Mode and LSVID verifiers check them, for callers outside the core
 * that need that check on its own: {@link io.spiffeidt.core.x509.X509SvidChains}. Depends on the
 * core's root types and its internal chain validation; no mode depends on it.
 */
package io.spiffeidt.core.x509;
