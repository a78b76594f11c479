package io.spiffeidt.asserting.wimse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The WIT issuer's key ({@code spiffeidt.wimse.issuer.key-path}): a shared P-256 file, or one made per start. */
class WitIssuerKeyTests {

    @TempDir
    Path dir;

    private final WimseAssertingConfiguration configuration = new WimseAssertingConfiguration();

    private WitIssuerKey key(Path path) {
        return configuration.witIssuerKey(new WitIssuerProperties(path));
    }

    private static KeyPair ec(String curve) throws Exception {
        KeyPairGenerator gen = KeyPairGenerator.getInstance("EC");
        gen.initialize(new ECGenParameterSpec(curve));
        return gen.generateKeyPair();
    }

    private Path pkcs8(String name, KeyPair pair) throws Exception {
        String pem = "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, new byte[] {'\n'})
                        .encodeToString(pair.getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n";
        return Files.writeString(dir.resolve(name), pem, StandardCharsets.US_ASCII);
    }

    @Test
    void keyWhenTwoReplicasReadOneFileThenTheyIssueUnderOneKey() throws Exception {
        KeyPair pair = ec("secp256r1");
        Path file = pkcs8("wit-issuer-key.pem", pair);

        assertThat(key(file).publicKey().getEncoded())
                .isEqualTo(pair.getPublic().getEncoded());
        assertThat(key(file).publicKey().getEncoded())
                .isEqualTo(pair.getPublic().getEncoded());
    }

    @Test
    void keyWhenNoFileConfiguredThenEachStartMakesItsOwn() {
        assertThat(key(null).publicKey().getEncoded())
                .isNotEqualTo(key(null).publicKey().getEncoded());
    }

    @Test
    void keyWhenOtherCurveThenRefusedAtStartNamingTheFileNeverTheKey() throws Exception {
        Path p384 = pkcs8("p384.pem", ec("secp384r1"));

        assertThatThrownBy(() -> key(p384))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(p384.toString())
                .hasMessageContaining("not an EC P-256 key")
                .hasMessageNotContaining("PRIVATE KEY");
        assertThat(key(null).toString()).doesNotContain("PRIVATE");
    }
}
