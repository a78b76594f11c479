package io.spiffeidt.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.Security;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.junit.jupiter.api.Test;

/** A key translated once for its signing provider signs exactly like the original key. */
class ProviderKeysTests {

    private static void signsVerifiably(KeyPair kp, String alg, Provider provider) throws Exception {
        PrivateKey translated = ProviderKeys.forSigning(kp.getPrivate(), provider);
        byte[] data = "signing input".getBytes(StandardCharsets.US_ASCII);
        Signature s = Signature.getInstance(alg, provider);
        s.initSign(translated);
        s.update(data);
        byte[] sig = s.sign();
        Signature v = Signature.getInstance(alg);
        v.initVerify(kp.getPublic());
        v.update(data);
        assertThat(v.verify(sig)).as(provider.getName()).isTrue();
        data[0] ^= 1;
        v.initVerify(kp.getPublic());
        v.update(data);
        assertThat(v.verify(sig)).as(provider.getName()).isFalse();
    }

    @Test
    void forSigningWhenRsaAndEcWithSunBcAndAccpThenSignaturesVerifyWithTheOriginalPublicKey() throws Exception {
        KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
        rsa.initialize(2048);
        KeyPair rsaPair = rsa.generateKeyPair();
        KeyPairGenerator ec = KeyPairGenerator.getInstance("EC");
        ec.initialize(new ECGenParameterSpec("secp256r1"));
        KeyPair ecPair = ec.generateKeyPair();
        Provider[] providers = {
            Security.getProvider("SunRsaSign"), new BouncyCastleProvider(), AmazonCorrettoCryptoProvider.INSTANCE
        };
        for (Provider p : providers) {
            signsVerifiably(rsaPair, "SHA256withRSA", p);
        }
        for (Provider p : new Provider[] {Security.getProvider("SunEC"), providers[1], providers[2]}) {
            signsVerifiably(ecPair, "SHA256withECDSA", p);
        }
    }

    @Test
    void forSigningWhenProviderHasNoKeyFactoryThenTheKeyItself() throws Exception {
        KeyPairGenerator ec = KeyPairGenerator.getInstance("EC");
        ec.initialize(new ECGenParameterSpec("secp256r1"));
        PrivateKey key = ec.generateKeyPair().getPrivate();
        assertThat(ProviderKeys.forSigning(key, Security.getProvider("SunJCE"))).isSameAs(key);
        assertThat(ProviderKeys.forSigning(key, null)).isSameAs(key);
    }
}
