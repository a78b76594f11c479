package io.spiffeidt.support.lsvid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.spec.ECGenParameterSpec;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LsvidV1IssuerKeysTests {

    @TempDir
    Path dir;

    @Test
    void loadWhenP256PemFilesThenKeysInOrder() throws Exception {
        PublicKey first = ecKey("secp256r1");
        PublicKey second = ecKey("secp256r1");
        Path a = write("a.pem", "comment before the block\n" + pem(first));
        Path b = write("b.pem", pem(second));

        LsvidV1IssuerKeys keys = LsvidV1IssuerKeys.load(List.of(a, b));

        assertThat(keys.keys())
                .extracting(PublicKey::getEncoded)
                .containsExactly(first.getEncoded(), second.getEncoded());
    }

    @Test
    void loadWhenNoFilesThenNoKeys() {
        assertThat(LsvidV1IssuerKeys.load(List.of()).keys()).isEmpty();
        assertThat(LsvidV1IssuerKeys.none().keys()).isEmpty();
    }

    @Test
    void loadWhenFileMissingThenFailsNamingIndexAndPath() {
        Path missing = dir.resolve("missing.pem");

        assertThatThrownBy(() -> LsvidV1IssuerKeys.load(List.of(missing)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("lsvid-v1-issuer-keys[0]")
                .hasMessageContaining(missing.toString())
                .hasMessageContaining("cannot be read");
    }

    @Test
    void loadWhenNotAUsableP256KeyThenFailsWithoutEchoingTheContent() throws Exception {
        String p256 = pem(ecKey("secp256r1"));
        KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
        rsa.initialize(2048);
        List<String[]> cases = List.of(
                new String[] {"no block", "just text, no key"},
                new String[] {"two blocks", p256 + p256},
                new String[] {"garbage", "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n"},
                new String[] {"bad base64", "-----BEGIN PUBLIC KEY-----\nA=A=\n-----END PUBLIC KEY-----\n"},
                new String[] {"rsa", pem(rsa.generateKeyPair().getPublic())},
                new String[] {"p384", pem(ecKey("secp384r1"))});
        for (String[] c : cases) {
            Path file = write(c[0].replace(' ', '-') + ".pem", c[1]);
            assertThatThrownBy(() -> LsvidV1IssuerKeys.load(List.of(file)))
                    .as(c[0])
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(file.toString())
                    .hasMessageNotContaining("AAAA")
                    .hasMessageNotContaining(c[1].length() > 60 ? c[1].substring(30, 60) : "\u0000");
        }
    }

    private Path write(String name, String content) throws Exception {
        return Files.writeString(dir.resolve(name), content);
    }

    private static PublicKey ecKey(String curve) throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec(curve));
        KeyPair pair = generator.generateKeyPair();
        return pair.getPublic();
    }

    private static String pem(PublicKey key) {
        return "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(key.getEncoded())
                + "\n-----END PUBLIC KEY-----\n";
    }
}
