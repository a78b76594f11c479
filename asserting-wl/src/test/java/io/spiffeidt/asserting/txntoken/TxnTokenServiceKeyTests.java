package io.spiffeidt.asserting.txntoken;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.ECPrivateKey;
import java.security.spec.ECGenParameterSpec;
import java.util.Base64;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TxnTokenServiceKeyTests {

    @TempDir
    Path dir;

    private final TxnTokenAssertingConfiguration configuration = new TxnTokenAssertingConfiguration();

    private TxnTokenServiceKey key(Path path) {
        return configuration.txnTokenServiceKey(new TxnTokenServiceProperties(path));
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
    void keyWhenTwoReplicasReadOneFileThenTheySignWithOneKey() throws Exception {
        KeyPair pair = ec("secp256r1");
        Path file = pkcs8("txn-token-key.pem", pair);

        TxnTokenServiceKey first = key(file);
        TxnTokenServiceKey second = key(file);

        assertThat(first.publicKey().getEncoded()).isEqualTo(pair.getPublic().getEncoded());
        assertThat(second.publicKey().getEncoded()).isEqualTo(first.publicKey().getEncoded());
        assertThat(((ECPrivateKey) second.privateKey()).getS()).isEqualTo(((ECPrivateKey) pair.getPrivate()).getS());
    }

    @Test
    void keyWhenSec1PemThenReadWithItsPublicHalf() throws Exception {
        KeyPairGenerator gen = KeyPairGenerator.getInstance("EC", new BouncyCastleProvider());
        gen.initialize(new ECGenParameterSpec("secp256r1"));
        KeyPair pair = gen.generateKeyPair();
        StringWriter out = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
            writer.writeObject(pair); // EC PRIVATE KEY (SEC 1), as openssl ecparam -genkey writes
        }
        Path file = Files.writeString(dir.resolve("sec1.pem"), out.toString());
        assertThat(out.toString()).startsWith("-----BEGIN EC PRIVATE KEY-----");

        assertThat(key(file).publicKey().getEncoded())
                .isEqualTo(pair.getPublic().getEncoded());
    }

    @Test
    void keyWhenNoFileConfiguredThenEachStartMakesItsOwn() {
        assertThat(key(null).publicKey().getEncoded())
                .isNotEqualTo(key(null).publicKey().getEncoded());
    }

    @Test
    void keyWhenRsaOrOtherCurveThenRefusedAtStartNamingTheFileOnly() throws Exception {
        KeyPairGenerator rsaGen = KeyPairGenerator.getInstance("RSA");
        rsaGen.initialize(2048);
        Path rsa = pkcs8("rsa.pem", rsaGen.generateKeyPair());
        Path p384 = pkcs8("p384.pem", ec("secp384r1"));

        assertThatThrownBy(() -> key(rsa))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(rsa.toString())
                .hasMessageContaining("not an EC P-256 key")
                .hasMessageNotContaining("PRIVATE KEY");
        assertThatThrownBy(() -> key(p384)).hasMessageContaining("not an EC P-256 key");
    }

    @Test
    void keyWhenFileMissingOrNotAKeyThenRefusedAtStart() throws Exception {
        Path garbage = Files.writeString(dir.resolve("garbage.pem"), "not a key\n");

        assertThatThrownBy(() -> key(dir.resolve("missing.pem")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("cannot read the Txn-Token Service key file");
        assertThatThrownBy(() -> key(garbage))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("holds no private key");
    }
}
