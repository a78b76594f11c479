package io.spiffeidt.support.hop;

/**
 * What a hop's {@link Hop#forward} does to the verified document, which says how {@link
 * AbstractHop} times and records it.
 */
public enum Forwarding {

    /** Signs a new layer (LSVID, ID-Mode, Anon-Mode): timed as {@code extend}, its size recorded. */
    EXTENDS,

    /**
     * Writes what travels anew without signing a layer (mtls-only's header, bearer-forward's token,
     * a replaced Txn-Token, whose call times itself): its size recorded, no operation of its own.
     */
    REWRITES,

    /** Sends the document as received (DVID, a Txn-Token not replaced): nothing timed nor recorded. */
    RELAYS
}
