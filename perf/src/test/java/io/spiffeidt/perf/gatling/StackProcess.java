package io.spiffeidt.perf.gatling;

import io.spiffeidt.testkit.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The whole development stack ({@code io.spiffeidt.devstack.DevStackMain}) in a separate JVM started
 * from this JVM's class path with the default (fully optimising) JIT, on ports chosen here so that
 * restarts keep the URLs.
 */
final class StackProcess implements AutoCloseable {

    static final List<String> COMPONENTS = List.of("subject-wl", "asserting-wl", "m-tier", "target-wl", "idp");
    static final List<String> WORKLOADS = List.of("subject-wl", "asserting-wl", "m-tier", "target-wl");

    private final Map<String, Integer> ports;
    private final Path logDir;
    private Process process;
    private int starts;

    StackProcess(Path logDir) {
        this.logDir = logDir;
        Map<String, Integer> p = new LinkedHashMap<>();
        for (String c : COMPONENTS) {
            p.put(c, freePort(p));
            if (!c.equals("idp")) {
                p.put(c + ".management", freePort(p));
            }
        }
        this.ports = Map.copyOf(p);
    }

    Map<String, Integer> ports() {
        return ports;
    }

    String subjectUrl() {
        return "http://127.0.0.1:" + ports.get("subject-wl");
    }

    String idpUrl() {
        return "http://127.0.0.1:" + ports.get("idp");
    }

    Map<String, String> metricsUrls() {
        Map<String, String> m = new LinkedHashMap<>();
        for (String w : WORKLOADS) {
            m.put(w, "http://127.0.0.1:" + ports.get(w + ".management") + "/actuator/prometheus");
        }
        return m;
    }

    long pid() {
        return process == null ? -1 : process.pid();
    }

    /** Starts the stack with these workload properties and waits until it says it is up. */
    synchronized void start(Map<String, String> properties) {
        stop();
        starts++;
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xms512m");
        cmd.add("-Xmx1g");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add("io.spiffeidt.devstack.DevStackMain");
        ports.forEach((k, v) -> cmd.add("--spiffeidt.devstack.ports." + k + "=" + v));
        properties.forEach((k, v) -> cmd.add("--" + k + "=" + v));
        cmd.add("--logging.level.root=WARN");
        Path log = logDir.resolve("stack-" + starts + ".log");
        try {
            Files.createDirectories(logDir);
            process = new ProcessBuilder(cmd)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the stack", e);
        }
        Process started = process;
        boolean up;
        try {
            up = Await.until(
                    () -> Files.readString(log).contains("SPIFFE-IdT devstack is up"),
                    said -> said || !started.isAlive(),
                    Duration.ofMinutes(3),
                    Duration.ofMillis(250));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        if (up) {
            return;
        }
        if (!started.isAlive()) {
            throw new IllegalStateException("the stack exited with " + started.exitValue() + ", see " + log);
        }
        stop();
        throw new IllegalStateException("the stack did not start within 3 minutes, see " + log);
    }

    synchronized void stop() {
        if (process == null) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        process = null;
    }

    @Override
    public void close() {
        stop();
    }

    /** A bindable loopback port below the ephemeral range (outbound connections cannot take it). */
    private static int freePort(Map<String, Integer> taken) {
        for (int i = 0; i < 500; i++) {
            int port = ThreadLocalRandom.current().nextInt(20_000, 32_000);
            if (taken.containsValue(port)) {
                continue;
            }
            try (ServerSocket s = new ServerSocket()) {
                s.setReuseAddress(true);
                s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
                return port;
            } catch (IOException e) {
                // taken: try another
            }
        }
        throw new IllegalStateException("no free port");
    }
}
