package io.spiffeidt.support.client;

import io.spiffeidt.core.Mode;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.identity.UnknownKeyException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Which {@link ConnectionStrategy} a caller uses for one (mode, downstream) cell (docs/design.md
 * "Connections": the thesis' Table 7 and the profiles), before and after per-downstream overrides.
 *
 * <p>Thread safety: stateless.
 */
public final class PoolingTable {

    /** The property of the per-downstream overrides. */
    public static final String OVERRIDES_PROPERTY = "spiffeidt.pooling.overrides";

    private PoolingTable() {}

    /**
     * The strategy of one cell.
     *
     * @param profile the configured profile
     * @param overrides overrides keyed {@code <mode>.<downstream>} (e.g. {@code dvid.asserting-wl})
     * @param caller this workload, or {@code null} when unknown
     * @param mode the mode of the call
     * @param downstream the workload called
     */
    public static ConnectionStrategy strategy(
            PoolingProfile profile,
            Map<String, ConnectionStrategy> overrides,
            Role caller,
            Mode mode,
            Role downstream) {
        ConnectionStrategy override = overrides.get(overrideKey(mode, downstream));
        if (override != null) {
            return override;
        }
        return switch (profile) {
            case THESIS ->
                thesis(caller, mode, downstream)
                        ? ConnectionStrategy.POOLED
                        : ConnectionStrategy.NON_POOLED_FRESH_SOURCE;
            case POOLED -> ConnectionStrategy.POOLED;
            case NON_POOLED -> ConnectionStrategy.NON_POOLED;
            case FRESH_SOURCE -> ConnectionStrategy.NON_POOLED_FRESH_SOURCE;
        };
    }

    /** The override key of a cell: {@code <mode path segment>.<downstream workload name>}. */
    public static String overrideKey(Mode mode, Role downstream) {
        return mode.pathSegment() + "." + downstream.workloadName();
    }

    /**
     * The override key a configured key means: {@code <mode>.<downstream>} with the mode's path
     * segment and the workload name, whatever the case and hyphens, so that an environment variable
     * ({@code SPIFFEIDT_POOLING_OVERRIDES_IDMODE_ASSERTINGWL} binds {@code idmode.assertingwl}) keys
     * the same cell as YAML ({@code id-mode.asserting-wl}).
     *
     * @throws UnknownKeyException when the key names no mode and workload
     */
    public static String canonicalOverrideKey(String key) {
        String[] parts = key.split("\\.", -1);
        if (parts.length == 2) {
            for (Mode mode : Mode.values()) {
                for (Role downstream : Role.values()) {
                    if (loose(mode.pathSegment()).equals(loose(parts[0]))
                            && loose(downstream.workloadName()).equals(loose(parts[1]))) {
                        return overrideKey(mode, downstream);
                    }
                }
            }
        }
        List<String> accepted = new ArrayList<>();
        for (Mode mode : Mode.values()) {
            for (Role downstream : Role.values()) {
                accepted.add(overrideKey(mode, downstream));
            }
        }
        throw new UnknownKeyException(OVERRIDES_PROPERTY, key, accepted);
    }

    private static String loose(String name) {
        return name.replace("-", "").replace("_", "").toLowerCase(Locale.ROOT);
    }

    /** Whether the thesis pooled this cell (Table 7; subject-wl pools everything). */
    public static boolean thesis(Role caller, Mode mode, Role downstream) {
        if (caller == null) {
            return false;
        }
        return switch (caller) {
            case SUBJECT_WL -> true;
            case M_TIER ->
                switch (mode) {
                    // txn-token is not in the thesis: pooled as its nearest kin, DVID (a JWT the m-tier takes to
                    // asserting)
                    case DVID, TXN_TOKEN, WIMSE -> downstream == Role.ASSERTING_WL || downstream == Role.TARGET_WL;
                    case ID_MODE, LSVID -> downstream == Role.TARGET_WL;
                    case ANON_MODE -> false;
                    // the baselines are not in the thesis: pooled as the document modes' target call
                    case MTLS_ONLY, BEARER_FORWARD -> downstream == Role.TARGET_WL;
                };
            case TARGET_WL ->
                switch (mode) {
                    case ID_MODE, ANON_MODE -> downstream == Role.ASSERTING_WL;
                    case DVID, LSVID, TXN_TOKEN, MTLS_ONLY, BEARER_FORWARD, WIMSE -> false;
                };
            case ASSERTING_WL -> false;
        };
    }
}
