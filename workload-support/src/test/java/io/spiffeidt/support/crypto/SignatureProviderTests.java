package io.spiffeidt.support.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Security;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class SignatureProviderTests {

    private static KeyPair keys(String algorithm) throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance(algorithm);
        if (algorithm.equals("EC")) {
            generator.initialize(new ECGenParameterSpec("secp256r1"));
        } else {
            generator.initialize(2048);
        }
        return generator.generateKeyPair();
    }

    @Test
    void verifyWhenAutoThenAccpIfItLoadsElseBouncyCastle() {
        SignatureProvider provider = new SignatureProvider(CryptoProviderChoice.AUTO);

        if (SignatureProvider.accpAvailable()) {
            assertThat(provider.name()).isEqualTo("accp");
            assertThat(provider.provider().getName()).isEqualTo("AmazonCorrettoCryptoProvider");
        } else {
            assertThat(provider.name()).isEqualTo("bc");
            assertThat(provider.provider().getName()).isEqualTo("BC");
        }
    }

    @Test
    void verifyWhenOnThisLinuxX64MachineThenAccpLoads() {
        // the ACCP native library ships for linux-x86_64, which is what this build runs on
        assertThat(System.getProperty("os.arch")).isIn("amd64", "x86_64");
        assertThat(SignatureProvider.accpAvailable()).isTrue();
        assertThat(new SignatureProvider(CryptoProviderChoice.ACCP).name()).isEqualTo("accp");
    }

    @ParameterizedTest
    @EnumSource(CryptoProviderChoice.class)
    void verifyWhenEachChoiceThenEcdsaSignsAndVerifies(CryptoProviderChoice choice) throws Exception {
        SignatureProvider provider = new SignatureProvider(choice);
        KeyPair keys = keys("EC");
        byte[] message = "a SPIFFE-IdT layer".getBytes(StandardCharsets.UTF_8);

        Signature signer = provider.signature("SHA256withECDSA");
        signer.initSign(keys.getPrivate());
        signer.update(message);
        byte[] signature = signer.sign();

        Signature verifier = Signature.getInstance("SHA256withECDSA", provider.provider());
        verifier.initVerify(keys.getPublic());
        verifier.update(message);
        assertThat(verifier.verify(signature)).isTrue();

        Signature tampered = provider.signature("SHA256withECDSA");
        tampered.initVerify(keys.getPublic());
        tampered.update("another layer".getBytes(StandardCharsets.UTF_8));
        assertThat(tampered.verify(signature)).isFalse();
    }

    @ParameterizedTest
    @EnumSource(CryptoProviderChoice.class)
    void verifyWhenEachChoiceThenRsaSignsAndVerifies(CryptoProviderChoice choice) throws Exception {
        SignatureProvider provider = new SignatureProvider(choice);
        KeyPair keys = keys("RSA");
        byte[] message = "header.payload".getBytes(StandardCharsets.US_ASCII);

        Signature signer = provider.signature("SHA256withRSA");
        signer.initSign(keys.getPrivate());
        signer.update(message);
        byte[] signature = signer.sign();

        Signature verifier = provider.signature("SHA256withRSA");
        verifier.initVerify(keys.getPublic());
        verifier.update(message);
        assertThat(verifier.verify(signature)).isTrue();
    }

    @Test
    void verifyWhenSunThenJdkProvidersPerAlgorithm() {
        SignatureProvider provider = new SignatureProvider(CryptoProviderChoice.SUN);

        assertThat(provider.provider().getName()).isEqualTo("SunEC");
        assertThat(provider.signature("SHA256withECDSA").getProvider().getName())
                .isEqualTo("SunEC");
        assertThat(provider.signature("SHA256withRSA").getProvider().getName()).isEqualTo("SunRsaSign");
    }

    @Test
    void verifyWhenBouncyCastleThenNotRegisteredGlobally() {
        SignatureProvider provider = new SignatureProvider(CryptoProviderChoice.BC);

        assertThat(provider.provider().getName()).isEqualTo("BC");
        assertThat(provider.signature("SHA256withECDSA").getProvider()).isSameAs(provider.provider());
        assertThat(Security.getProvider("BC")).isNull();
        assertThat(Security.getProvider("AmazonCorrettoCryptoProvider")).isNull();
    }

    @Test
    void verifyWhenAlgorithmUnknownThenIllegalArgument() {
        SignatureProvider provider = new SignatureProvider(CryptoProviderChoice.BC);

        assertThatThrownBy(() -> provider.signature("SHA256withNothing"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("SHA256withNothing");
    }

    @Test
    void secureRandomWhenAccpThenItsDrbgElseTheJdkDefaultAndRsaFromAProviderThatHasIt() {
        SignatureProvider accp = new SignatureProvider(CryptoProviderChoice.ACCP);
        SignatureProvider sun = new SignatureProvider(CryptoProviderChoice.SUN);
        SignatureProvider bc = new SignatureProvider(CryptoProviderChoice.BC);

        assertThat(accp.secureRandom().getProvider()).isSameAs(accp.provider());
        assertThat(accp.secureRandom()).isNotSameAs(accp.secureRandom());
        assertThat(sun.secureRandom().getProvider().getName())
                .isNotEqualTo(accp.provider().getName());
        assertThat(bc.secureRandom().getProvider()).isNotSameAs(bc.provider());
        byte[] a = new byte[32];
        byte[] b = new byte[32];
        accp.secureRandom().nextBytes(a);
        accp.secureRandom().nextBytes(b);
        assertThat(a).isNotEqualTo(b);
        assertThat(accp.rsaProvider()).isSameAs(accp.provider());
        assertThat(sun.rsaProvider().getName()).isEqualTo("SunRsaSign");
    }
}
