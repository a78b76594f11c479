package io.spiffeidt.perf.jmh;

import java.math.BigInteger;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;

/**
 * The proof's arithmetic as it was before the memos ({@link BigInteger#modPow} per round, a gcd per
 * round), kept only so that a benchmark run can put old and new side by side. Not a verifier: no
 * range or round checks, no codec; it does the same number of operations as the old code did.
 */
final class ZkpBaseline {

    private ZkpBaseline() {}

    static List<List<BigInteger>> prove(BigInteger s, BigInteger n, BigInteger e, int rounds, SecureRandom random)
            throws Exception {
        List<BigInteger> r = new ArrayList<>(rounds);
        List<BigInteger> c = new ArrayList<>(rounds);
        for (int i = 0; i < rounds; i++) {
            BigInteger ri;
            do {
                ri = new BigInteger(n.bitLength(), random);
            } while (ri.signum() <= 0 || ri.compareTo(n) >= 0 || !ri.gcd(n).equals(BigInteger.ONE));
            r.add(ri);
            c.add(ri.modPow(e, n));
        }
        byte[] d = challenge(c);
        List<BigInteger> p = new ArrayList<>(rounds);
        for (int i = 0; i < rounds; i++) {
            p.add(bit(d, i) ? s.multiply(r.get(i)).mod(n) : r.get(i));
        }
        return List.of(p, c);
    }

    static boolean verify(List<BigInteger> p, List<BigInteger> c, BigInteger m, BigInteger n, BigInteger e)
            throws Exception {
        byte[] d = challenge(c);
        for (int i = 0; i < p.size(); i++) {
            BigInteger ci = c.get(i);
            if (!ci.gcd(n).equals(BigInteger.ONE)) {
                return false;
            }
            BigInteger expected = bit(d, i) ? m.multiply(ci).mod(n) : ci;
            if (!p.get(i).modPow(e, n).equals(expected)) {
                return false;
            }
        }
        return true;
    }

    private static byte[] challenge(List<BigInteger> commitments) throws Exception {
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        for (BigInteger ci : commitments) {
            byte[] b = ci.toByteArray();
            int off = b.length > 1 && b[0] == 0 ? 1 : 0;
            digest.update(b, off, b.length - off);
        }
        return digest.digest();
    }

    private static boolean bit(byte[] d, int i) {
        return ((d[i / 8] >> (7 - (i % 8))) & 1) == 1;
    }
}
