package io.spiffeidt.perf.report;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * What one mode proves to the target and what a compromised middle tier can do with it, written once
 * per mode in the resource {@code modes.properties} (the qualitative columns of the comparison table,
 * docs/comparison.md), and which JMH benchmarks are its mint, extension and verification.
 *
 * @param mode the mode's path segment
 * @param carries what travels between the tiers besides SPIFFE mTLS
 * @param user whether the target learns the user, and on whose word
 * @param issuer whether the target learns the user's IdP
 * @param path whether the target learns the path of workloads
 * @param token whether the target can check that the original OAuth token was valid
 * @param call whether the target needs a call to another workload to verify
 * @param forgeUser whether a compromised m-tier can act as a user whose request it never saw
 * @param forgePath whether a compromised m-tier can make the target believe in another path
 * @param replay whether a compromised m-tier can use what it received elsewhere
 * @param jmhMint the benchmarks of one mint ({@code Benchmark[@depth][ xN]}, comma separated; {@code
 *     none})
 * @param jmhExtend the benchmarks of one extension
 * @param jmhVerify the benchmarks of one verification at the target
 */
record ModeProfile(
        String mode,
        String carries,
        String user,
        String issuer,
        String path,
        String token,
        String call,
        String forgeUser,
        String forgePath,
        String replay,
        String jmhMint,
        String jmhExtend,
        String jmhVerify) {

    /** The fields of a mode in the resource, in the record's order (after {@code mode}). */
    static final List<String> FIELDS = List.of(
            "carries",
            "user",
            "issuer",
            "path",
            "token",
            "call",
            "forge-user",
            "forge-path",
            "replay",
            "jmh.mint",
            "jmh.extend",
            "jmh.verify");

    /** A mode without a profile: every cell says so. */
    static ModeProfile unknown(String mode) {
        String none = "– (no profile)";
        return new ModeProfile(mode, none, none, none, none, none, none, none, none, none, "none", "none", "none");
    }

    /** Every profile of {@code modes.properties}, by mode, in the file's order of modes. */
    static Map<String, ModeProfile> load() {
        return parse(Report.resourceProperties("modes.properties"), Report.resourceText("modes.properties"));
    }

    /**
     * The profiles of {@code properties}; {@code text} (the same file) gives the order of the modes.
     *
     * @throws IllegalArgumentException when a mode lacks a field or names an unknown one
     */
    static Map<String, ModeProfile> parse(Properties properties, String text) {
        Map<String, ModeProfile> out = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            String l = line.trim();
            int dot = l.indexOf('.');
            if (l.isEmpty() || l.startsWith("#") || dot < 0) {
                continue;
            }
            String mode = l.substring(0, dot);
            if (!out.containsKey(mode)) {
                out.put(mode, of(mode, properties));
            }
        }
        for (String key : properties.stringPropertyNames()) {
            int dot = key.indexOf('.');
            if (dot < 0 || !FIELDS.contains(key.substring(dot + 1))) {
                throw new IllegalArgumentException("modes.properties: unknown key " + key);
            }
        }
        return out;
    }

    private static ModeProfile of(String mode, Properties p) {
        String[] v = new String[FIELDS.size()];
        for (int i = 0; i < v.length; i++) {
            String value = p.getProperty(mode + "." + FIELDS.get(i));
            if (value == null || value.isBlank()) {
                throw new IllegalArgumentException("modes.properties: " + mode + "." + FIELDS.get(i) + " missing");
            }
            v[i] = value.trim();
        }
        return new ModeProfile(mode, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11]);
    }
}
