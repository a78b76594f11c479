package io.spiffeidt.perf.gatling;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A Docker container's CPU time and memory from its cgroup files (what {@code docker stats} reads),
 * cgroup v1 ({@code cpuacct/docker/<id>/cpuacct.usage}, {@code memory/docker/<id>/memory.usage_in_bytes},
 * {@code memory.stat} rss) or v2 ({@code system.slice/docker-<id>.scope} or {@code docker/<id>}: {@code
 * cpu.stat} usage_usec, {@code memory.current}, {@code memory.stat} anon). Written out as {@code
 * containers.properties} beside a phase's scrapes; {@code io.spiffeidt.perf.report.PerfData} reads it.
 */
final class Cgroups {

    private final Path root;

    Cgroups(Path root) {
        this.root = root;
    }

    /** One container's counters; -1 where no file was readable. */
    record Sample(long cpuNs, long memoryBytes, long rssBytes) {}

    Sample read(String containerId) throws IOException {
        long cpu = -1;
        long memory = -1;
        long rss = -1;
        // cgroup v1, cgroupfs or systemd driver
        for (Path dir : v1("cpuacct", containerId)) {
            if (Files.isReadable(dir.resolve("cpuacct.usage"))) {
                cpu = number(dir.resolve("cpuacct.usage"));
                break;
            }
        }
        for (Path dir : v1("memory", containerId)) {
            if (Files.isReadable(dir.resolve("memory.usage_in_bytes"))) {
                memory = number(dir.resolve("memory.usage_in_bytes"));
                rss = stat(dir.resolve("memory.stat"), "rss");
                break;
            }
        }
        if (cpu < 0 && memory < 0) {
            // cgroup v2, systemd or cgroupfs driver
            for (Path dir : List.of(
                    root.resolve("system.slice").resolve("docker-" + containerId + ".scope"),
                    root.resolve("docker").resolve(containerId))) {
                if (Files.isReadable(dir.resolve("cpu.stat"))) {
                    long usec = stat(dir.resolve("cpu.stat"), "usage_usec");
                    cpu = usec < 0 ? -1 : usec * 1000;
                    memory = Files.isReadable(dir.resolve("memory.current"))
                            ? number(dir.resolve("memory.current"))
                            : -1;
                    rss = stat(dir.resolve("memory.stat"), "anon");
                    break;
                }
            }
        }
        return new Sample(cpu, memory, rss);
    }

    private List<Path> v1(String controller, String id) {
        return List.of(
                root.resolve(controller).resolve("docker").resolve(id),
                root.resolve("cpu," + controller).resolve("docker").resolve(id),
                root.resolve(controller).resolve("system.slice").resolve("docker-" + id + ".scope"));
    }

    private static long number(Path f) throws IOException {
        return Long.parseLong(Files.readString(f).trim());
    }

    /** The value of {@code key} in a flat {@code key value} file, -1 when absent. */
    private static long stat(Path f, String key) throws IOException {
        if (!Files.isReadable(f)) {
            return -1;
        }
        for (String line : Files.readAllLines(f)) {
            String[] kv = line.trim().split("\\s+");
            if (kv.length == 2 && kv[0].equals(key)) {
                return Long.parseLong(kv[1]);
            }
        }
        return -1;
    }

    /** {@code <workload>.cpu_ns}, {@code .memory_bytes}, {@code .rss_bytes} of each container. */
    static String properties(Map<String, Sample> byWorkload) {
        StringBuilder sb = new StringBuilder();
        byWorkload.forEach((w, s) -> sb.append(w)
                .append(".cpu_ns=")
                .append(s.cpuNs())
                .append('\n')
                .append(w)
                .append(".memory_bytes=")
                .append(s.memoryBytes())
                .append('\n')
                .append(w)
                .append(".rss_bytes=")
                .append(s.rssBytes())
                .append('\n'));
        return sb.toString();
    }

    /** The full id of a container ({@code docker inspect -f {{.Id}} NAME}). */
    static String containerId(String name) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("docker", "inspect", "-f", "{{.Id}}", name)
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0 || !out.matches("[0-9a-f]{12,64}")) {
            throw new IllegalStateException("docker inspect " + name + ": " + out);
        }
        return out;
    }
}
