package io.spiffeidt.perf.gatling;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A container's counters from a cgroup tree laid out as Docker's cgroupfs driver writes it (v1 and v2). */
class CgroupsTests {

    private static final String ID = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

    private static void write(Path f, String text) throws IOException {
        Files.createDirectories(f.getParent());
        Files.writeString(f, text);
    }

    @Test
    void readWhenCgroupV1ThenCpuacctUsageUsageInBytesAndStatRss(@TempDir Path root) throws IOException {
        write(root.resolve("cpuacct/docker/" + ID + "/cpuacct.usage"), "123456789\n");
        write(root.resolve("memory/docker/" + ID + "/memory.usage_in_bytes"), "300000000\n");
        write(
                root.resolve("memory/docker/" + ID + "/memory.stat"),
                "cache 1000\nrss 41943040\nrss_huge 0\ntotal_rss 41943040\n");

        assertThat(new Cgroups(root).read(ID)).isEqualTo(new Cgroups.Sample(123456789, 300000000, 41943040));
    }

    @Test
    void readWhenCgroupV2SystemdThenCpuStatUsecMemoryCurrentAndAnon(@TempDir Path root) throws IOException {
        Path scope = root.resolve("system.slice/docker-" + ID + ".scope");
        write(scope.resolve("cpu.stat"), "usage_usec 2500\nuser_usec 2000\nsystem_usec 500\n");
        write(scope.resolve("memory.current"), "62914560\n");
        write(scope.resolve("memory.stat"), "anon 52428800\nfile 10485760\n");

        assertThat(new Cgroups(root).read(ID)).isEqualTo(new Cgroups.Sample(2_500_000, 62914560, 52428800));
    }

    @Test
    void readWhenNoCgroupOfTheContainerThenEveryCounterIsMissing(@TempDir Path root) throws IOException {
        assertThat(new Cgroups(root).read(ID)).isEqualTo(new Cgroups.Sample(-1, -1, -1));
    }

    @Test
    void propertiesAreWhatTheReportReads() {
        Map<String, Cgroups.Sample> samples = new LinkedHashMap<>();
        samples.put("m-tier", new Cgroups.Sample(1, 2, -1));

        assertThat(Cgroups.properties(samples))
                .isEqualTo("m-tier.cpu_ns=1\nm-tier.memory_bytes=2\nm-tier.rss_bytes=-1\n");
    }
}
