package io.spiffeidt.core.idmode;

import static io.spiffeidt.core.idmode.IdModeWorld.ASSERTING;
import static io.spiffeidt.core.idmode.IdModeWorld.DPA;
import static io.spiffeidt.core.idmode.IdModeWorld.DPR;
import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.Limits;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.internal.Codec;
import io.spiffeidt.testkit.TestPki;
import java.math.BigInteger;
import java.security.spec.ECParameterSpec;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.ASN1Sequence;
import org.bouncycastle.asn1.DERSequence;
import org.junit.jupiter.api.Test;

/**
 * ECDSA signatures are malleable: {@code (r, s)} and {@code (r, n - s)} both verify. A holder can
 * therefore rewrite a valid ID-Mode root into a second valid text; the document keeps one identity
 * ({@link IdModeToken#rootId()}) that the rewrite cannot change.
 */
class IdModeMalleabilityTests {

    @Test
    void rootIdWhenRootSignatureMalleatedThenSameDocument() throws Exception {
        IdModePresentation root = new IdModeMinter(ASSERTING, IdModeWorld.time(), TestPki.BC)
                .mint(IdModeWorld.SUBJECT.spiffeId(), DPA, DPR, null);
        IdModePresentation malleated = new IdModePresentation(malleate(root.token()), root.artifacts());

        assertThat(malleated.token()).isNotEqualTo(root.token());
        // the rewritten text is itself a valid root: the store must not tell the two apart by text
        IdModeVerifier verifier = IdModeWorld.verifier(VerificationProfile.STRICT, TestPki.BC);
        assertThat(verifier.verify(malleated, IdModeWorld.SUBJECT.spiffeId(), IdModeWorld.presenter(ASSERTING))
                        .depth())
                .isEqualTo(1);
        assertThat(IdModeToken.parse(malleated.token(), Limits.defaults()).rootId())
                .isEqualTo(IdModeToken.parse(root.token(), Limits.defaults()).rootId());
    }

    @Test
    void rootIdWhenAnotherRootThenAnotherDocument() {
        IdModeMinter minter = new IdModeMinter(ASSERTING, IdModeWorld.time(), TestPki.BC);
        String alice =
                minter.mint(IdModeWorld.SUBJECT.spiffeId(), DPA, DPR, null).token();
        String bob = minter.mint(IdModeWorld.SUBJECT.spiffeId(), DPA, "bob@example.test", null)
                .token();

        assertThat(IdModeToken.parse(alice, Limits.defaults()).rootId())
                .isNotEqualTo(IdModeToken.parse(bob, Limits.defaults()).rootId());
    }

    /** {@code P(0).S(0)} with the DER signature's {@code s} replaced by {@code n - s}. */
    private static String malleate(String root) throws Exception {
        int dot = root.indexOf('.');
        ASN1Sequence der = ASN1Sequence.getInstance(Codec.fromB64url(root.substring(dot + 1)));
        BigInteger r = ASN1Integer.getInstance(der.getObjectAt(0)).getValue();
        BigInteger s = ASN1Integer.getInstance(der.getObjectAt(1)).getValue();
        java.security.interfaces.ECPublicKey key =
                (java.security.interfaces.ECPublicKey) ASSERTING.leaf().getPublicKey();
        ECParameterSpec curve = key.getParams();
        BigInteger other = curve.getOrder().subtract(s);
        byte[] encoded = new DERSequence(new ASN1Integer[] {new ASN1Integer(r), new ASN1Integer(other)}).getEncoded();
        return root.substring(0, dot + 1) + Codec.b64url(encoded);
    }
}
