package io.spiffeidt.core.lsvid;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * An LSVID identity claim ({@code iss}, {@code sub} or {@code aud}): docs/formats/lsvid.md "Structure",
 * serialized as {@code {cn, pk, x5c, id}}, each member omitted when empty.
 *
 * <p>Byte arrays are copied in and out. {@code toString()} names only the SPIFFE ID, never keys,
 * certificates or tokens.
 *
 * <p>Thread safety: immutable.
 *
 * @param cn the SPIFFE ID (or, in version 1 bases, the trust domain name), or {@code null}
 * @param pk DER SubjectPublicKeyInfo, or {@code null}
 * @param x5c DER certificates, leaf first (version 2 bases), or an empty list
 * @param id the issuer's own base token (extension layers), or {@code null}
 */
public record IdClaim(String cn, byte[] pk, List<byte[]> x5c, LsvidToken id) {

    /** Copies the arrays; {@code null} {@code x5c} becomes an empty list. */
    public IdClaim {
        pk = pk == null ? null : pk.clone();
        x5c = copy(x5c);
    }

    /** A claim carrying only a SPIFFE ID (e.g. {@code aud}). */
    public static IdClaim of(String cn) {
        return new IdClaim(cn, null, null, null);
    }

    /** A copy of the public key bytes, or {@code null}. */
    @Override
    public byte[] pk() {
        return pk == null ? null : pk.clone();
    }

    /** Copies of the certificates, leaf first. */
    @Override
    public List<byte[]> x5c() {
        return copy(x5c);
    }

    /** Whether the claim carries a non-empty {@code cn}. */
    public boolean hasCn() {
        return cn != null && !cn.isEmpty();
    }

    byte[] pkRaw() {
        return pk;
    }

    List<byte[]> x5cRaw() {
        return x5c;
    }

    private static List<byte[]> copy(List<byte[]> in) {
        if (in == null || in.isEmpty()) {
            return List.of();
        }
        List<byte[]> out = new ArrayList<>(in.size());
        for (byte[] b : in) {
            out.add(Objects.requireNonNull(b, "x5c entry").clone());
        }
        return Collections.unmodifiableList(out);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof IdClaim other)) {
            return false;
        }
        if (!Objects.equals(cn, other.cn) || !Arrays.equals(pk, other.pk) || !Objects.equals(id, other.id)) {
            return false;
        }
        if (x5c.size() != other.x5c.size()) {
            return false;
        }
        for (int i = 0; i < x5c.size(); i++) {
            if (!Arrays.equals(x5c.get(i), other.x5c.get(i))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        int h = Objects.hash(cn, id);
        h = 31 * h + Arrays.hashCode(pk);
        for (byte[] b : x5c) {
            h = 31 * h + Arrays.hashCode(b);
        }
        return h;
    }

    @Override
    public String toString() {
        return "IdClaim[cn=" + cn + ", pk=" + (pk != null) + ", x5c=" + x5c.size() + ", id=" + (id != null) + "]";
    }
}
