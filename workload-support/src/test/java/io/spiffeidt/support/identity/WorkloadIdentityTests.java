package io.spiffeidt.support.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spiffe.svid.x509svid.X509Svid;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TrustBundle;
import io.spiffeidt.support.testing.StaticX509Source;
import io.spiffeidt.support.testing.TestIdentities;
import org.junit.jupiter.api.Test;

class WorkloadIdentityTests {

    private final StaticX509Source source = TestIdentities.source(Role.M_TIER);
    private final WorkloadIdentity identity =
            new WorkloadIdentity(source, IdentityProperties.defaults("example.org", Role.M_TIER));

    @Test
    void verifyWhenAskedThenConfiguredIds() {
        assertThat(identity.self()).isEqualTo(SpiffeId.parse("spiffe://example.org/m-tier"));
        assertThat(identity.idOf(Role.TARGET_WL)).isEqualTo(SpiffeId.parse("spiffe://example.org/target-wl"));
        assertThat(identity.svidId()).isEqualTo(identity.self());
    }

    @Test
    void verifyWhenAskedThenCurrentSvidKeyChainAndBundleThatValidate() {
        TrustBundle bundle = identity.bundle();

        assertThat(bundle.trustDomain()).isEqualTo("example.org");
        assertThat(bundle.roots()).containsExactly(TestIdentities.PKI.caCertificate());
        assertThat(identity.chain())
                .containsExactlyElementsOf(source.getX509Svid().getChain());
        assertThat(identity.signingKey()).isEqualTo(source.getX509Svid().getPrivateKey());
        assertThat(SpiffeId.fromX509Svid(identity.chain().get(0))).isEqualTo(identity.self());
        assertThatCode(() -> identity.chain()
                        .get(identity.chain().size() - 1)
                        .verify(bundle.roots().get(0).getPublicKey()))
                .doesNotThrowAnyException();
    }

    @Test
    void verifyWhenSvidRotatesThenIdentitySeesTheNewOne() {
        X509Svid before = identity.svid();
        X509Svid next = TestIdentities.PKI.issue(TestIdentities.id(Role.M_TIER));

        source.rotate(next);

        assertThat(identity.svid()).isSameAs(next).isNotSameAs(before);
        assertThat(identity.chain().get(0)).isEqualTo(next.getLeaf());
        assertThat(identity.signingKey()).isEqualTo(next.getPrivateKey());
    }

    @Test
    void verifyWhenBundleOfTrustDomainMissingThenIllegalState() {
        WorkloadIdentity elsewhere =
                new WorkloadIdentity(source, IdentityProperties.defaults("other.org", Role.M_TIER));

        assertThatThrownBy(elsewhere::bundle)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("other.org");
    }
}
