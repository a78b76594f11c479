package io.spiffeidt.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.Presenter;
import io.spiffeidt.core.PublicKeys;
import io.spiffeidt.core.SpiffeId;
import java.math.BigInteger;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECFieldFp;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPoint;
import java.security.spec.EllipticCurve;
import java.security.spec.X509EncodedKeySpec;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.junit.jupiter.api.Test;

/** The one P-256 check and the one key comparison. */
class P256Tests {

    private static KeyPair ec(String curve) throws Exception {
        KeyPairGenerator gen = KeyPairGenerator.getInstance("EC");
        gen.initialize(new ECGenParameterSpec(curve));
        return gen.generateKeyPair();
    }

    @Test
    void isP256WhenP256KeyFromSunOrBcThenTrue() throws Exception {
        KeyPair kp = ec("secp256r1");
        assertThat(P256.isP256(kp.getPublic())).isTrue();
        assertThat(P256.isP256(kp.getPrivate())).isTrue();
        ECPublicKey bc = (ECPublicKey) KeyFactory.getInstance("EC", new BouncyCastleProvider())
                .generatePublic(new X509EncodedKeySpec(kp.getPublic().getEncoded()));
        assertThat(P256.isP256(bc)).isTrue();
    }

    @Test
    void isUsualKeyInfoWhenNamedCurveUncompressedPointOnCurveThenTrue() throws Exception {
        byte[] spki = ec("secp256r1").getPublic().getEncoded();
        assertThat(P256.isUsualKeyInfo(spki)).isTrue();

        byte[] offCurve = spki.clone();
        offCurve[offCurve.length - 1] ^= 1;
        assertThat(P256.isUsualKeyInfo(offCurve)).isFalse();
        byte[] otherCurveOid = spki.clone();
        otherCurveOid[22] ^= 1;
        assertThat(P256.isUsualKeyInfo(otherCurveOid)).isFalse();
        assertThat(P256.isUsualKeyInfo(java.util.Arrays.copyOf(spki, spki.length - 1)))
                .isFalse();
        assertThat(P256.isUsualKeyInfo(ec("secp384r1").getPublic().getEncoded()))
                .isFalse();
        assertThat(P256.isUsualKeyInfo(null)).isFalse();
    }

    @Test
    void isP256WhenOtherCurveOrRsaThenFalse() throws Exception {
        assertThat(P256.isP256(ec("secp384r1").getPublic())).isFalse();
        KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
        rsa.initialize(2048);
        assertThat(P256.isP256(rsa.generateKeyPair().getPublic())).isFalse();
    }

    @Test
    void isP256WhenAnyOneParameterDiffersThenFalse() {
        ECParameterSpec p = P256.PARAMS;
        EllipticCurve c = p.getCurve();
        BigInteger prime = ((ECFieldFp) c.getField()).getP();
        assertThat(P256.isP256(p)).isTrue();
        // same field prime, order and cofactor (all the old LSVID check compared), another b
        assertThat(P256.isP256(new ECParameterSpec(
                        new EllipticCurve(c.getField(), c.getA(), c.getB().add(BigInteger.ONE)),
                        p.getGenerator(),
                        p.getOrder(),
                        1)))
                .isFalse();
        assertThat(P256.isP256(new ECParameterSpec(
                        new EllipticCurve(c.getField(), c.getA().subtract(BigInteger.ONE), c.getB()),
                        p.getGenerator(),
                        p.getOrder(),
                        1)))
                .isFalse();
        assertThat(P256.isP256(new ECParameterSpec(
                        c,
                        new ECPoint(
                                p.getGenerator().getAffineX(),
                                prime.subtract(p.getGenerator().getAffineY())),
                        p.getOrder(),
                        1)))
                .isFalse();
        assertThat(P256.isP256(
                        new ECParameterSpec(c, p.getGenerator(), p.getOrder().add(BigInteger.TWO), 1)))
                .isFalse();
        assertThat(P256.isP256(new ECParameterSpec(c, p.getGenerator(), p.getOrder(), 2)))
                .isFalse();
        assertThat(P256.isP256((ECParameterSpec) null)).isFalse();
    }

    @Test
    void onCurveWhenGeneratorThenTrueAndWhenMovedOrOutOfFieldThenFalse() {
        ECPoint g = P256.PARAMS.getGenerator();
        assertThat(P256.onCurve(g.getAffineX(), g.getAffineY())).isTrue();
        assertThat(P256.onCurve(g.getAffineX(), g.getAffineY().add(BigInteger.ONE)))
                .isFalse();
        assertThat(P256.onCurve(g.getAffineX().add(P256.P), g.getAffineY())).isFalse();
        assertThat(P256.onCurve(BigInteger.ONE.negate(), g.getAffineY())).isFalse();
    }

    @Test
    void presenterHasKeyWhenSameKeyFromAnotherProviderThenTrueAndOtherKeyThenFalse() throws Exception {
        KeyPair kp = ec("secp256r1");
        Presenter presenter = new Presenter(SpiffeId.parse("spiffe://example.org/w"), kp.getPublic());
        ECPublicKey bc = (ECPublicKey) KeyFactory.getInstance("EC", new BouncyCastleProvider())
                .generatePublic(new X509EncodedKeySpec(kp.getPublic().getEncoded()));
        assertThat(presenter.hasKey(bc)).isTrue();
        assertThat(presenter.hasKey(ec("secp256r1").getPublic())).isFalse();
        assertThat(presenter.hasKey(null)).isFalse();
        assertThat(PublicKeys.same(kp.getPublic(), bc)).isTrue();
    }
}
