package io.spiffeidt.idp.token;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPublicKey;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SigningKeysTests {

    @TempDir
    Path dir;

    @Test
    void verifyWhenGeneratedThenRsa2048PrivateJwkWithThumbprintKid() throws Exception {
        RSAKey key = SigningKeys.generate();

        assertThat(key.isPrivate()).isTrue();
        assertThat(key.size()).isEqualTo(2048);
        assertThat(key.getAlgorithm()).isEqualTo(JWSAlgorithm.RS256);
        assertThat(key.getKeyUse()).isEqualTo(KeyUse.SIGNATURE);
        assertThat(key.getKeyID())
                .isEqualTo(key.toPublicJWK().computeThumbprint().toString());
    }

    @Test
    void verifyWhenGeneratedTwiceThenDifferentKeys() {
        assertThat(SigningKeys.generate().getKeyID())
                .isNotEqualTo(SigningKeys.generate().getKeyID());
    }

    @Test
    void verifyWhenPkcs8PemLoadedThenSameKeyAndStableKid() throws Exception {
        KeyPair pair = rsa(2048);
        Path file = write("key.pem", pem("PRIVATE KEY", pair.getPrivate().getEncoded()));

        RSAKey first = SigningKeys.load(file);
        RSAKey second = SigningKeys.load(file);

        assertThat(first.toRSAPublicKey()).isEqualTo(pair.getPublic());
        assertThat(first.toRSAPrivateKey().getEncoded())
                .isEqualTo(pair.getPrivate().getEncoded());
        assertThat(first.getKeyID())
                .isEqualTo(new RSAKey.Builder((RSAPublicKey) pair.getPublic())
                        .build()
                        .computeThumbprint()
                        .toString())
                .isEqualTo(second.getKeyID());
    }

    @Test
    void verifyWhenPemHasOtherBlocksFirstThenThePrivateKeyIsFound() throws Exception {
        KeyPair pair = rsa(2048);
        String text = pem("PUBLIC KEY", pair.getPublic().getEncoded()) + "some comment\n"
                + pem("PRIVATE KEY", pair.getPrivate().getEncoded());

        RSAKey key = SigningKeys.load(write("mixed.pem", text));

        assertThat(key.toRSAPublicKey()).isEqualTo(pair.getPublic());
    }

    @Test
    void verifyWhenPkcs1PemThenRejectedWithAHint() throws Exception {
        Path file =
                write("pkcs1.pem", pem("RSA PRIVATE KEY", rsa(2048).getPrivate().getEncoded()));

        assertThatThrownBy(() -> SigningKeys.load(file))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("PKCS#8")
                .hasMessageContaining(file.toString());
    }

    @Test
    void verifyWhenRsaKeyTooSmallThenRejected() throws Exception {
        Path file = write("small.pem", pem("PRIVATE KEY", rsa(1024).getPrivate().getEncoded()));

        assertThatThrownBy(() -> SigningKeys.load(file))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("2048");
    }

    @Test
    void verifyWhenEcKeyThenRejectedWithoutShowingTheKey() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(256);
        String body = Base64.getEncoder()
                .encodeToString(generator.generateKeyPair().getPrivate().getEncoded());
        Path file = write("ec.pem", pem("PRIVATE KEY", Base64.getDecoder().decode(body)));

        assertThatThrownBy(() -> SigningKeys.load(file))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no usable RSA private key")
                .hasMessageNotContaining(body.substring(0, 40));
    }

    @Test
    void verifyWhenBodyIsNotDerThenRejected() throws Exception {
        Path file = write("garbage.pem", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n");

        assertThatThrownBy(() -> SigningKeys.load(file))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no usable RSA private key");
    }

    @Test
    void verifyWhenFileMissingThenRejectedNamingTheFile() {
        Path missing = dir.resolve("absent.pem");

        assertThatThrownBy(() -> SigningKeys.load(missing))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(missing.toString());
    }

    private Path write(String name, String text) throws Exception {
        return Files.writeString(dir.resolve(name), text, StandardCharsets.US_ASCII);
    }

    static KeyPair rsa(int bits) throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(bits);
        return generator.generateKeyPair();
    }

    static String pem(String label, byte[] der) {
        return "-----BEGIN " + label + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                        .encodeToString(der)
                + "\n-----END " + label + "-----\n";
    }
}
