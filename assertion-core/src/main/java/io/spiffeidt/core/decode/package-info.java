/**
 * Decoding of the four documents for display (the web page of subject-wl, tools): every layer's
 * claims, signature algorithm and size, without verifying anything. The decoding rules of each
 * format are those of docs/formats/dvid.md, id-mode.md, anon-mode.md and lsvid.md ("Wire format").
 */
package io.spiffeidt.core.decode;
