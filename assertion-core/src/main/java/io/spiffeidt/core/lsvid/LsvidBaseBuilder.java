package io.spiffeidt.core.lsvid;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.internal.Es256;
import io.spiffeidt.core.internal.X509Svids;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.x509.Certificate;

/**
 * Builds a workload's own version 2 base LSVID token from its X.509-SVID (docs/formats/lsvid.md "Base
 * document (version 2, per workload)"):
 *
 * <pre>{@code
 * payload   {ver: 2, alg: "ES256", iat: now, exp: the earliest notAfter of the chain,
 *            iss: {cn: "spiffe://<trust domain>"},
 *            sub: {cn: <own SPIFFE ID>, pk: <leaf SubjectPublicKeyInfo>, x5c: <own chain, leaf first>}}
 * signature ES256 over the compact JSON of the payload, with the SVID private key
 * }</pre>
 *
 * <p>{@link #current} keeps the last base and rebuilds it when the SVID rotates (another leaf
 * certificate) or when the kept base has expired, so a workload can call it on every request.
 *
 * <p>Thread safety: safe for concurrent use; {@link #current} may build twice under a race, and
 * either result is valid.
 */
public final class LsvidBaseBuilder {

    private final TimeRules timeRules;
    private final Provider provider;
    private final AtomicReference<Cached> cached = new AtomicReference<>();

    private record Cached(byte[] leafDer, LsvidToken base) {}

    /**
     * A builder.
     *
     * @param timeRules where "now" comes from
     * @param provider JCA provider for ES256, or {@code null} for the JDK's provider list
     */
    public LsvidBaseBuilder(TimeRules timeRules, Provider provider) {
        this.timeRules = Objects.requireNonNull(timeRules, "timeRules");
        this.provider = provider;
    }

    /**
     * Builds and signs a fresh base token.
     *
     * @param svidChain the workload's X.509-SVID chain, leaf first (as the Workload API gives it)
     * @param key the SVID's private key (P-256)
     * @throws AssertionException {@link ErrorCode#UNTRUSTED_KEY} when the leaf has no single
     *     SPIFFE ID, {@link ErrorCode#UNSUPPORTED} for a key not on P-256, {@link
     *     ErrorCode#EXPIRED} when the SVID has expired
     */
    public LsvidToken build(List<X509Certificate> svidChain, PrivateKey key) {
        Objects.requireNonNull(key, "key");
        if (svidChain == null || svidChain.isEmpty()) {
            throw new IllegalArgumentException("an SVID chain needs a leaf certificate");
        }
        X509Certificate leaf = svidChain.get(0);
        SpiffeId id = X509Svids.spiffeId(leaf);
        if (!Es256.isP256(leaf.getPublicKey())) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, "LSVID needs a P-256 SVID key");
        }
        Instant now = timeRules.now();
        Instant notAfter = leaf.getNotAfter().toInstant();
        List<byte[]> x5c = new ArrayList<>(svidChain.size());
        for (X509Certificate c : svidChain) {
            if (c.getNotAfter().toInstant().isBefore(notAfter)) {
                notAfter = c.getNotAfter().toInstant();
            }
            x5c.add(der(c));
        }
        long exp = notAfter.getEpochSecond();
        if (exp <= now.getEpochSecond()) {
            throw new AssertionException(ErrorCode.EXPIRED, "own SVID of " + id + " has expired");
        }
        LsvidPayload payload = new LsvidPayload(
                LsvidPayload.VERSION_2,
                LsvidPayload.ES256,
                now.getEpochSecond(),
                exp,
                IdClaim.of("spiffe://" + id.trustDomain()),
                new IdClaim(id.toString(), subjectPublicKeyInfo(leaf), x5c, null),
                null,
                null,
                null);
        byte[] input = LsvidJsonWriter.payload(payload).getBytes(StandardCharsets.UTF_8);
        return new LsvidToken(null, payload, Es256.sign(key, input, provider));
    }

    /**
     * The kept base token, rebuilt when {@code svidChain}'s leaf differs from the one it was built
     * from (SVID rotation) or when it has expired.
     *
     * @see #build(List, PrivateKey)
     */
    public LsvidToken current(List<X509Certificate> svidChain, PrivateKey key) {
        if (svidChain == null || svidChain.isEmpty()) {
            throw new IllegalArgumentException("an SVID chain needs a leaf certificate");
        }
        byte[] leafDer = der(svidChain.get(0));
        Cached c = cached.get();
        if (c != null
                && Arrays.equals(c.leafDer(), leafDer)
                && c.base().payload().exp() > timeRules.now().getEpochSecond()) {
            return c.base();
        }
        LsvidToken fresh = build(svidChain, key);
        cached.set(new Cached(leafDer, fresh));
        return fresh;
    }

    private static byte[] der(X509Certificate c) {
        try {
            return c.getEncoded();
        } catch (CertificateEncodingException e) {
            throw new AssertionException(ErrorCode.MALFORMED, "unreadable SVID certificate");
        }
    }

    static byte[] subjectPublicKeyInfo(X509Certificate cert) {
        try {
            return Certificate.getInstance(der(cert)).getSubjectPublicKeyInfo().getEncoded(ASN1Encoding.DER);
        } catch (IOException | RuntimeException e) {
            throw new AssertionException(ErrorCode.MALFORMED, "unreadable SVID certificate key");
        }
    }
}
