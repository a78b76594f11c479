package io.spiffeidt.devstack.workloadapi;

import io.spiffeidt.devstack.ca.DevCa;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * Runs the development Workload API on its own: a fresh CA and the four default workloads, until
 * the process is stopped. Prints one line per workload: name, SPIFFE ID and endpoint address
 * (the value for {@code SPIFFE_ENDPOINT_SOCKET}), tab-separated.
 *
 * <p>Usage: {@code DevWorkloadApiMain [socket-dir]}; without an argument the directory comes from
 * {@value DevWorkloadApi#SOCKET_DIR_PROPERTY} or the temporary directory. System properties {@code
 * spiffeidt.devstack.trust-domain} (default {@code example.org}) and {@code
 * spiffeidt.devstack.svid-ttl} (ISO-8601 duration, default {@code PT1H}) tune the CA.
 */
public final class DevWorkloadApiMain {

    private DevWorkloadApiMain() {}

    /** Starts the CA and the four default workloads and blocks until the JVM shuts down. */
    public static void main(String[] args) throws InterruptedException {
        Path socketDir = args.length > 0 ? Path.of(args[0]) : DevWorkloadApi.defaultSocketDir();
        String trustDomain = System.getProperty("spiffeidt.devstack.trust-domain", "example.org");
        Duration ttl = Duration.parse(System.getProperty("spiffeidt.devstack.svid-ttl", "PT1H"));
        DevWorkloadApi api = DevWorkloadApi.start(DevCa.create(trustDomain, ttl, Clock.systemUTC()), socketDir);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            api.close();
                            stopped.countDown();
                        },
                        "devstack-wlapi-shutdown"));
        Map<String, Path> sockets = api.addDefaultWorkloads();
        PrintStream out = System.out;
        sockets.forEach(
                (name, socket) -> out.println(name + "\t" + api.current(name).id() + "\tunix:" + socket));
        out.flush();
        stopped.await();
    }
}
