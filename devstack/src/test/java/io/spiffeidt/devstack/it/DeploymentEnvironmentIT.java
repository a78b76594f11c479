package io.spiffeidt.devstack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.asserting.dvid.DvidAssertingProperties;
import io.spiffeidt.asserting.introspection.IntrospectionStore;
import io.spiffeidt.asserting.introspection.JdbcIntrospectionProperties;
import io.spiffeidt.asserting.introspection.JdbcIntrospectionStore;
import io.spiffeidt.asserting.txntoken.TxnTokenServiceProperties;
import io.spiffeidt.asserting.wimse.WitIssuerProperties;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.devstack.DevStack;
import io.spiffeidt.devstack.ca.DevCa;
import io.spiffeidt.devstack.workloadapi.DevWorkloadApi;
import io.spiffeidt.support.client.PoolingProperties;
import io.spiffeidt.support.identity.IdentityProperties;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.memo.MemoProperties;
import io.spiffeidt.support.oauth.OAuthProperties;
import io.spiffeidt.support.tracing.TracingProperties;
import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.Ordered;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.yaml.snakeyaml.Yaml;

/**
 * Each workload starts with the environment variables the deployment files give it, read from the
 * files themselves, and every {@code SPIFFEIDT_*} variable there takes effect: an environment
 * variable that binds nothing (or fails the start, as {@code SPIFFEIDT_ENDPOINTS_M_TIER} did) fails
 * this test, naming it.
 *
 * <ul>
 *   <li>Compose ({@code deploy/compose/compose.yaml}): each workload service's {@code environment}
 *       after YAML merges (the {@code x-workload} anchor and the service's own entries); {@code
 *       ${VAR:-default}} is read as its default, as {@code docker compose up} does with the variable
 *       unset.
 *   <li>Kubernetes ({@code deploy/k8s/base/spiffeidt/workloads.yaml}): each Deployment container's
 *       {@code env}; a {@code configMapKeyRef} is read from the base kustomization's {@code
 *       configMapGenerator} literals, a {@code secretKeyRef} (database user and password) gets a
 *       placeholder value.
 * </ul>
 *
 * <p>The variables are the workload's {@code systemEnvironment} property source (the process's own
 * environment is left out), above this test's settings (free ports on 127.0.0.1, the development
 * Workload API's socket, the security auto-configurations the launcher leaves out) and the
 * workload's YAML. Values that must resolve at start-up are replaced, and only those: the Workload
 * API socket, the database URLs (an in-memory H2 database instead of PostgreSQL) and the DVID key
 * file (a fresh key). Host names of endpoints and issuers stay as the files write them: nothing
 * resolves them before the first request.
 */
class DeploymentEnvironmentIT {

    private static final Path COMPOSE = Path.of("..", "deploy", "compose", "compose.yaml");
    private static final Path K8S_WORKLOADS = Path.of("..", "deploy", "k8s", "base", "spiffeidt", "workloads.yaml");
    private static final Path K8S_KUSTOMIZATION = Path.of("..", "deploy", "k8s", "base", "kustomization.yaml");

    private static final Pattern INTERPOLATION = Pattern.compile("\\$\\{([A-Za-z0-9_]+)(:?-)([^}]*)}");

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private static Path socketDir;
    private static DevWorkloadApi workloadApi;

    /** The property a variable sets and the value the running workload holds for it. */
    private record Effect(String property, Function<ConfigurableApplicationContext, Object> bound) {}

    /** What each variable of the deployment files sets, read back from the running workload. */
    private static final Map<String, Effect> EFFECTS = Map.ofEntries(
            Map.entry("SPIFFEIDT_TRUST_DOMAIN", new Effect("spiffeidt.trust-domain", c -> identity(c)
                    .trustDomain())),
            Map.entry("SPIFFEIDT_TRACING_UIURL", new Effect("spiffeidt.tracing.ui-url", c -> c.getBean(
                            TracingProperties.class)
                    .uiUrl())),
            Map.entry(
                    "SPIFFEIDT_OAUTH_ISSUERS_0_ISSUER",
                    new Effect("spiffeidt.oauth.issuers[0].issuer", c -> c.getBean(OAuthProperties.class)
                            .issuers()
                            .get(0)
                            .issuer())),
            Map.entry(
                    "SPIFFEIDT_OAUTH_ISSUERS_0_AUDIENCE",
                    new Effect("spiffeidt.oauth.issuers[0].audience", c -> c.getBean(OAuthProperties.class)
                            .issuers()
                            .get(0)
                            .audience())),
            Map.entry("SPIFFEIDT_POOLING_PROFILE", new Effect("spiffeidt.pooling.profile", c -> c.getBean(
                            PoolingProperties.class)
                    .profile())),
            Map.entry(
                    "SPIFFEIDT_MEMO_ENABLED", new Effect("spiffeidt.memo.enabled", c -> c.getBean(MemoProperties.class)
                            .enabled())),
            Map.entry("SPIFFEIDT_OAUTH_JWKS_CACHE", new Effect("spiffeidt.oauth.jwks-cache", c -> c.getBean(
                            OAuthProperties.class)
                    .jwksCache())),
            Map.entry(
                    "SPIFFEIDT_WORKLOAD_API_INIT_TIMEOUT",
                    new Effect(
                            "spiffeidt.workload-api.init-timeout",
                            c -> identity(c).workloadApi().initTimeout())),
            Map.entry("SPIFFEIDT_ENDPOINTS_ASSERTINGWL", new Effect("spiffeidt.endpoints.asserting-wl", c -> identity(c)
                    .endpointOf(Role.ASSERTING_WL))),
            Map.entry("SPIFFEIDT_ENDPOINTS_TARGETWL", new Effect("spiffeidt.endpoints.target-wl", c -> identity(c)
                    .endpointOf(Role.TARGET_WL))),
            Map.entry("SPIFFEIDT_ENDPOINTS_MTIER", new Effect("spiffeidt.endpoints.m-tier", c -> identity(c)
                    .endpointOf(Role.M_TIER))),
            Map.entry("SPIFFEIDT_DVID_KEY_PATH", new Effect("spiffeidt.dvid.key-path", c -> c.getBean(
                            DvidAssertingProperties.class)
                    .keyPath())),
            Map.entry(
                    "SPIFFEIDT_TXN_TOKEN_SERVICE_KEY_PATH",
                    new Effect("spiffeidt.txn-token.service.key-path", c -> c.getBean(TxnTokenServiceProperties.class)
                            .keyPath())),
            Map.entry("SPIFFEIDT_WIMSE_ISSUER_KEY_PATH", new Effect("spiffeidt.wimse.issuer.key-path", c -> c.getBean(
                            WitIssuerProperties.class)
                    .keyPath())),
            Map.entry(
                    "SPIFFEIDT_ASSERTING_INTROSPECTION_STORE",
                    new Effect("spiffeidt.asserting.introspection.store", DeploymentEnvironmentIT::introspectionStore)),
            Map.entry(
                    "SPIFFEIDT_ASSERTING_INTROSPECTION_JDBC_URL",
                    new Effect(
                            "spiffeidt.asserting.introspection.jdbc.url",
                            c -> c.getBean(JdbcIntrospectionProperties.class).url())),
            Map.entry(
                    "SPIFFEIDT_ASSERTING_INTROSPECTION_JDBC_USERNAME",
                    new Effect(
                            "spiffeidt.asserting.introspection.jdbc.username",
                            c -> c.getBean(JdbcIntrospectionProperties.class).username())),
            Map.entry(
                    "SPIFFEIDT_ASSERTING_INTROSPECTION_JDBC_PASSWORD",
                    new Effect(
                            "spiffeidt.asserting.introspection.jdbc.password",
                            c -> c.getBean(JdbcIntrospectionProperties.class).password())));

    @BeforeAll
    static void startWorkloadApi() throws IOException {
        socketDir = Files.createTempDirectory("spiffeidt-deployment-env-");
        workloadApi =
                DevWorkloadApi.start(DevCa.create("example.org", Duration.ofHours(1), Clock.systemUTC()), socketDir);
        for (String name : DevStack.WORKLOADS) {
            workloadApi.addWorkload(name, SpiffeId.parse("spiffe://example.org/" + name));
        }
    }

    @AfterAll
    static void stopWorkloadApi() {
        if (workloadApi != null) {
            workloadApi.close();
        }
    }

    static Stream<Arguments> deployments() throws IOException {
        Map<String, Map<String, String>> compose = composeEnvironments();
        Map<String, Map<String, String>> k8s = kubernetesEnvironments();
        List<Arguments> out = new ArrayList<>();
        for (String workload : DevStack.WORKLOADS) {
            out.add(Arguments.of("compose", workload, compose.get(workload)));
            out.add(Arguments.of("k8s", workload, k8s.get(workload)));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("deployments")
    void startWhenDeploymentEnvironmentThenWorkloadStartsAndEverySpiffeIdtVariableTakesEffect(
            String deployment, String workload, Map<String, String> fromFile) throws Exception {
        assertThat(fromFile)
                .as("%s: environment of %s in the file", deployment, workload)
                .isNotNull();
        Map<String, String> variables = startUpResolvable(workload, fromFile);

        List<String> unknown = variables.keySet().stream()
                .filter(v -> v.startsWith("SPIFFEIDT_") && !EFFECTS.containsKey(v))
                .toList();
        assertThat(unknown)
                .as("%s sets these variables for %s, which no property this test knows binds", deployment, workload)
                .isEmpty();

        try (ConfigurableApplicationContext context = start(workload, variables)) {
            assertThat(identity(context).workload()).isEqualTo(Role.fromWorkloadName(workload));
            String port = context.getEnvironment().getProperty("local.management.port");
            HttpResponse<String> health = HTTP.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/health"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(health.statusCode()).as(health.body()).isEqualTo(200);
            assertThat(health.body()).contains("\"UP\"");

            variables.forEach((variable, value) -> {
                Effect effect = EFFECTS.get(variable);
                if (effect == null) {
                    return;
                }
                Object bound = effect.bound().apply(context);
                assertThat(bound)
                        .as("%s %s: %s=%s", deployment, workload, variable, value)
                        .isNotNull()
                        .isEqualTo(expected(value, bound));
                // the value is this variable's, not a default that happens to be equal
                assertThat(origin(context, effect.property()))
                        .as("%s %s: where %s comes from", deployment, workload, effect.property())
                        .contains("\"" + variable + "\"");
            });
        }
    }

    /** The file's value as the type the workload bound it to. */
    private static Object expected(String value, Object bound) {
        if (bound instanceof Path) {
            return Path.of(value);
        }
        return ApplicationConversionService.getSharedInstance().convert(value, bound.getClass());
    }

    /** The file's variables with the values that must resolve at start-up replaced. */
    private static Map<String, String> startUpResolvable(String workload, Map<String, String> fromFile)
            throws Exception {
        Map<String, String> out = new TreeMap<>(fromFile);
        out.replace("SPIFFE_ENDPOINT_SOCKET", "unix:" + workloadApi.socketPath(workload));
        String h2 = "jdbc:h2:mem:" + workload + "-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        out.replace("SPRING_DATASOURCE_URL", h2);
        out.replace("SPIFFEIDT_ASSERTING_INTROSPECTION_JDBC_URL", h2);
        // the deployments' key files exist only in their pods: a fresh EC P-256 key in each one's place
        for (String keyPath : List.of(
                "SPIFFEIDT_DVID_KEY_PATH", "SPIFFEIDT_TXN_TOKEN_SERVICE_KEY_PATH", "SPIFFEIDT_WIMSE_ISSUER_KEY_PATH")) {
            if (out.containsKey(keyPath)) {
                out.put(keyPath, ecKeyFile().toString());
            }
        }
        return out;
    }

    private static ConfigurableApplicationContext start(String workload, Map<String, String> variables) {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("spring.config.name", workload);
        settings.put("server.port", "0");
        settings.put("server.address", "127.0.0.1");
        settings.put("management.server.port", "0");
        settings.put("management.server.address", "127.0.0.1");
        // the socket is read from the process environment, which a test cannot set: given as a property
        settings.put("spiffeidt.workload-api.socket", "unix:" + workloadApi.socketPath(workload));
        settings.put("spring.autoconfigure.exclude", String.join(",", DevStack.workloadExcludedAutoConfigurations()));
        return new SpringApplicationBuilder(DevStack.applicationOf(workload))
                .registerShutdownHook(false)
                .listeners(new DeploymentEnvironment(variables, settings))
                .run();
    }

    /**
     * Puts the deployment's variables in place of the process environment, and this test's settings
     * under them (above the workload's YAML), before Boot reads its configuration files.
     */
    private record DeploymentEnvironment(Map<String, String> variables, Map<String, Object> settings)
            implements ApplicationListener<ApplicationEnvironmentPreparedEvent>, Ordered {

        @Override
        public void onApplicationEvent(ApplicationEnvironmentPreparedEvent event) {
            MutablePropertySources sources = event.getEnvironment().getPropertySources();
            String name = StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME;
            sources.replace(name, new SystemEnvironmentPropertySource(name, Map.copyOf(variables)));
            sources.addAfter(name, new MapPropertySource("deploymentEnvironmentIT", settings));
        }

        @Override
        public int getOrder() {
            return Ordered.HIGHEST_PRECEDENCE;
        }
    }

    private static IdentityProperties identity(ConfigurableApplicationContext context) {
        return context.getBean(IdentityProperties.class);
    }

    /** {@code jdbc} when every introspection store of asserting-wl is the JDBC one. */
    private static Object introspectionStore(ConfigurableApplicationContext context) {
        Map<String, IntrospectionStore> stores = context.getBeansOfType(IntrospectionStore.class);
        assertThat(stores).isNotEmpty();
        return stores.values().stream().allMatch(JdbcIntrospectionStore.class::isInstance) ? "jdbc" : "memory";
    }

    /** The origin of the value a property resolves to in the workload's environment. */
    private static String origin(ConfigurableApplicationContext context, String property) {
        ConfigurationPropertyName name = ConfigurationPropertyName.of(property);
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(context.getEnvironment())) {
            ConfigurationProperty found = source.getConfigurationProperty(name);
            if (found != null) {
                return String.valueOf(found.getOrigin());
            }
        }
        return "nowhere";
    }

    /** A fresh DVID signing key (EC P-256, PKCS#8 PEM) where the deployment mounts its secret. */
    private static Path ecKeyFile() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        String pem = "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, new byte[] {'\n'})
                        .encodeToString(generator.generateKeyPair().getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n";
        Path file = Files.createTempFile(socketDir, "ec-key", ".pem");
        Files.writeString(file, pem);
        return file;
    }

    // ===== reading the deployment files =====

    /** Each Compose workload service's environment, after merges, {@code ${VAR:-default}} as its default. */
    @SuppressWarnings("unchecked")
    private static Map<String, Map<String, String>> composeEnvironments() throws IOException {
        Map<String, Object> compose = load(COMPOSE);
        Map<String, Object> services = (Map<String, Object>) compose.get("services");
        Map<String, Map<String, String>> out = new LinkedHashMap<>();
        for (String workload : DevStack.WORKLOADS) {
            Map<String, Object> service = (Map<String, Object>) services.get(workload);
            assertThat(service).as("compose service %s", workload).isNotNull();
            Object environment = service.get("environment");
            Map<String, String> variables = new TreeMap<>();
            if (environment instanceof Map<?, ?> map) {
                map.forEach((k, v) -> variables.put(String.valueOf(k), interpolate(String.valueOf(v))));
            } else if (environment instanceof List<?> list) {
                for (Object entry : list) {
                    String[] kv = String.valueOf(entry).split("=", 2);
                    variables.put(kv[0], interpolate(kv.length > 1 ? kv[1] : ""));
                }
            }
            out.put(workload, variables);
        }
        return out;
    }

    /** {@code ${VAR:-default}} and {@code ${VAR-default}} as their default, as with the variable unset. */
    private static String interpolate(String value) {
        Matcher m = INTERPOLATION.matcher(value);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(m.group(3)));
        }
        m.appendTail(out);
        assertThat(out.toString())
                .as("interpolation this test reads: %s", value)
                .doesNotContain("$");
        return out.toString();
    }

    /** Each Kubernetes Deployment's container environment. */
    @SuppressWarnings("unchecked")
    private static Map<String, Map<String, String>> kubernetesEnvironments() throws IOException {
        Map<String, String> settings = configMapLiterals();
        Map<String, Map<String, String>> out = new LinkedHashMap<>();
        try (Reader reader = Files.newBufferedReader(K8S_WORKLOADS)) {
            for (Object document : new Yaml().loadAll(reader)) {
                Map<String, Object> object = (Map<String, Object>) document;
                if (object == null || !"Deployment".equals(object.get("kind"))) {
                    continue;
                }
                String name = (String) ((Map<String, Object>) object.get("metadata")).get("name");
                Map<String, Object> pod = (Map<String, Object>)
                        ((Map<String, Object>) ((Map<String, Object>) object.get("spec")).get("template")).get("spec");
                List<Map<String, Object>> containers = (List<Map<String, Object>>) pod.get("containers");
                assertThat(containers).as("containers of %s", name).hasSize(1);
                Map<String, String> variables = new TreeMap<>();
                for (Map<String, Object> env :
                        (List<Map<String, Object>>) containers.get(0).get("env")) {
                    String variable = (String) env.get("name");
                    variables.put(variable, valueOf(variable, env, settings));
                }
                out.put(name, variables);
            }
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static String valueOf(String variable, Map<String, Object> env, Map<String, String> configMaps) {
        if (env.containsKey("value")) {
            return String.valueOf(env.get("value"));
        }
        Map<String, Object> from = (Map<String, Object>) env.get("valueFrom");
        assertThat(from).as("value or valueFrom of %s", variable).isNotNull();
        if (from.get("configMapKeyRef") instanceof Map<?, ?> ref) {
            String key = ref.get("name") + "/" + ref.get("key");
            assertThat(configMaps)
                    .as("config map entry %s of %s", key, variable)
                    .containsKey(key);
            return configMaps.get(key);
        }
        if (from.get("secretKeyRef") instanceof Map<?, ?> ref) {
            // a secret's value is the cluster's: any value the workload accepts will do
            return "placeholder-" + ref.get("name") + "-" + ref.get("key");
        }
        throw new AssertionError("valueFrom this test cannot read: " + variable + " " + from);
    }

    /** The base kustomization's generated config map entries, keyed {@code <map>/<key>}. */
    @SuppressWarnings("unchecked")
    private static Map<String, String> configMapLiterals() throws IOException {
        Map<String, String> out = new LinkedHashMap<>();
        Map<String, Object> kustomization = load(K8S_KUSTOMIZATION);
        for (Map<String, Object> generator :
                (List<Map<String, Object>>) kustomization.getOrDefault("configMapGenerator", List.of())) {
            for (Object literal : (List<Object>) generator.getOrDefault("literals", List.of())) {
                String[] kv = String.valueOf(literal).split("=", 2);
                out.put(generator.get("name") + "/" + kv[0], kv[1]);
            }
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> load(Path file) throws IOException {
        try (Reader reader = Files.newBufferedReader(file)) {
            return Objects.requireNonNull((Map<String, Object>) new Yaml().load(reader), file.toString());
        }
    }
}
