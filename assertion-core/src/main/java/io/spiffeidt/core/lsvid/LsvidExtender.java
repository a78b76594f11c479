package io.spiffeidt.core.lsvid;

import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.internal.Es256;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.Provider;
import java.util.Objects;

/**
 * Adds a signed layer to an LSVID (docs/formats/lsvid.md "Extension layer"):
 *
 * <pre>{@code
 * payload   {ver: 2, alg: "ES256", iat: now, exp, iss: {cn: <own ID>, id: <own base token>},
 *            aud: {cn: <next hop>} [, dpa, dpr]}
 * signature ES256 with the own SVID key over {"nested":<previous token>,"payload":<payload>,"signature":null}
 * }</pre>
 *
 * <p>{@code exp} is the earliest of now + the configured lifetime, the wrapped layer's {@code exp}
 * and the own base's {@code exp}: a layer never outlives what it wraps, nor the key that signs it.
 * The bundle of the document is kept unchanged. Only the asserting workload adds {@code dpa}/
 * {@code dpr} ({@link #extendWithDelegation}); verifiers reject them from anyone else.
 *
 * <p>Thread safety: immutable; one instance may extend concurrently.
 */
public final class LsvidExtender {

    private final TimeRules timeRules;
    private final Provider provider;

    /**
     * An extender.
     *
     * @param timeRules where "now" and the layer lifetime come from
     * @param provider JCA provider for ES256, or {@code null} for the JDK's provider list
     */
    public LsvidExtender(TimeRules timeRules, Provider provider) {
        this.timeRules = Objects.requireNonNull(timeRules, "timeRules");
        this.provider = provider;
    }

    /**
     * Extends {@code lsvid} with a layer addressed to {@code audience}.
     *
     * @param lsvid the document to extend (usually just verified, or the own base)
     * @param ownBase this workload's current base token ({@link LsvidBaseBuilder#current})
     * @param ownKey the private key of the SVID {@code ownBase} was built from
     * @param audience the next hop
     * @return the extended document
     */
    public Lsvid extend(Lsvid lsvid, LsvidToken ownBase, PrivateKey ownKey, SpiffeId audience) {
        return add(lsvid, ownBase, ownKey, audience, null, null);
    }

    /**
     * Extends {@code lsvid} with the asserting workload's delegation layer: {@code dpa} (the
     * OAuth token's {@code iss}) and {@code dpr} (its {@code sub}), addressed to the subject
     * workload that asked for it.
     *
     * @see #extend(Lsvid, LsvidToken, PrivateKey, SpiffeId)
     */
    public Lsvid extendWithDelegation(
            Lsvid lsvid, LsvidToken ownBase, PrivateKey ownKey, SpiffeId audience, String dpa, String dpr) {
        if (dpa == null || dpa.isEmpty() || dpr == null || dpr.isEmpty()) {
            throw new IllegalArgumentException("a delegation needs dpa and dpr");
        }
        return add(lsvid, ownBase, ownKey, audience, dpa, dpr);
    }

    private Lsvid add(Lsvid lsvid, LsvidToken ownBase, PrivateKey ownKey, SpiffeId audience, String dpa, String dpr) {
        Objects.requireNonNull(lsvid, "lsvid");
        Objects.requireNonNull(ownBase, "ownBase");
        Objects.requireNonNull(ownKey, "ownKey");
        Objects.requireNonNull(audience, "audience");
        if (!ownBase.isBase()
                || ownBase.payload().sub() == null
                || !ownBase.payload().sub().hasCn()) {
            throw new IllegalArgumentException("ownBase must be a base token with sub.cn");
        }
        long now = timeRules.now().getEpochSecond();
        long exp = now + timeRules.lifetime().getSeconds();
        exp = earliest(exp, lsvid.token().payload().exp());
        exp = earliest(exp, ownBase.payload().exp());
        LsvidPayload payload = new LsvidPayload(
                LsvidPayload.VERSION_2,
                LsvidPayload.ES256,
                now,
                exp,
                new IdClaim(ownBase.payload().sub().cn(), null, null, ownBase),
                null,
                IdClaim.of(audience.toString()),
                dpa,
                dpr);
        LsvidToken unsigned = new LsvidToken(lsvid.token(), payload, null);
        String unsignedJson = LsvidJsonWriter.token(unsigned, false);
        byte[] signature = Es256.sign(ownKey, unsignedJson.getBytes(StandardCharsets.UTF_8), provider);
        LsvidToken signed = new LsvidToken(lsvid.token(), payload, signature);
        // the signed token's text is the signing input with the signature in place of its null
        signed.rememberJson(LsvidJsonWriter.withSignature(unsignedJson, signature));
        return new Lsvid(signed, lsvid.bundle());
    }

    private static long earliest(long a, long b) {
        return b == 0 ? a : Math.min(a, b);
    }
}
