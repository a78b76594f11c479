package io.spiffeidt.devstack.it;

import io.spiffeidt.devstack.it.SystemClient.Answer;
import io.spiffeidt.testkit.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A real Keycloak for the system ITs: the distribution Maven unpacked ({@code keycloak-quarkus-dist},
 * system property {@code spiffeidt.keycloak.home}), started with {@code kc.sh start-dev} (dev-file
 * database, created afresh) on free loopback ports, with the realms of the given files imported
 * ({@code --import-realm}). Its output goes to {@code target/keycloak-it.log}, kept for failures.
 * Also a small client of its token endpoint and admin REST API.
 */
final class KeycloakServer implements AutoCloseable {

    static final String ADMIN = "admin";
    static final String ADMIN_PASSWORD = "admin-password";
    static final Path LOG = Path.of("target", "keycloak-it.log");
    private static final Duration START_TIMEOUT = Duration.ofMinutes(4);

    private final Process process;
    private final int port;

    private KeycloakServer(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /** The distribution's directory, if Maven unpacked it (else why not). */
    static Optional<Path> home() {
        String home = System.getProperty("spiffeidt.keycloak.home");
        if (home == null || !Files.isRegularFile(Path.of(home, "bin", "kc.sh"))) {
            return Optional.empty();
        }
        return Optional.of(Path.of(home));
    }

    /**
     * A JDK of version 21 or newer (Keycloak 26 needs it): system property {@code
     * spiffeidt.keycloak.java-home}, environment variable {@code SPIFFEIDT_KEYCLOAK_JAVA_HOME}, the running JDK, or one under {@code /usr/lib/jvm} (Temurin 25
     * first).
     */
    static Optional<Path> javaHome() {
        List<Path> candidates = new ArrayList<>();
        for (String configured : new String[] {
            System.getProperty("spiffeidt.keycloak.java-home"), System.getenv("SPIFFEIDT_KEYCLOAK_JAVA_HOME")
        }) {
            if (configured != null && !configured.isBlank()) {
                candidates.add(Path.of(configured));
            }
        }
        candidates.add(Path.of(System.getProperty("java.home")));
        candidates.add(Path.of("/usr/lib/jvm/temurin-25-jdk-amd64"));
        Path jvms = Path.of("/usr/lib/jvm");
        if (Files.isDirectory(jvms)) {
            try (Stream<Path> all = Files.list(jvms)) {
                all.sorted(Comparator.reverseOrder()).forEach(candidates::add);
            } catch (IOException e) {
                // none found there
            }
        }
        return candidates.stream()
                .filter(p -> Files.isExecutable(p.resolve("bin/java")) && featureVersion(p) >= 21)
                .findFirst();
    }

    private static int featureVersion(Path javaHome) {
        Path release = javaHome.resolve("release");
        if (!Files.isRegularFile(release)) {
            return 0;
        }
        try (var in = Files.newBufferedReader(release)) {
            Properties p = new Properties();
            p.load(in);
            String v = p.getProperty("JAVA_VERSION", "\"0\"").replace("\"", "");
            return Integer.parseInt(v.split("[.+-]")[0]);
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
    }

    /** A free loopback port. */
    static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Starts Keycloak in the background with the realms of {@code realmFiles} (each named {@code
     * <realm>-realm.json}); {@link #awaitReady()} waits for it.
     */
    static KeycloakServer start(Path home, Path javaHome, List<Path> realmFiles) throws IOException {
        Path data = home.resolve("data");
        deleteTree(data);
        Path imports = Files.createDirectories(data.resolve("import"));
        for (Path realm : realmFiles) {
            Files.copy(realm, imports.resolve(realm.getFileName()));
        }
        int port = freePort();
        int management = freePort();
        Files.createDirectories(LOG.toAbsolutePath().getParent());
        ProcessBuilder pb = new ProcessBuilder(
                "bash",
                home.resolve("bin/kc.sh").toString(),
                "start-dev",
                "--import-realm",
                "--http-host=127.0.0.1",
                "--http-port=" + port,
                "--http-management-port=" + management,
                "--health-enabled=true");
        pb.environment().put("JAVA_HOME", javaHome.toString());
        pb.environment().put("KC_BOOTSTRAP_ADMIN_USERNAME", ADMIN);
        pb.environment().put("KC_BOOTSTRAP_ADMIN_PASSWORD", ADMIN_PASSWORD);
        // a small heap: the machine is shared with the stack under test
        pb.environment().put("JAVA_OPTS_KC_HEAP", "-Xms64m -Xmx768m");
        // start-up (Quarkus' build step, the realm import) is most of its life here: the quick compiler only
        pb.environment().put("JAVA_OPTS_APPEND", "-XX:TieredStopAtLevel=1");
        pb.redirectErrorStream(true);
        pb.redirectOutput(LOG.toFile());
        return new KeycloakServer(pb.start(), port);
    }

    /** Waits until the realm {@code spiffeidt} answers its discovery document (fails with the log's name). */
    void awaitReady() throws InterruptedException {
        URI discovery = URI.create(issuer("spiffeidt") + "/.well-known/openid-configuration");
        String state = Await.until(
                () -> {
                    if (!process.isAlive()) {
                        return "exited with " + process.exitValue();
                    }
                    try {
                        return get(discovery, null).status() == 200 ? "ready" : "starting";
                    } catch (UncheckedIOException e) {
                        return "starting";
                    }
                },
                s -> !s.equals("starting"),
                START_TIMEOUT,
                Duration.ofMillis(500));
        if (!state.equals("ready")) {
            throw new IllegalStateException("Keycloak " + state + " (within " + START_TIMEOUT + "); see " + LOG);
        }
    }

    /** The base URL, e.g. {@code http://127.0.0.1:PORT}. */
    URI baseUrl() {
        return URI.create("http://127.0.0.1:" + port);
    }

    /** The issuer of {@code realm}, as Keycloak writes it into {@code iss}. */
    URI issuer(String realm) {
        return URI.create(baseUrl() + "/realms/" + realm);
    }

    /** The token endpoint's answer to a direct grant (resource owner password) of {@code clientId}. */
    JsonNode passwordGrant(String realm, String clientId, String user, String password, String scope) {
        Answer a = SystemClient.send(
                URI.create(issuer(realm) + "/protocol/openid-connect/token"),
                "POST",
                "application/x-www-form-urlencoded",
                form(Map.of(
                        "grant_type",
                        "password",
                        "client_id",
                        clientId,
                        "username",
                        user,
                        "password",
                        password,
                        "scope",
                        scope)),
                Map.of(),
                null);
        if (a.status() != 200) {
            throw new IllegalStateException("Keycloak's token endpoint answered " + a.status() + ": " + a.body());
        }
        return a.json();
    }

    /** An access token of {@code user} (password {@code password}) from the realm's {@code clientId}. */
    String accessToken(String realm, String clientId, String user) {
        return passwordGrant(realm, clientId, user, "password", "openid")
                .get("access_token")
                .asString();
    }

    /** The {@code kid}s of the realm's JWKS. */
    List<String> jwksKids(String realm) {
        JsonNode keys = get(URI.create(issuer(realm) + "/protocol/openid-connect/certs"), null)
                .json()
                .get("keys");
        List<String> kids = new ArrayList<>();
        keys.forEach(k -> kids.add(k.get("kid").asString()));
        return kids;
    }

    // ---- admin REST API ----

    private String adminToken() {
        return passwordGrant("master", "admin-cli", ADMIN, ADMIN_PASSWORD, "openid")
                .get("access_token")
                .asString();
    }

    /** {@code GET /admin/realms/{path}}. */
    JsonNode adminGet(String path) {
        Answer a = get(URI.create(baseUrl() + "/admin/realms/" + path), adminToken());
        if (a.status() != 200) {
            throw new IllegalStateException("GET " + path + " answered " + a.status() + ": " + a.body());
        }
        return a.json();
    }

    /** {@code method /admin/realms/{path}} with a JSON body; returns the status. */
    int adminSend(String method, String path, JsonNode body) {
        Answer a = SystemClient.send(
                URI.create(baseUrl() + "/admin/realms/" + path),
                method,
                "application/json",
                body == null ? null : body.toString(),
                Map.of("Authorization", "Bearer " + adminToken()),
                null);
        if (a.status() >= 300) {
            throw new IllegalStateException(method + " " + path + " answered " + a.status() + ": " + a.body());
        }
        return a.status();
    }

    /** The Keycloak user id ({@code sub}) of {@code username} in {@code realm}. */
    String userId(String realm, String username) {
        return adminGet(realm + "/users?exact=true&username=" + username)
                .get(0)
                .get("id")
                .asString();
    }

    /**
     * Points the client {@code clientId}'s redirect URI and post-logout redirect URI at where the page
     * runs now (the realm file names the README's port 8080).
     */
    void setRedirects(String realm, String clientId, String redirectUri, String postLogoutRedirectUri) {
        JsonNode client = adminGet(realm + "/clients?clientId=" + clientId).get(0);
        ObjectNode updated = (ObjectNode) client;
        ArrayNode redirects = updated.putArray("redirectUris");
        redirects.add(redirectUri);
        ((ObjectNode) updated.get("attributes")).put("post.logout.redirect.uris", postLogoutRedirectUri);
        adminSend("PUT", realm + "/clients/" + client.get("id").asString(), updated);
    }

    /** The realm's key provider components ({@code org.keycloak.keys.KeyProvider}) by name. */
    Map<String, JsonNode> keyProviders(String realm) {
        JsonNode all = adminGet(realm + "/components?type=org.keycloak.keys.KeyProvider");
        Map<String, JsonNode> byName = new LinkedHashMap<>();
        all.forEach(c -> byName.put(c.get("name").asString(), c));
        return byName;
    }

    /** The realm's active keys: {@code kid} by algorithm, for RS256 the one used for signing. */
    String activeKid(String realm, String algorithm) {
        return adminGet(realm + "/keys").get("active").get(algorithm).asString();
    }

    /** Adds a generated RSA signing key provider {@code name} with {@code priority}, active and enabled. */
    void addRsaKeyProvider(String realm, String name, int priority) {
        String realmId = adminGet(realm).get("id").asString();
        ObjectNode c = SystemClient.JSON.createObjectNode();
        c.put("name", name);
        c.put("providerId", "rsa-generated");
        c.put("providerType", "org.keycloak.keys.KeyProvider");
        c.put("parentId", realmId);
        ObjectNode config = c.putObject("config");
        config.putArray("priority").add(String.valueOf(priority));
        config.putArray("keySize").add("2048");
        config.putArray("active").add("true");
        config.putArray("enabled").add("true");
        config.putArray("algorithm").add("RS256");
        adminSend("POST", realm + "/components", c);
    }

    /** Disables the key provider {@code component} (its keys leave the JWKS). */
    void disableKeyProvider(String realm, JsonNode component) {
        ObjectNode updated = (ObjectNode) component.deepCopy();
        ObjectNode config = (ObjectNode) updated.get("config");
        config.putArray("enabled").add("false");
        config.putArray("active").add("false");
        adminSend("PUT", realm + "/components/" + component.get("id").asString(), updated);
    }

    private static Answer get(URI uri, String bearer) {
        return SystemClient.send(
                uri, "GET", null, null, bearer == null ? Map.of() : Map.of("Authorization", "Bearer " + bearer), null);
    }

    private static String form(Map<String, String> fields) {
        return fields.entrySet().stream()
                .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                        + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /** Stops Keycloak (SIGTERM, then SIGKILL after 30 s); its log stays in {@link #LOG}. */
    @Override
    public void close() {
        List<ProcessHandle> children = process.descendants().toList();
        process.destroy();
        children.forEach(ProcessHandle::destroy);
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                children.forEach(ProcessHandle::destroyForcibly);
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
