package io.spiffeidt.support.dvid;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.dvid.Dvid;
import io.spiffeidt.core.dvid.VerifiedDvid;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.hop.Minting;
import io.spiffeidt.support.hop.Received;

/**
 * The DVID hop's {@link Minting} at the asserting workload, the DVID issuer (docs/formats/dvid.md
 * "Endpoints"): a DVID for a grant ({@link #mint}), and the remote validation of a DVID it issued
 * ({@link #validate}, its {@code /dvid/validate}), both with the key the hop was given at
 * construction.
 *
 * <p>Thread safety: implementations are thread safe.
 */
public interface DvidIssuer extends Minting<Dvid> {

    /**
     * Every check of a DVID {@code caller} asks about, with the issuer's own key and the caller as
     * audience, timed as {@code validate}.
     *
     * @throws AssertionException with the code of the first failed check
     */
    VerifiedDvid validate(Received received, Caller caller);
}
