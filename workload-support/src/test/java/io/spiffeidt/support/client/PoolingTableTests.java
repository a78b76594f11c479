package io.spiffeidt.support.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.Mode;
import io.spiffeidt.support.identity.IdentityProperties;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.metrics.OperationMetrics;
import io.spiffeidt.support.testing.TestIdentities;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

class PoolingTableTests {

    private static ConnectionStrategy thesis(Role caller, Mode mode, Role downstream) {
        return PoolingTable.strategy(PoolingProfile.THESIS, Map.of(), caller, mode, downstream);
    }

    @ParameterizedTest
    @CsvSource({
        // docs/design.md Table 7: m-tier
        "M_TIER, DVID, ASSERTING_WL, POOLED",
        "M_TIER, DVID, TARGET_WL, POOLED",
        "M_TIER, ID_MODE, ASSERTING_WL, NON_POOLED_FRESH_SOURCE",
        "M_TIER, ID_MODE, TARGET_WL, POOLED",
        "M_TIER, ANON_MODE, ASSERTING_WL, NON_POOLED_FRESH_SOURCE",
        "M_TIER, ANON_MODE, TARGET_WL, NON_POOLED_FRESH_SOURCE",
        "M_TIER, LSVID, ASSERTING_WL, NON_POOLED_FRESH_SOURCE",
        "M_TIER, LSVID, TARGET_WL, POOLED",
        // docs/design.md Table 7: target-wl
        "TARGET_WL, DVID, ASSERTING_WL, NON_POOLED_FRESH_SOURCE",
        "TARGET_WL, ID_MODE, ASSERTING_WL, POOLED",
        "TARGET_WL, ANON_MODE, ASSERTING_WL, POOLED",
        "TARGET_WL, LSVID, ASSERTING_WL, NON_POOLED_FRESH_SOURCE",
    })
    void verifyWhenThesisProfileThenTable7(Role caller, Mode mode, Role downstream, ConnectionStrategy expected) {
        assertThat(thesis(caller, mode, downstream)).isEqualTo(expected);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void verifyWhenThesisProfileAndSubjectThenEverythingPooled(Mode mode) {
        for (Role downstream : Role.values()) {
            assertThat(thesis(Role.SUBJECT_WL, mode, downstream)).isEqualTo(ConnectionStrategy.POOLED);
        }
    }

    @Test
    void verifyWhenThesisProfileThenPooledCellsAreExactlyTable7AndSubject() {
        Set<String> pooled = new java.util.TreeSet<>();
        for (Role caller : EnumSet.of(Role.M_TIER, Role.TARGET_WL, Role.ASSERTING_WL)) {
            for (Mode mode : Mode.values()) {
                for (Role downstream : Role.values()) {
                    if (thesis(caller, mode, downstream) == ConnectionStrategy.POOLED) {
                        pooled.add(caller.workloadName() + ":" + PoolingTable.overrideKey(mode, downstream));
                    }
                }
            }
        }
        assertThat(pooled)
                .containsExactlyInAnyOrder(
                        "m-tier:dvid.asserting-wl",
                        "m-tier:dvid.target-wl",
                        "m-tier:id-mode.target-wl",
                        "m-tier:lsvid.target-wl",
                        "m-tier:mtls-only.target-wl",
                        "m-tier:bearer-forward.target-wl",
                        "target-wl:id-mode.asserting-wl",
                        "target-wl:anon-mode.asserting-wl",
                        // not in the thesis: the Txn-Token baseline is pooled as DVID is
                        "m-tier:txn-token.asserting-wl",
                        "m-tier:txn-token.target-wl",
                        // nor is wimse, which carries a Txn-Token too
                        "m-tier:wimse.asserting-wl",
                        "m-tier:wimse.target-wl");
    }

    @Test
    void verifyWhenCallerUnknownThenThesisPoolsNothing() {
        assertThat(thesis(null, Mode.DVID, Role.TARGET_WL)).isEqualTo(ConnectionStrategy.NON_POOLED_FRESH_SOURCE);
    }

    @ParameterizedTest
    @CsvSource({"POOLED, POOLED", "NON_POOLED, NON_POOLED", "FRESH_SOURCE, NON_POOLED_FRESH_SOURCE"})
    void verifyWhenUniformProfileThenEveryCellAndCallerSame(PoolingProfile profile, ConnectionStrategy expected) {
        for (Role caller : Role.values()) {
            for (Mode mode : Mode.values()) {
                for (Role downstream : Role.values()) {
                    assertThat(PoolingTable.strategy(profile, Map.of(), caller, mode, downstream))
                            .isEqualTo(expected);
                }
            }
        }
    }

    @Test
    void verifyWhenOverrideThenOnlyThatCellChanges() {
        Map<String, ConnectionStrategy> overrides = Map.of("dvid.asserting-wl", ConnectionStrategy.NON_POOLED);

        assertThat(PoolingTable.strategy(PoolingProfile.THESIS, overrides, Role.M_TIER, Mode.DVID, Role.ASSERTING_WL))
                .isEqualTo(ConnectionStrategy.NON_POOLED);
        assertThat(PoolingTable.strategy(PoolingProfile.THESIS, overrides, Role.M_TIER, Mode.DVID, Role.TARGET_WL))
                .isEqualTo(ConnectionStrategy.POOLED);
        assertThat(PoolingTable.strategy(
                        PoolingProfile.THESIS, overrides, Role.M_TIER, Mode.ID_MODE, Role.ASSERTING_WL))
                .isEqualTo(ConnectionStrategy.NON_POOLED_FRESH_SOURCE);
    }

    @Test
    void verifyWhenOverrideOnUniformProfileThenOverrideWins() {
        Map<String, ConnectionStrategy> overrides = Map.of("anon-mode.target-wl", ConnectionStrategy.POOLED);

        assertThat(PoolingTable.strategy(
                        PoolingProfile.FRESH_SOURCE, overrides, Role.M_TIER, Mode.ANON_MODE, Role.TARGET_WL))
                .isEqualTo(ConnectionStrategy.POOLED);
        assertThat(PoolingTable.strategy(
                        PoolingProfile.FRESH_SOURCE, overrides, Role.M_TIER, Mode.LSVID, Role.TARGET_WL))
                .isEqualTo(ConnectionStrategy.NON_POOLED_FRESH_SOURCE);
    }

    @Test
    void verifyWhenOverrideKeyThenModePathSegmentDotWorkloadName() {
        assertThat(PoolingTable.overrideKey(Mode.ID_MODE, Role.ASSERTING_WL)).isEqualTo("id-mode.asserting-wl");
    }

    @Test
    void verifyWhenDownstreamClientsAskedThenPropertiesDriveTheTable() {
        DownstreamClients clients = new DownstreamClients(
                IdentityProperties.defaults("example.org", Role.TARGET_WL),
                PoolingProperties.of(
                        PoolingProfile.THESIS, Map.of("anon-mode.asserting-wl", ConnectionStrategy.NON_POOLED), 4),
                TestIdentities.source(Role.TARGET_WL),
                () -> TestIdentities.source(Role.TARGET_WL),
                org.springframework.web.client.RestClient.builder(),
                new OperationMetrics(new io.micrometer.core.instrument.simple.SimpleMeterRegistry()));

        assertThat(clients.strategy(Mode.ID_MODE, Role.ASSERTING_WL)).isEqualTo(ConnectionStrategy.POOLED);
        assertThat(clients.strategy(Mode.ANON_MODE, Role.ASSERTING_WL)).isEqualTo(ConnectionStrategy.NON_POOLED);
        assertThat(clients.strategy(Mode.DVID, Role.ASSERTING_WL))
                .isEqualTo(ConnectionStrategy.NON_POOLED_FRESH_SOURCE);
        clients.close();
    }
}
