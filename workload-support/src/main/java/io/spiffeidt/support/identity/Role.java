package io.spiffeidt.support.identity;

/**
 * The four workloads of the call path (docs/formats/common.md "Roles and identities"). {@link
 * #workloadName()} is the module name, the default SPIFFE ID path and the {@code workload} metric
 * tag.
 *
 * <p>Thread safety: immutable.
 */
public enum Role {
    /** Front end; receives the user's OAuth token. */
    SUBJECT_WL("subject-wl"),
    /** Mints documents; answers validate and introspect. */
    ASSERTING_WL("asserting-wl"),
    /** Validates, extends, forwards. */
    M_TIER("m-tier"),
    /** Final validation and the account database. */
    TARGET_WL("target-wl");

    private final String workloadName;

    Role(String workloadName) {
        this.workloadName = workloadName;
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
