package io.spiffeidt.support.testing;

import io.micrometer.core.instrument.MeterRegistry;
import io.spiffeidt.support.identity.Role;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * One workload application started for a module test the way it runs for real: its own
 * configuration file, its SVID from a development Workload API ({@link TestWorkloadApi}, a real
 * gRPC server on a unix socket, issuing from {@link TestIdentities#PKI}), SPIFFE mTLS on a random
 * loopback port. Its neighbours are whatever the test points {@code spiffeidt.endpoints.*} at
 * (usually {@link StubWorkload}s).
 */
public final class RunningWorkload implements AutoCloseable {

    private final Role role;
    private final TestWorkloadApi workloadApi;
    private final ConfigurableApplicationContext context;

    private RunningWorkload(Role role, TestWorkloadApi workloadApi, ConfigurableApplicationContext context) {
        this.role = role;
        this.workloadApi = workloadApi;
        this.context = context;
    }

    /**
     * Starts {@code application} as {@code role}.
     *
     * @param dir a directory for the Workload API socket
     * @param properties more properties (endpoints, issuers, switches); they win over the defaults
     */
    public static RunningWorkload start(Class<?> application, Role role, Path dir, Map<String, String> properties)
            throws IOException {
        return start(application, role, dir, properties, false);
    }

    /**
     * Starts {@code application} as {@code role} with an RSA 2048-bit SVID key (see {@link
     * TestPki#issueRsa}); otherwise as {@link #start(Class, Role, Path, Map)}.
     */
    public static RunningWorkload startWithRsaSvid(
            Class<?> application, Role role, Path dir, Map<String, String> properties) throws IOException {
        return start(application, role, dir, properties, true);
    }

    private static RunningWorkload start(
            Class<?> application, Role role, Path dir, Map<String, String> properties, boolean rsaSvid)
            throws IOException {
        TestWorkloadApi api = new TestWorkloadApi(dir, TestIdentities.PKI, TestIdentities.id(role), rsaSvid);
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("spring.config.name", role.workloadName());
        all.put("server.port", "0");
        all.put("server.address", "127.0.0.1");
        all.put("management.server.port", "-1");
        all.put("spiffeidt.workload", role.workloadName());
        all.put("spiffeidt.trust-domain", TestIdentities.TRUST_DOMAIN);
        all.put("spiffeidt.workload-api.socket", api.address());
        all.putAll(properties);
        try {
            String[] args = all.entrySet().stream()
                    .map(e -> "--" + e.getKey() + "=" + e.getValue())
                    .toArray(String[]::new);
            ConfigurableApplicationContext context = new SpringApplicationBuilder(application)
                    .properties(Map.of("spring.config.name", role.workloadName()))
                    .registerShutdownHook(false)
                    .run(args);
            return new RunningWorkload(role, api, context);
        } catch (RuntimeException e) {
            closeQuietly(api);
            throw e;
        }
    }

    /** The application context. */
    public ConfigurableApplicationContext context() {
        return context;
    }

    /** The meter registry of the workload. */
    public MeterRegistry meters() {
        return context.getBean(MeterRegistry.class);
    }

    /** The mTLS base URL. */
    public URI uri() {
        int port = ((WebServerApplicationContext) context).getWebServer().getPort();
        return URI.create("https://127.0.0.1:" + port);
    }

    /** POSTs JSON to {@code path} as {@code caller}, with a fresh SVID of that role. */
    public HttpResponse<String> post(Role caller, String path, String json) throws IOException, InterruptedException {
        return post(TestIdentities.source(caller), path, json);
    }

    /**
     * POSTs JSON to {@code path} presenting the SVID of {@code caller} (the one its documents are
     * signed with, where the mode binds them to the presenter), accepting only this workload.
     */
    public HttpResponse<String> post(StaticX509Source caller, String path, String json)
            throws IOException, InterruptedException {
        return TestIdentities.httpClient(caller, TestIdentities.id(role))
                .send(
                        HttpRequest.newBuilder(uri().resolve(path))
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(json))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
    }

    @Override
    public void close() {
        try {
            context.close();
        } finally {
            closeQuietly(workloadApi);
        }
    }

    private static void closeQuietly(TestWorkloadApi api) {
        try {
            api.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
