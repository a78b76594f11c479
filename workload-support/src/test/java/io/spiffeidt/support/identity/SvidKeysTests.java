package io.spiffeidt.support.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spiffe.svid.x509svid.X509Svid;
import io.spiffeidt.core.Mode;
import io.spiffeidt.support.testing.StaticX509Source;
import io.spiffeidt.support.testing.TestIdentities;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

@ExtendWith(OutputCaptureExtension.class)
class SvidKeysTests {

    private static KeyPair ec(String curve) throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec(curve));
        return generator.generateKeyPair();
    }

    private static KeyPair rsa() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        return generator.generateKeyPair();
    }

    @Test
    void isP256WhenP256KeysThenTrueAndOtherCurvesOrRsaFalse() throws Exception {
        KeyPair p256 = ec("secp256r1");
        KeyPair p384 = ec("secp384r1");
        KeyPair rsa = rsa();

        assertThat(SvidKeys.isP256(p256.getPrivate())).isTrue();
        assertThat(SvidKeys.isP256(p256.getPublic())).isTrue();
        assertThat(SvidKeys.isP256(p384.getPrivate())).isFalse();
        assertThat(SvidKeys.isP256(rsa.getPrivate())).isFalse();
        assertThat(SvidKeys.isP256(null)).isFalse();
    }

    @Test
    void describeWhenKeysThenTypeAndSizeOnly() throws Exception {
        KeyPair rsa = rsa();

        assertThat(SvidKeys.describe(ec("secp256r1").getPrivate())).isEqualTo("EC P-256");
        assertThat(SvidKeys.describe(ec("secp384r1").getPrivate())).isEqualTo("EC 384-bit");
        assertThat(SvidKeys.describe(rsa.getPrivate())).isEqualTo("RSA 2048-bit");
        assertThat(SvidKeys.describe(null)).isEqualTo("no key");
    }

    @Test
    void signingSvidWhenRsaSvidThenSvidKeyUnsupportedNamingModeAndKeyType() {
        X509Svid rsaSvid = TestIdentities.PKI.issueRsa(TestIdentities.id(Role.M_TIER));
        StaticX509Source source = new StaticX509Source(rsaSvid, TestIdentities.PKI.bundle());
        WorkloadIdentity identity =
                new WorkloadIdentity(source, IdentityProperties.defaults("example.org", Role.M_TIER));

        assertThatThrownBy(() -> identity.signingSvid(Mode.ID_MODE))
                .isInstanceOfSatisfying(SvidKeyUnsupportedException.class, e -> assertThat(e.mode())
                        .isEqualTo(Mode.ID_MODE))
                .hasMessageContaining("RSA 2048-bit")
                .hasMessageContaining("id-mode")
                .hasMessageContaining("EC P-256");
    }

    @Test
    void signingSvidWhenSvidRotatesFromRsaToP256ThenServedAgain() {
        StaticX509Source source = new StaticX509Source(
                TestIdentities.PKI.issueRsa(TestIdentities.id(Role.M_TIER)), TestIdentities.PKI.bundle());
        WorkloadIdentity identity =
                new WorkloadIdentity(source, IdentityProperties.defaults("example.org", Role.M_TIER));
        assertThatThrownBy(() -> identity.signingSvid(Mode.LSVID)).isInstanceOf(SvidKeyUnsupportedException.class);

        X509Svid ec = TestIdentities.PKI.issue(TestIdentities.id(Role.M_TIER));
        source.rotate(ec);

        assertThat(identity.signingSvid(Mode.LSVID)).isSameAs(ec);
    }

    @Test
    void logUnservedModesWhenRsaKeyAtSigningRoleThenOneLineNamingUnservedAndServedModes(CapturedOutput output)
            throws Exception {
        IdentityAutoConfiguration.logUnservedModes(Role.M_TIER, rsa().getPrivate());

        assertThat(output.getOut().lines().filter(l -> l.contains("SVID key is")))
                .singleElement()
                .asString()
                .contains("RSA 2048-bit")
                .contains("m-tier cannot serve id-mode, lsvid")
                .contains("it serves dvid, anon-mode");
    }

    @Test
    void logUnservedModesWhenP256KeyOrVerifyingOnlyRoleThenSilent(CapturedOutput output) throws Exception {
        IdentityAutoConfiguration.logUnservedModes(Role.M_TIER, ec("secp256r1").getPrivate());
        IdentityAutoConfiguration.logUnservedModes(Role.TARGET_WL, rsa().getPrivate());

        assertThat(output.getOut()).doesNotContain("SVID key is");
    }
}
