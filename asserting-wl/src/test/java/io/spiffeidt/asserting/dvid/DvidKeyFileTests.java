package io.spiffeidt.asserting.dvid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.interfaces.RSAPrivateKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DvidKeyFileTests {

    @TempDir
    Path dir;

    @Test
    void ensureWhenAbsentThenAnRsaKeyTheWorkloadLoadsReadableByItsOwnerOnly() throws Exception {
        Path file = dir.resolve("dvid-key.pem");
        int uid = (Integer) Files.getAttribute(dir, "unix:uid");
        int gid = (Integer) Files.getAttribute(dir, "unix:gid");

        DvidKeyFile.Outcome outcome = new DvidKeyFile(file, uid, gid).ensure();

        assertThat(outcome).isEqualTo(DvidKeyFile.Outcome.CREATED);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("r--------");
        assertThat(Files.getAttribute(file, "unix:uid")).isEqualTo(uid);
        DvidSigningKey key = DvidSigningKey.loadOrGenerate(file);
        assertThat(key.generated()).isFalse();
        assertThat(key.privateKey()).isInstanceOf(RSAPrivateKey.class);
        assertThat(((RSAPrivateKey) key.privateKey()).getModulus().bitLength()).isEqualTo(2048);
        try (var files = Files.list(dir)) {
            assertThat(files).as("no temporary file left").containsExactly(file);
        }
    }

    @Test
    void ensureWhenRunAgainThenTheFirstKeyStays() throws Exception {
        Path file = dir.resolve("dvid-key.pem");
        new DvidKeyFile(file, null, null).ensure();
        String first = Files.readString(file);

        DvidKeyFile.Outcome again = new DvidKeyFile(file, null, null).ensure();

        assertThat(again).isEqualTo(DvidKeyFile.Outcome.EXISTED);
        assertThat(Files.readString(file)).isEqualTo(first);
    }

    @Test
    void ensureWhenFileHoldsSomethingElseThenLeftAlone() throws Exception {
        Path file = dir.resolve("dvid-key.pem");
        Files.writeString(file, "not a key");

        assertThat(new DvidKeyFile(file, null, null).ensure()).isEqualTo(DvidKeyFile.Outcome.EXISTED);
        assertThat(Files.readString(file)).isEqualTo("not a key");
    }

    @Test
    void ensureWhenDirectoryMissingThenFailsAndWritesNothing() {
        Path file = dir.resolve("missing").resolve("dvid-key.pem");

        assertThatThrownBy(() -> new DvidKeyFile(file, null, null).ensure())
                .isInstanceOf(NoSuchFileException.class)
                .hasMessageContaining(dir.resolve("missing").toString())
                .hasMessageContaining("no such directory");
        assertThat(file).doesNotExist();
    }
}
