package io.spiffeidt.asserting.introspection;

/**
 * When the zero-knowledge proof that introspection answers is made ({@code spiffeidt.dvid.zkp},
 * {@code spiffeidt.id-mode.zkp}, {@code spiffeidt.anon-mode.zkp}).
 */
public enum ZkpTiming {
    /** At mint (as in the thesis timings). */
    AT_MINT,
    /** At the first introspection. */
    LAZY,
    /** Never: introspection answers without a proof. */
    OFF
}
