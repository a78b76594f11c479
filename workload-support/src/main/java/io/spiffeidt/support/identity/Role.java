package io.spiffeidt.support.identity;

import io.spiffeidt.core.Mode;
import java.util.Set;

/**
 * The four workloads of the call path (docs/formats/common.md "Roles and identities"). {@link
 * #workloadName()} is the module name, the default SPIFFE ID path and the {@code workload} metric
 * tag.
 *
 * <p>Thread safety: immutable.
 */
public enum Role {
    /** Front end; receives the user's OAuth token. */
    SUBJECT_WL("subject-wl", Set.of(Mode.ID_MODE, Mode.LSVID)),
    /** Mints documents; answers validate and introspect. */
    ASSERTING_WL("asserting-wl", Set.of(Mode.ID_MODE, Mode.LSVID)),
    /** Validates, extends, forwards. */
    M_TIER("m-tier", Set.of(Mode.ID_MODE, Mode.LSVID)),
    /** Final validation and the account database. */
    TARGET_WL("target-wl", Set.of());

    private final String workloadName;
    private final Set<Mode> signsWithSvid;

    Role(String workloadName, Set<Mode> signsWithSvid) {
        this.workloadName = workloadName;
        this.signsWithSvid = signsWithSvid;
    }

    /**
     * The modes in which this role signs with its own SVID key (an ID-Mode layer or root, an LSVID
     * base and layer), so which need an EC P-256 SVID ({@link SvidKeys}). The target workload only
     * verifies.
     */
    public Set<Mode> signsWithSvid() {
        return signsWithSvid;
    }

    /** The workload name: {@code subject-wl}, {@code asserting-wl}, {@code m-tier}, {@code target-wl}. */
    public String workloadName() {
        return workloadName;
    }

    /**
     * The role of a workload name.
     *
     * @throws IllegalArgumentException for an unknown name
     */
    public static Role fromWorkloadName(String name) {
        for (Role r : values()) {
            if (r.workloadName.equals(name)) {
                return r;
            }
        }
        throw new IllegalArgumentException("unknown workload " + name);
    }
}
