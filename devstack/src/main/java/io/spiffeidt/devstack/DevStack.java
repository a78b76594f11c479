package io.spiffeidt.devstack;

import io.spiffeidt.asserting.AssertingWorkloadApplication;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.devstack.ca.DevCa;
import io.spiffeidt.devstack.workloadapi.DevWorkloadApi;
import io.spiffeidt.idp.IdpApplication;
import io.spiffeidt.mtier.MiddleTierApplication;
import io.spiffeidt.subject.SubjectWorkloadApplication;
import io.spiffeidt.support.WorkloadApplications;
import io.spiffeidt.targetwl.TargetWorkloadApplication;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.web.server.PortInUseException;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The whole system in one JVM: the development Workload API (one socket per workload), the
 * development IdP, and the four workloads, each in its own Spring context and bound to its own
 * socket. Started in dependency order (IdP, asserting, target, m-tier, subject). Thread-safe for
 * {@link #stop(String)} / {@link #restart(String)} from tests.
 */
public final class DevStack implements AutoCloseable {

    /** The four workloads, in start order. */
    /**
     * How long the embedded target-wl remembers a deposit's {@code Idempotency-Key} (its accounts are an
     * in-memory H2 database, on the heap; the workload's own default is a day).
     */
    static final String EMBEDDED_IDEMPOTENCY_RETENTION = "10m";

    /** The prefix of the development IdP's settings: given to the IdP, never to a workload. */
    static final String IDP_PREFIX = "spiffeidt.idp.";

    public static final List<String> WORKLOADS = List.of("asserting-wl", "target-wl", "m-tier", "subject-wl");

    private static final Map<String, Class<?>> APPLICATIONS = Map.of(
            "asserting-wl", AssertingWorkloadApplication.class,
            "target-wl", TargetWorkloadApplication.class,
            "m-tier", MiddleTierApplication.class,
            "subject-wl", SubjectWorkloadApplication.class,
            "idp", IdpApplication.class);

    private static final List<String> SECURITY_AUTO_CONFIGURATIONS = List.of(
            "org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration",
            "org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration",
            "org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration",
            "org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterAutoConfiguration",
            "org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
            "org.springframework.boot.security.oauth2.server.authorization.autoconfigure.servlet"
                    + ".OAuth2AuthorizationServerAutoConfiguration",
            "org.springframework.boot.security.oauth2.server.authorization.autoconfigure.servlet"
                    + ".OAuth2AuthorizationServerJwtAutoConfiguration");

    private static final int PORT_ATTEMPTS = 3;

    private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();

    private final DevStackSettings settings;
    private final Map<String, Integer> ports;
    private final DevWorkloadApi workloadApi;
    private final Map<String, ConfigurableApplicationContext> contexts = new LinkedHashMap<>();
    private final Path socketDir;

    private DevStack(DevStackSettings settings) {
        this.settings = settings;
        this.ports = resolvePorts(settings.ports());
        try {
            this.socketDir = settings.socketDir() != null
                    ? Files.createDirectories(settings.socketDir())
                    : Files.createTempDirectory("spiffeidt-devstack-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the socket directory", e);
        }
        DevCa ca = DevCa.create(settings.trustDomain(), settings.svidTtl(), Clock.systemUTC());
        this.workloadApi = DevWorkloadApi.start(ca, socketDir);
        for (String name : WORKLOADS) {
            workloadApi.addWorkload(name, idOf(name));
        }
    }

    /**
     * Starts everything; on failure, stops what was started and rethrows. When some port was left for
     * the stack to choose and another process took it between the check and the bind, the stack is
     * started again on fresh ports (at most {@value #PORT_ATTEMPTS} times).
     */
    public static DevStack start(DevStackSettings settings) {
        for (int attempt = 1; ; attempt++) {
            DevStack stack = new DevStack(settings);
            try {
                stack.startComponent("idp");
                for (String name : WORKLOADS) {
                    stack.startComponent(name);
                }
                return stack;
            } catch (RuntimeException e) {
                stack.close();
                if (attempt >= PORT_ATTEMPTS || !stack.lostChosenPort(e)) {
                    throw e;
                }
            }
        }
    }

    /** Whether the failure is a port clash on a port this stack chose itself (not one configured). */
    private boolean lostChosenPort(Throwable failure) {
        if (!isPortClash(failure)) {
            return false;
        }
        Integer port = clashingPort(failure);
        return port == null
                ? settings.ports().containsValue(0)
                : ports.entrySet().stream()
                        .anyMatch(e ->
                                e.getValue().equals(port) && settings.ports().get(e.getKey()) == 0);
    }

    /** Whether a start failure was caused by a port already in use. */
    static boolean isPortClash(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof PortInUseException || t instanceof BindException) {
                return true;
            }
        }
        return false;
    }

    private static Integer clashingPort(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof PortInUseException p) {
                return p.getPort();
            }
        }
        return null;
    }

    /** The SPIFFE ID the stack gives a workload name. */
    public SpiffeId idOf(String name) {
        return SpiffeId.parse("spiffe://" + settings.trustDomain() + "/" + name);
    }

    /** The port a component listens on ({@code subject-wl}, ..., {@code idp}). */
    public int port(String component) {
        return ports.get(component);
    }

    /** The management (actuator) port of a workload. */
    public int managementPort(String workload) {
        return ports.get(workload + ".management");
    }

    /** The user-facing base URL of subject-wl. */
    public URI subjectUrl() {
        return URI.create("http://127.0.0.1:" + port("subject-wl"));
    }

    /** The base URL of the IdP (its issuer). */
    public URI idpUrl() {
        return URI.create("http://127.0.0.1:" + port("idp"));
    }

    /** The mTLS base URL of a workload. */
    public URI mtlsUrl(String workload) {
        return URI.create("https://127.0.0.1:" + port(workload));
    }

    /** The development Workload API. */
    public DevWorkloadApi workloadApi() {
        return workloadApi;
    }

    /** The socket directory. */
    public Path socketDir() {
        return socketDir;
    }

    /** The running context of a component, or {@code null} when stopped. */
    public synchronized ConfigurableApplicationContext context(String component) {
        return contexts.get(component);
    }

    /** Stops one component (e.g. to test how the others cope). */
    public synchronized void stop(String component) {
        ConfigurableApplicationContext ctx = contexts.remove(component);
        if (ctx != null) {
            ctx.close();
        }
    }

    /** Starts a stopped component again, on the same ports and socket. */
    public synchronized void restart(String component) {
        stop(component);
        startComponent(component);
    }

    /** A description of where everything listens. */
    public String describe() {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("%-14s %-34s %-10s %s%n", "component", "listens", "actuator", "Workload API socket"));
        sb.append(String.format("%-14s %-34s %-10s %s%n", "idp", idpUrl(), "-", "-"));
        for (String name : List.of("subject-wl", "asserting-wl", "m-tier", "target-wl")) {
            String url = name.equals("subject-wl") ? subjectUrl().toString() : mtlsUrl(name) + " (mTLS)";
            sb.append(String.format(
                    "%-14s %-34s %-10s %s%n", name, url, managementPort(name), workloadApi.socketPath(name)));
        }
        sb.append("trust domain ")
                .append(settings.trustDomain())
                .append(", SPIFFE IDs spiffe://")
                .append(settings.trustDomain())
                .append("/<component>");
        return sb.toString();
    }

    /** The Spring Boot application class of a component ({@code subject-wl}, ..., {@code idp}). */
    public static Class<?> applicationOf(String component) {
        Class<?> application = APPLICATIONS.get(component);
        if (application == null) {
            throw new IllegalArgumentException("unknown component " + component);
        }
        return application;
    }

    /**
     * The auto-configurations a workload started in this JVM leaves out ({@code
     * spring.autoconfigure.exclude}): the IdP's Spring Security shares the classpath, and the
     * workloads authorize by SPIFFE ID.
     */
    public static List<String> workloadExcludedAutoConfigurations() {
        return SECURITY_AUTO_CONFIGURATIONS;
    }

    /** workload-support's auto-configurations, as it registers them (one per concern). */
    private static List<String> workloadSupportAutoConfigurations() {
        return ImportCandidates.load(AutoConfiguration.class, DevStack.class.getClassLoader()).getCandidates().stream()
                .filter(name -> name.startsWith("io.spiffeidt.support."))
                .toList();
    }

    private synchronized void startComponent(String name) {
        List<String> args = new ArrayList<>();
        Map<String, String> props = new LinkedHashMap<>();
        // a workload reads application-<profile> files too (WorkloadApplications), the IdP only its own
        String configName = name.equals("idp") ? name : WorkloadApplications.configName(name);
        props.put("spring.config.name", configName);
        props.put("server.port", String.valueOf(port(name)));
        if (name.equals("idp")) {
            props.put("spiffeidt.idp.issuer", idpUrl().toString());
            // subject-wl's page logs in and out through the default client, wherever subject-wl listens
            props.put("spiffeidt.idp.clients.subject-wl.redirect-uris", subjectUrl() + "/login/oauth2/code/idp");
            props.put("spiffeidt.idp.clients.subject-wl.post-logout-redirect-uris", subjectUrl() + "/?logout");
            // the IdP is no SPIFFE workload: keep workload-support's auto-configuration out of its context
            props.put("spring.autoconfigure.exclude", String.join(",", workloadSupportAutoConfigurations()));
            // the launcher's settings of the IdP (spiffeidt.idp.*) reach the IdP only
            settings.properties().forEach((k, v) -> {
                if (k.startsWith(IDP_PREFIX)) {
                    props.put(k, v);
                }
            });
        } else {
            props.put("management.server.port", String.valueOf(managementPort(name)));
            props.put("management.server.address", "127.0.0.1");
            props.put("spiffeidt.trust-domain", settings.trustDomain());
            props.put("spiffeidt.workload-api.socket", "unix:" + workloadApi.socketPath(name));
            props.put(
                    "spiffeidt.endpoints.asserting-wl", mtlsUrl("asserting-wl").toString());
            props.put("spiffeidt.endpoints.target-wl", mtlsUrl("target-wl").toString());
            props.put("spiffeidt.endpoints.m-tier", mtlsUrl("m-tier").toString());
            props.put("spiffeidt.oauth.issuers[0].issuer", idpUrl().toString());
            if (name.equals("subject-wl")) {
                props.put("spring.security.oauth2.client.provider.idp.issuer-uri", idpUrl().toString());
            }
            // the dev IdP's access-token audience (spiffeidt.idp.audience): its ID tokens never carry it
            props.put("spiffeidt.oauth.issuers[0].audience", "spiffeidt");
            // the IdP's Spring Security shares this JVM's classpath; the workloads authorize by SPIFFE ID
            props.put("spring.autoconfigure.exclude", String.join(",", SECURITY_AUTO_CONFIGURATIONS));
            if (name.equals("target-wl")) {
                // the accounts live in an in-memory H2 here, on the heap: deposit keys are remembered
                // ten minutes, not a day (the soak profile); a given setting wins
                props.put("spiffeidt.account.idempotency-retention", EMBEDDED_IDEMPOTENCY_RETENTION);
            }
            settings.properties().forEach((k, v) -> {
                if (!k.startsWith(IDP_PREFIX)) {
                    props.put(k, v);
                }
            });
        }
        props.put("server.address", "127.0.0.1");
        props.putAll(settings.workloadProperties().getOrDefault(name, Map.of()));
        props.forEach((k, v) -> args.add("--" + k + "=" + v));
        ConfigurableApplicationContext ctx = new SpringApplicationBuilder(APPLICATIONS.get(name))
                .properties(Map.of("spring.config.name", configName))
                .registerShutdownHook(false)
                .run(args.toArray(String[]::new));
        contexts.put(name, ctx);
    }

    private static Map<String, Integer> resolvePorts(Map<String, Integer> requested) {
        Map<String, Integer> out = new LinkedHashMap<>();
        Set<Integer> taken = new HashSet<>(requested.values());
        requested.forEach((k, v) -> {
            int port = v;
            while (port == 0) {
                int candidate = freePort();
                // two components must never be given the same port
                port = taken.add(candidate) ? candidate : 0;
            }
            out.put(k, port);
        });
        return Map.copyOf(out);
    }

    /**
     * A free port below the kernel's ephemeral range, so that no outbound connection (there are many
     * with non-pooled clients) can take it between this check and the server's bind.
     */
    private static int freePort() {
        int ephemeralLow = 32768;
        try {
            String range = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))
                    .trim();
            ephemeralLow = Integer.parseInt(range.split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            // not Linux: keep the IANA default
        }
        int low = 10_000;
        if (ephemeralLow - low > 1000) {
            for (int i = 0; i < 200; i++) {
                int port = low + RANDOM.nextInt(ephemeralLow - low);
                if (bindable(port)) {
                    return port;
                }
            }
        }
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port", e);
        }
    }

    private static boolean bindable(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Stops the workloads (reverse order), the IdP and the Workload API. */
    @Override
    public synchronized void close() {
        List<String> names = new ArrayList<>(contexts.keySet());
        java.util.Collections.reverse(names);
        for (String name : names) {
            try {
                contexts.remove(name).close();
            } catch (RuntimeException e) {
                // keep closing the others
            }
        }
        workloadApi.close();
    }
}
