package io.spiffeidt.core.lsvid;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.Presenter;
import io.spiffeidt.core.SpiffeId;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.spec.X509EncodedKeySpec;

/**
 * The presenter of an LSVID that a workload receives as an answer rather than as a request
 * (docs/formats/lsvid.md "Flows": the subject workload checks what the asserting workload
 * returns). The answer came over an mTLS connection that authenticated exactly the configured
 * SPIFFE ID of the answering workload, but an HTTP client does not expose the server's leaf: so the
 * presenter is that configured ID (the name check is real: the outermost issuer must be it) with
 * the key of the outermost layer's own, anchored {@code iss.id} (the key check then only confirms
 * that this key signed the layer, which verification checks anyway).
 *
 * <p>Thread safety: stateless.
 */
public final class LsvidAnswers {

    private LsvidAnswers() {}

    /**
     * The presenter to verify {@code encoded} with.
     *
     * @param encoded the answered document
     * @param answering the configured SPIFFE ID of the answering workload
     * @param limits the limits to decode under
     * @throws AssertionException as {@link LsvidCodec#decode}, {@link ErrorCode#MALFORMED} when the
     *     answer has no extension layer, {@link ErrorCode#UNSUPPORTED} when its key is no EC key
     */
    public static Presenter presenterOf(String encoded, SpiffeId answering, Limits limits) {
        LsvidToken outer = LsvidCodec.decode(encoded, limits).token();
        IdClaim iss = outer.payload().iss();
        if (outer.isBase()
                || iss == null
                || iss.id() == null
                || iss.id().payload().sub() == null) {
            throw new AssertionException(ErrorCode.MALFORMED, "the answer has no extension layer");
        }
        return new Presenter(answering, publicKey(iss.id().payload().sub().pk()));
    }

    private static PublicKey publicKey(byte[] spki) {
        if (spki == null) {
            throw new AssertionException(ErrorCode.MALFORMED, "iss.id without sub.pk");
        }
        try {
            return KeyFactory.getInstance("EC").generatePublic(new X509EncodedKeySpec(spki));
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, "iss.id key is not a readable EC key");
        }
    }
}
