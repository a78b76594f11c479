package io.spiffeidt.devstack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.Mode;
import io.spiffeidt.devstack.DevStackSettings;
import io.spiffeidt.testkit.Await;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Traces across the four workloads (docs/tracing.md), stored by a real Zipkin server (the exec jar
 * of {@code io.zipkin:zipkin-server}, copied by Maven into {@code target/zipkin}): the embedded stack
 * exports to it, one request per mode, and the trace read back from Zipkin's API v2 has one trace id
 * across the four workloads (three for the baselines without a document, which never ask asserting-wl), the hops as parent and child in order, the operation spans with their
 * attributes, and no token or document text in any attribute.
 */
class TracingIT extends EmbeddedStackIT {

    private static final List<String> WORKLOADS = List.of("subject-wl", "asserting-wl", "m-tier", "target-wl");

    private static final Pattern TRACE_RESPONSE = Pattern.compile("00-([0-9a-f]{32})-([0-9a-f]{16})-01");

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private static Process zipkin;
    private static URI zipkinUrl;

    @BeforeAll
    static void start() throws Exception {
        Path jar = Path.of(System.getProperty("spiffeidt.it.zipkin-jar", "target/zipkin/zipkin-server.jar"));
        assertThat(jar)
                .as("the zipkin-server exec jar (maven-dependency-plugin copy)")
                .exists();
        int port = freePort();
        Path log = jar.resolveSibling("zipkin-" + port + ".log");
        ProcessBuilder builder = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xmx256m",
                        "-jar",
                        jar.toString())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().put("QUERY_PORT", Integer.toString(port));
        builder.environment().put("STORAGE_TYPE", "mem");
        zipkin = builder.start();
        zipkinUrl = URI.create("http://127.0.0.1:" + port);
        // Zipkin needs a while on a busy machine
        int health = Await.until(TracingIT::zipkinHealth, s -> s == 200 || !zipkin.isAlive(), Duration.ofMinutes(4));
        assertThat(health).as("Zipkin's /health; its log: %s", log).isEqualTo(200);

        startStack(DevStackSettings.ephemeral()
                .withProperty("management.tracing.export.zipkin.endpoint", zipkinUrl + "/api/v2/spans")
                .withProperty("management.opentelemetry.tracing.export.schedule-delay", "100ms"));
    }

    @AfterAll
    static void stopZipkin() throws InterruptedException {
        if (zipkin != null) {
            zipkin.destroy();
            zipkin.waitFor();
            zipkin = null;
        }
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void depositWhenNoDocumentKeptThenOneTraceThroughEveryWorkloadOfTheMode(Mode mode) throws Exception {
        String mode1 = mode.pathSegment();
        String user = String.format("user%04d", 51 + mode.ordinal());
        String accessToken = client.userToken(user);
        // the document modes mint at asserting-wl first; the baselines without a document never ask it
        List<String> workloads = mode.hasDocument() ? WORKLOADS : List.of("subject-wl", "m-tier", "target-wl");

        // nothing kept yet: subject-wl mints at asserting-wl, then calls m-tier, which calls target-wl
        HttpResponse<String> deposit = post(mode1, "deposit", accessToken, "{\"amount\":5}");
        assertThat(deposit.statusCode()).as(deposit.body()).isEqualTo(200);
        if (mode.hasDocument()) {
            assertThat(deposit.body()).contains("\"minted\":true");
        }
        assertThat(deposit.headers().firstValue("Server-Timing")).isPresent();
        String traceId = traceId(deposit);

        List<Map<String, Object>> spans = completeTrace(traceId, Set.copyOf(workloads));
        assertThat(spans).allSatisfy(s -> assertThat(s.get("traceId")).isEqualTo(traceId));
        assertThat(spans).extracting(TracingIT::service).containsOnlyElementsOf(workloads);
        Map<String, Map<String, Object>> byId = new HashMap<>();
        spans.forEach(s -> byId.put((String) s.get("id"), s));

        // the hops, each a server span under the calling workload's *_call operation, in time order
        Map<String, Object> subject = server(spans, "subject-wl", null, byId);
        assertThat(subject.get("parentId"))
                .as("subject-wl's server span is the root")
                .isNull();
        Map<String, Object> mtierCall = operation(spans, "subject-wl", "mtier_call");
        Map<String, Object> targetCall = operation(spans, "m-tier", "target_call");
        Map<String, Object> mtier = server(spans, "m-tier", mtierCall, byId);
        Map<String, Object> target = server(spans, "target-wl", targetCall, byId);
        assertThat(ancestors(mtier, byId)).contains(mtierCall, subject);
        assertThat(ancestors(targetCall, byId)).contains(mtier);
        assertThat(ancestors(target, byId)).contains(targetCall, mtier, mtierCall, subject);
        List<Map<String, Object>> hops = new ArrayList<>(List.of(subject, mtier, target));
        if (mode.hasDocument()) {
            Map<String, Object> mintCall = operation(spans, "subject-wl", "mint_call");
            Map<String, Object> asserting = server(spans, "asserting-wl", mintCall, byId);
            assertThat(ancestors(mintCall, byId)).contains(subject);
            assertThat(ancestors(asserting, byId)).contains(mintCall, subject);
            assertThat(ancestors(mtier, byId)).doesNotContain(asserting);
            hops.add(1, asserting);
        }
        assertThat(hops)
                .extracting(s -> ((Number) s.get("timestamp")).longValue())
                .isSorted();

        // every operation a span: mode and verification result; documents with depth and size
        List<Map<String, Object>> operations = spans.stream()
                .filter(s -> tags(s).containsKey("spiffeidt.operation"))
                .toList();
        // wimse carries the user in a Txn-Token: the exchange that mints it (no document was kept) is
        // the txn-token flow's and the Txn-Token Service's, tagged as such (docs/formats/wimse.md "Metrics")
        List<String> modes = mode == Mode.WIMSE ? List.of(mode1, Mode.TXN_TOKEN.pathSegment()) : List.of(mode1);
        assertThat(operations).extracting(s -> tags(s).get("spiffeidt.mode")).containsOnlyElementsOf(modes);
        assertThat(operations).extracting(s -> tags(s).get("spiffeidt.mode")).contains(mode1);
        if (mode == Mode.WIMSE) {
            // only the exchange: the spans of the txn-token mode are subject-wl's and the service's
            assertThat(operations.stream()
                            .filter(s -> Mode.TXN_TOKEN.pathSegment().equals(tags(s).get("spiffeidt.mode")))
                            .map(s -> service(s)))
                    .isNotEmpty()
                    .allMatch(service -> service.equals("subject-wl") || service.equals("asserting-wl"));
        }
        assertThat(operations).extracting(s -> tags(s).get("spiffeidt.outcome")).containsOnly("success");
        List<String> names =
                operations.stream().map(s -> service(s) + ":" + s.get("name")).toList();
        assertThat(names).contains("subject-wl:mtier_call", "m-tier:target_call", "target-wl:db_query");
        // how each tier checks what it received: the document or the caller's word, or the forwarded token
        String check = mode == Mode.BEARER_FORWARD ? "oauth_verify" : "validate";
        assertThat(names).contains("m-tier:" + check, "target-wl:" + check);
        if (mode.hasDocument()) {
            assertThat(names).contains("subject-wl:mint_call", "asserting-wl:mint");
            Map<String, Object> minted = operation(spans, "asserting-wl", "mint");
            assertThat(tags(minted)).containsKey("spiffeidt.document.depth").containsKey("spiffeidt.document.size");
            for (String tier : List.of("m-tier", "target-wl")) {
                Map<String, String> validate = tags(operation(spans, tier, "validate"));
                assertThat(validate).as(tier + " validate").containsKey("spiffeidt.document.size");
                assertThat(Integer.parseInt(validate.get("spiffeidt.document.depth")))
                        .as(tier + " validate depth")
                        .isPositive();
            }
        }
        if (mode == Mode.ID_MODE || mode == Mode.ANON_MODE || mode == Mode.LSVID) {
            // the nested modes grow by one layer at each hop
            Map<String, String> extended = tags(operation(spans, "m-tier", "extend"));
            int validated = Integer.parseInt(
                    tags(operation(spans, "m-tier", "validate")).get("spiffeidt.document.depth"));
            assertThat(Integer.parseInt(extended.get("spiffeidt.document.depth")))
                    .isEqualTo(validated + 1);
            assertThat(Integer.parseInt(extended.get("spiffeidt.document.size")))
                    .isPositive();
        }

        // bearer-forward sends the access token itself to every tier: it must still not show
        assertNoSecretIn(spans, List.of(accessToken));
        screenshot(traceId, mode1);
    }

    /**
     * Zipkin's own page of the trace, drawn by headless Chromium into {@code target/screenshots/trace-<mode>.png}
     * (where Chromium is installed; evidence for the reader, the assertions above are the test).
     */
    private static void screenshot(String traceId, String mode) throws IOException, InterruptedException {
        Path chromium = Path.of(System.getProperty("spiffeidt.chromium", "/usr/bin/chromium"));
        if (!Files.isExecutable(chromium)) {
            return;
        }
        Path dir = Files.createDirectories(Path.of("target", "screenshots"));
        Path png = dir.resolve("trace-" + mode + ".png").toAbsolutePath();
        Files.deleteIfExists(png);
        Path profile = Files.createTempDirectory("spiffeidt-chromium-");
        Process p = new ProcessBuilder(
                        chromium.toString(),
                        "--headless",
                        "--no-sandbox",
                        "--disable-gpu",
                        "--disable-dev-shm-usage",
                        "--no-first-run",
                        "--disable-background-networking",
                        "--user-data-dir=" + profile,
                        "--window-size=1400,900",
                        "--virtual-time-budget=8000",
                        "--screenshot=" + png,
                        zipkinUrl.resolve("/zipkin/traces/" + traceId).toString())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (!p.waitFor(90, java.util.concurrent.TimeUnit.SECONDS)) {
            p.destroyForcibly();
        }
        org.springframework.util.FileSystemUtils.deleteRecursively(profile);
        assertThat(png).as("Zipkin's page of the trace, drawn by Chromium").isNotEmptyFile();
    }

    @ParameterizedTest
    @MethodSource("documentModes")
    void mintWhenDocumentAnsweredThenNoAttributeCarriesItOrTheAccessToken(Mode mode) throws Exception {
        String user = String.format("user%04d", 61 + mode.ordinal());
        String accessToken = client.userToken(user);

        HttpResponse<String> mint = post(mode.pathSegment(), "mint", accessToken, "{}");
        assertThat(mint.statusCode()).as(mint.body()).isEqualTo(200);
        tools.jackson.databind.JsonNode answer = SystemClient.JSON.readTree(mint.body());
        String document = answer.get("token").asString();

        List<Map<String, Object>> spans = completeTrace(traceId(mint), Set.of("subject-wl", "asserting-wl"));
        assertThat(operation(spans, "asserting-wl", "mint").get("tags")).isNotNull();
        List<String> secrets = new ArrayList<>(List.of(accessToken, document));
        if (answer.hasNonNull("artifacts")) {
            // the certificate chains of ID-Mode
            secrets.add(answer.get("artifacts").toString());
        }
        // each part of a compact JWS / nested token on its own too
        for (String part : document.split("[.~]")) {
            if (part.length() >= 16) {
                secrets.add(part);
            }
        }
        assertNoSecretIn(spans, secrets);
    }

    static List<Mode> documentModes() {
        return Arrays.stream(Mode.values()).filter(Mode::hasDocument).toList();
    }

    private static void assertNoSecretIn(List<Map<String, Object>> spans, List<String> secrets) {
        for (Map<String, Object> span : spans) {
            List<String> values = new ArrayList<>(tags(span).values());
            values.add((String) span.get("name"));
            for (String value : values) {
                for (String secret : secrets) {
                    assertThat(value)
                            .as("attribute of %s:%s", service(span), span.get("name"))
                            .doesNotContain(secret);
                }
                // no base64url JSON object (a JWT header or payload) either
                assertThat(value).doesNotContain("eyJ");
            }
        }
    }

    /** The trace, once every span's parent has arrived and every one of {@code services} has sent spans. */
    private static List<Map<String, Object>> completeTrace(String traceId, Set<String> services) throws Exception {
        List<Map<String, Object>> spans = Await.until(
                () -> trace(traceId), s -> complete(s, services), Duration.ofSeconds(30), Duration.ofMillis(200));
        assertThat(complete(spans, services))
                .as("trace %s complete in Zipkin: %s", traceId, spans)
                .isTrue();
        return spans;
    }

    private static boolean complete(List<Map<String, Object>> spans, Set<String> services) {
        Set<String> ids = new HashSet<>();
        Set<String> seen = new HashSet<>();
        for (Map<String, Object> s : spans) {
            ids.add((String) s.get("id"));
            seen.add(service(s));
        }
        if (!seen.containsAll(services)) {
            return false;
        }
        long roots = spans.stream().filter(s -> s.get("parentId") == null).count();
        return roots == 1
                && spans.stream().allMatch(s -> s.get("parentId") == null || ids.contains((String) s.get("parentId")));
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> trace(String traceId) throws IOException, InterruptedException {
        HttpResponse<String> answer = HTTP.send(
                HttpRequest.newBuilder(zipkinUrl.resolve("/api/v2/trace/" + traceId))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() == 404) {
            return List.of();
        }
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        return SystemClient.JSON.readValue(answer.body(), List.class);
    }

    private static String traceId(HttpResponse<String> answer) {
        String header = answer.headers().firstValue("traceresponse").orElseThrow();
        Matcher m = TRACE_RESPONSE.matcher(header);
        assertThat(m.matches()).as("sampled traceresponse %s", header).isTrue();
        return m.group(1);
    }

    /** The one server span of {@code service} under {@code caller} (the root's when {@code null}). */
    private static Map<String, Object> server(
            List<Map<String, Object>> spans,
            String service,
            Map<String, Object> caller,
            Map<String, Map<String, Object>> byId) {
        List<Map<String, Object>> found = spans.stream()
                .filter(s -> "SERVER".equals(s.get("kind")) && service.equals(service(s)))
                .filter(s -> caller == null
                        ? s.get("parentId") == null
                        : ancestors(s, byId).contains(caller))
                .toList();
        assertThat(found)
                .as("server spans of %s under %s", service, caller == null ? "nothing" : caller.get("name"))
                .hasSize(1);
        return found.get(0);
    }

    private static Map<String, Object> operation(List<Map<String, Object>> spans, String service, String name) {
        List<Map<String, Object>> found = spans.stream()
                .filter(s -> service.equals(service(s)) && name.equals(tags(s).get("spiffeidt.operation")))
                .toList();
        assertThat(found).as("%s spans of %s", name, service).isNotEmpty();
        return found.get(0);
    }

    private static List<Map<String, Object>> ancestors(
            Map<String, Object> span, Map<String, Map<String, Object>> byId) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Object p = span.get("parentId"); p != null; ) {
            Map<String, Object> parent = byId.get((String) p);
            if (parent == null || out.contains(parent)) {
                break;
            }
            out.add(parent);
            p = parent.get("parentId");
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static String service(Map<String, Object> span) {
        Object endpoint = span.get("localEndpoint");
        return endpoint instanceof Map<?, ?> e ? (String) ((Map<String, Object>) e).get("serviceName") : null;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> tags(Map<String, Object> span) {
        Object tags = span.get("tags");
        return tags == null ? Map.of() : (Map<String, String>) tags;
    }

    private static int zipkinHealth() {
        try {
            return HTTP.send(
                            HttpRequest.newBuilder(zipkinUrl.resolve("/health"))
                                    .timeout(Duration.ofSeconds(5))
                                    .build(),
                            HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private static HttpResponse<String> post(String mode, String operation, String token, String body)
            throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(stack.subjectUrl() + "/api/" + mode + "/" + operation))
                .timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
