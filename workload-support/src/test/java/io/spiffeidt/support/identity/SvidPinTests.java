package io.spiffeidt.support.identity;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffe.svid.x509svid.X509Svid;
import io.spiffeidt.support.testing.StaticX509Source;
import io.spiffeidt.support.testing.TestIdentities;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class SvidPinTests {

    private final StaticX509Source source = TestIdentities.source(Role.M_TIER);

    private void rotate(StaticX509Source s) {
        s.rotate(TestIdentities.PKI.issue(TestIdentities.id(Role.M_TIER)));
    }

    @Test
    void svidWhenNoScopeThenEveryReadIsLive() {
        X509Svid before = SvidPin.svid(source);
        rotate(source);

        assertThat(SvidPin.svid(source)).isSameAs(source.getX509Svid()).isNotSameAs(before);
        assertThat(SvidPin.pinned(source)).isEmpty();
    }

    @Test
    void svidWhenScopeOpenThenFirstReadHoldsUntilTheScopeEnds() {
        X509Svid first;
        try (SvidPin.Scope scope = SvidPin.open()) {
            first = SvidPin.svid(source);
            rotate(source);

            assertThat(SvidPin.svid(source)).isSameAs(first);
            assertThat(SvidPin.pinned(source)).containsSame(first);
        }
        assertThat(SvidPin.svid(source)).isSameAs(source.getX509Svid()).isNotSameAs(first);
    }

    @Test
    void pinnedWhenScopeOpenAndNothingReadYetThenPinsNow() {
        try (SvidPin.Scope scope = SvidPin.open()) {
            X509Svid pinned = SvidPin.pinned(source).orElseThrow();
            rotate(source);

            assertThat(SvidPin.svid(source)).isSameAs(pinned);
        }
    }

    @Test
    void openWhenNestedThenInnerEndLeavesTheOuterPin() {
        try (SvidPin.Scope outer = SvidPin.open()) {
            X509Svid first = SvidPin.svid(source);
            try (SvidPin.Scope inner = SvidPin.open()) {
                rotate(source);
                assertThat(SvidPin.svid(source)).isSameAs(first);
            }
            assertThat(SvidPin.svid(source)).isSameAs(first);
        }
    }

    @Test
    void svidWhenAnotherSourceInTheScopeThenThatOneIsLive() {
        StaticX509Source other = TestIdentities.source(Role.TARGET_WL);
        try (SvidPin.Scope scope = SvidPin.open()) {
            X509Svid mine = SvidPin.svid(source);
            rotate(other);

            assertThat(SvidPin.svid(other)).isSameAs(other.getX509Svid());
            assertThat(SvidPin.pinned(other)).isEmpty();
            assertThat(SvidPin.svid(source)).isSameAs(mine);
        }
    }

    @Test
    void svidWhenScopeOnAnotherThreadThenThisThreadIsLive() throws Exception {
        try (SvidPin.Scope scope = SvidPin.open()) {
            X509Svid mine = SvidPin.svid(source);
            rotate(source);

            X509Svid elsewhere =
                    CompletableFuture.supplyAsync(() -> SvidPin.svid(source)).get();
            assertThat(elsewhere).isSameAs(source.getX509Svid()).isNotSameAs(mine);
        }
    }
}
