package io.spiffeidt.perf.gatling;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Everything recorded besides Gatling's own results, under the data directory ({@code
 * io.spiffeidt.perf.report.PerfData} reads it): each workload's Prometheus text before and after a
 * measured phase, the stack's per-thread CPU time ({@code jcmd Thread.print}) and resident memory,
 * every request's response time, and the environment; with container names, each container's cgroup
 * counters ({@link Cgroups}).
 */
final class Probe {

    private static final Pattern THREAD = Pattern.compile("^\"(.*)\" .*?cpu=([0-9.]+)(ms|s) ");

    private final Path dir;
    private final Cgroups cgroups = new Cgroups(Path.of("/sys/fs/cgroup"));
    private final Map<String, String> containerIds = new java.util.LinkedHashMap<>();
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private BufferedWriter requests;
    private BufferedWriter capacityRequests;
    private BufferedWriter capacitySteps;

    Probe(Path dir) {
        this.dir = dir;
        try {
            if (Files.isDirectory(dir)) {
                try (var files = Files.walk(dir)) {
                    files.sorted(java.util.Comparator.reverseOrder())
                            .forEach(p -> p.toFile().delete());
                }
            }
            Files.createDirectories(dir);
            requests = Files.newBufferedWriter(dir.resolve("requests.csv"), StandardCharsets.UTF_8);
            requests.write("configuration,mode,scenario,request,end_epoch_ms,response_ms,ok\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Path dir() {
        return dir;
    }

    synchronized void request(
            String configuration, String mode, String scenario, String request, long responseMs, boolean ok) {
        try {
            requests.write(String.join(
                    ",",
                    configuration,
                    mode,
                    scenario,
                    request,
                    Long.toString(System.currentTimeMillis()),
                    Long.toString(responseMs),
                    Boolean.toString(ok)));
            requests.write('\n');
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One answer of a capacity step ({@code capacity.csv}); status 0 when no answer came. */
    synchronized void capacityRequest(
            String configuration,
            String mode,
            String request,
            String rate,
            int status,
            long responseMs,
            long retryAfter) {
        try {
            if (capacityRequests == null) {
                capacityRequests = Files.newBufferedWriter(dir.resolve("capacity.csv"), StandardCharsets.UTF_8);
                capacityRequests.write(io.spiffeidt.perf.report.Capacity.REQUESTS_HEADER + "\n");
            }
            capacityRequests.write(String.join(
                    ",",
                    configuration,
                    mode,
                    request,
                    rate,
                    Long.toString(System.currentTimeMillis()),
                    Long.toString(responseMs),
                    Integer.toString(status),
                    Long.toString(retryAfter)));
            capacityRequests.write('\n');
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One capacity step: its offered rate, its window and its verdict ({@code steps.csv}). */
    synchronized void capacityStep(
            String configuration,
            String mode,
            String request,
            double rate,
            long startMs,
            long endMs,
            io.spiffeidt.perf.report.Capacity.Verdict verdict) {
        try {
            if (capacitySteps == null) {
                capacitySteps = Files.newBufferedWriter(dir.resolve("steps.csv"), StandardCharsets.UTF_8);
                capacitySteps.write(io.spiffeidt.perf.report.Capacity.STEPS_HEADER + "\n");
            }
            capacitySteps.write(String.join(
                    ",",
                    configuration,
                    mode,
                    request,
                    Double.toString(rate),
                    Long.toString(startMs),
                    Long.toString(endMs),
                    Boolean.toString(verdict.held())));
            capacitySteps.write('\n');
            capacitySteps.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Scrapes every workload (and the stack's threads when {@code pid > 0}, and the cgroup counters of the
     * {@code containers}, workload to container name) into {@code phase/point}.
     */
    void scrape(
            String configuration,
            String phase,
            String point,
            Map<String, String> metricsUrls,
            long pid,
            Map<String, String> containers) {
        Path out = dir.resolve("scrapes").resolve(configuration).resolve(phase).resolve(point);
        try {
            Files.createDirectories(out);
            for (var e : metricsUrls.entrySet()) {
                HttpResponse<String> r = http.send(
                        HttpRequest.newBuilder(URI.create(e.getValue()))
                                .timeout(Duration.ofSeconds(10))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                Files.writeString(out.resolve(e.getKey() + ".prom"), r.body());
            }
            if (pid > 0) {
                Files.writeString(out.resolve("threads.csv"), threads(pid));
                Files.writeString(out.resolve("process.properties"), "rss_kb=" + rssKb(pid) + "\n");
            }
            if (!containers.isEmpty()) {
                Map<String, Cgroups.Sample> samples = new java.util.LinkedHashMap<>();
                for (var e : containers.entrySet()) {
                    String id = containerIds.get(e.getValue());
                    if (id == null) {
                        id = Cgroups.containerId(e.getValue());
                        containerIds.put(e.getValue(), id);
                    }
                    samples.put(e.getKey(), cgroups.read(id));
                }
                Files.writeString(out.resolve("containers.properties"), Cgroups.properties(samples));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * One soak sample: with the stack's process ({@code pid > 0}) a full collection first ({@code jcmd
     * GC.run}), then every workload's Prometheus text, the process's resident set and open sockets.
     */
    io.spiffeidt.perf.report.Soak.Sample soakSample(Map<String, String> metricsUrls, long pid) {
        try {
            if (pid > 0) {
                Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
                Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "GC.run")
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .start();
                p.waitFor(60, TimeUnit.SECONDS);
            }
            Map<String, String> texts = new java.util.LinkedHashMap<>();
            for (var e : metricsUrls.entrySet()) {
                HttpResponse<String> r = http.send(
                        HttpRequest.newBuilder(URI.create(e.getValue()))
                                .timeout(Duration.ofSeconds(10))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                texts.put(e.getKey(), r.body());
            }
            double rss = pid > 0 ? rssKb(pid) / 1024.0 : Double.NaN;
            double sockets = pid > 0 ? sockets(pid) : Double.NaN;
            return io.spiffeidt.perf.report.Soak.sample(System.currentTimeMillis(), texts, pid > 0, rss, sockets);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Open sockets of a process (its file descriptors that are sockets). */
    private static long sockets(long pid) throws IOException {
        long n = 0;
        try (var fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            for (Path fd : (Iterable<Path>) fds::iterator) {
                try {
                    if (Files.readSymbolicLink(fd).toString().startsWith("socket:")) {
                        n++;
                    }
                } catch (IOException e) {
                    // closed while listing
                }
            }
        }
        return n;
    }

    /** Starts a JFR recording named {@code name} in the stack's JVM (the {@code profile} settings). */
    void jfrStart(long pid, String name) {
        jcmd(pid, "JFR.start", "name=" + name, "settings=profile");
    }

    /** Stops the recording {@code name} into {@code file}. */
    void jfrStop(long pid, String name, Path file) {
        try {
            Files.createDirectories(file.getParent());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        jcmd(pid, "JFR.stop", "name=" + name, "filename=" + file.toAbsolutePath());
    }

    private static void jcmd(long pid, String... command) {
        List<String> cmd = new ArrayList<>(
                List.of(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(), Long.toString(pid)));
        cmd.addAll(List.of(command));
        try {
            Process p = new ProcessBuilder(cmd)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException("jcmd " + String.join(" ", command) + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Thread name and CPU milliseconds, from {@code jcmd <pid> Thread.print}. */
    private static String threads(long pid) throws IOException, InterruptedException {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "Thread.print")
                .redirectErrorStream(true)
                .start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(30, TimeUnit.SECONDS);
        StringBuilder sb = new StringBuilder("thread,cpu_ms\n");
        for (String line : text.split("\n")) {
            Matcher m = THREAD.matcher(line);
            if (m.find()) {
                double ms = Double.parseDouble(m.group(2)) * (m.group(3).equals("s") ? 1000 : 1);
                sb.append(m.group(1).replace(',', ' ')).append(',').append(ms).append('\n');
            }
        }
        return sb.toString();
    }

    private static long rssKb(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }

    /**
     * The URLs that answer 200 now: Compose's default management ports are scraped only where they answer,
     * so a deployment without them (a cluster without port-forwards) is measured without its metrics.
     */
    Map<String, String> answering(Map<String, String> urls) {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        urls.forEach((w, u) -> {
            try {
                HttpResponse<Void> r = http.send(
                        HttpRequest.newBuilder(URI.create(u))
                                .timeout(Duration.ofSeconds(5))
                                .build(),
                        HttpResponse.BodyHandlers.discarding());
                if (r.statusCode() == 200) {
                    out.put(w, u);
                }
            } catch (IOException e) {
                // not published: not scraped
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        });
        return out;
    }

    /** Appends to run.properties (environment, ports, configurations). */
    synchronized void environment(Map<String, String> values) {
        Path f = dir.resolve("run.properties");
        Properties p = new Properties();
        try {
            if (Files.exists(f)) {
                try (var in = Files.newBufferedReader(f)) {
                    p.load(in);
                }
            }
            values.forEach(p::setProperty);
            try (var w = Files.newBufferedWriter(
                    f, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
                p.store(w, "SPIFFE-IdT perf run");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** The access tokens of {@code user0001}... from the IdP's {@code /dev/token}. */
    List<String> tokens(String idpUrl, int users) {
        List<String> tokens = new ArrayList<>();
        Pattern at = Pattern.compile("\"access_token\"\\s*:\\s*\"([^\"]+)\"");
        for (int i = 1; i <= users; i++) {
            String body = "username=" + String.format("user%04d", i) + "&password=password";
            try {
                HttpResponse<String> r = http.send(
                        HttpRequest.newBuilder(URI.create(idpUrl + "/dev/token"))
                                .header("Content-Type", "application/x-www-form-urlencoded")
                                .POST(HttpRequest.BodyPublishers.ofString(body))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                Matcher m = at.matcher(r.body());
                if (r.statusCode() != 200 || !m.find()) {
                    throw new IllegalStateException("no token for user " + i + ": HTTP " + r.statusCode());
                }
                tokens.add(m.group(1));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        return tokens;
    }

    void close() {
        try {
            requests.close();
            if (capacityRequests != null) {
                capacityRequests.close();
            }
            if (capacitySteps != null) {
                capacitySteps.close();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
