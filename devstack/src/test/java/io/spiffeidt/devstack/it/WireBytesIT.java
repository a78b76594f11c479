package io.spiffeidt.devstack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.search.Search;
import io.spiffeidt.core.Mode;
import io.spiffeidt.devstack.DevStackSettings;
import io.spiffeidt.support.metrics.OperationMetrics;
import io.spiffeidt.support.metrics.WireBytes;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Bytes on the wire (docs/operations.md "Bytes on the wire"): the {@code Wire-Bytes} header of
 * subject-wl's answer names every hop of the call tree with its bytes, the callers' metrics {@code
 * spiffeidt.http.client.bytes} record the same figures, and the figures are what the documents make
 * them: the proof's introspection answer is tens of kilobytes, a request grows with the document it
 * carries, and the head around a document is small and the same at every hop.
 */
class WireBytesIT extends EmbeddedStackIT {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @BeforeAll
    static void start() {
        startStack(DevStackSettings.ephemeral());
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void balanceWhenAnyModeThenEveryHopOfTheCallTreeWithItsBytesAndTheSameFiguresInTheMetrics(Mode mode)
            throws Exception {
        String token = client.userToken("user0041");
        double subjectSent = clientBytes("subject-wl", mode, "m-tier", "sent");
        double subjectReceived = clientBytes("subject-wl", mode, "m-tier", "received");
        double mtierSent = clientBytes("m-tier", mode, "target-wl", "sent");
        double mtierReceived = clientBytes("m-tier", mode, "target-wl", "received");

        // a balance without a document kept mints first: that call goes to asserting-wl, not counted below
        HttpResponse<String> balance = post(mode.pathSegment(), "balance", token);

        assertThat(balance.statusCode()).as(balance.body()).isEqualTo(200);
        Map<String, WireBytes.Entry> hops = hops(balance);
        assertThat(hops).containsKeys("m-tier", "m-tier.target-wl");
        WireBytes.Entry toMtier = hops.get("m-tier");
        WireBytes.Entry toTarget = hops.get("m-tier.target-wl");
        assertThat(toMtier.path()).isEqualTo("/" + mode.pathSegment() + "/balance");
        assertThat(toTarget.path()).isEqualTo("/" + mode.pathSegment() + "/balance");
        // each request carries at least a request line and headers; each answer a status line, headers, JSON
        for (WireBytes.Entry e : hops.values()) {
            assertThat(e.sent()).as(e.toString()).isGreaterThan(100);
            assertThat(e.received()).as(e.toString()).isGreaterThan(100);
        }
        // m-tier's answer carries target-wl's: what subject-wl read from m-tier is more than m-tier read
        assertThat(toMtier.received()).isGreaterThan(toTarget.received());
        // the callers' metrics recorded exactly the figures of the header
        assertThat(clientBytes("subject-wl", mode, "m-tier", "sent") - subjectSent)
                .isEqualTo(toMtier.sent());
        assertThat(clientBytes("subject-wl", mode, "m-tier", "received") - subjectReceived)
                .isEqualTo(toMtier.received());
        assertThat(clientBytes("m-tier", mode, "target-wl", "sent") - mtierSent).isEqualTo(toTarget.sent());
        assertThat(clientBytes("m-tier", mode, "target-wl", "received") - mtierReceived)
                .isEqualTo(toTarget.received());
    }

    @ParameterizedTest
    @ValueSource(strings = {"id-mode", "lsvid", "anon-mode"})
    void balanceWhenTheDocumentGrowsPerHopThenTheRequestGrowsByAsMuch(String mode) throws Exception {
        String token = client.userToken("user0042");
        assertThat(post(mode, "mint", token).statusCode()).isEqualTo(200);

        Map<String, WireBytes.Entry> hops = hops(post(mode, "balance", token));

        WireBytes.Entry toMtier = hops.get("m-tier");
        WireBytes.Entry toTarget = hops.get("m-tier.target-wl");
        // one layer more at m-tier: a larger document, a request larger by the document's growth
        assertThat(toTarget.document()).isGreaterThan(toMtier.document()).isPositive();
        assertThat(toMtier.sent()).isGreaterThan(toMtier.document());
        assertThat(toTarget.sent()).isGreaterThan(toTarget.document());
        long headMtier = toMtier.sent() - toMtier.document();
        long headTarget = toTarget.sent() - toTarget.document();
        // what is not the document: request line, headers, JSON framing; a few hundred bytes either way
        assertThat(headMtier).isBetween(100L, 1_500L);
        assertThat(headTarget).isBetween(100L, 1_500L);
        assertThat(Math.abs(headTarget - headMtier)).isLessThan(300L);
    }

    @Test
    void balanceWhenABaselineWithACredentialThenTheHeaderCarriesTheDocumentAndMtlsOnlyCarriesNone() throws Exception {
        String token = client.userToken("user0045");

        // bearer-forward: the user's access token at every hop, its size without the scheme
        Map<String, WireBytes.Entry> bearer = hops(post("bearer-forward", "balance", token));
        assertThat(bearer.get("m-tier").document()).isEqualTo(token.length());
        assertThat(bearer.get("m-tier.target-wl").document()).isEqualTo(token.length());
        assertThat(bearer.get("m-tier").sent()).isGreaterThan(token.length() + 100L);

        // txn-token: the Txn-Token at both hops, m-tier's replacement on the second (a JWT of hundreds)
        assertThat(post("txn-token", "mint", token).statusCode()).isEqualTo(200);
        Map<String, WireBytes.Entry> txn = hops(post("txn-token", "balance", token));
        for (String hop : List.of("m-tier", "m-tier.target-wl")) {
            WireBytes.Entry e = txn.get(hop);
            assertThat(e.document()).as(hop).isBetween(300L, 2_000L);
            // the header is the request's largest part: what is not the document is a head of a few hundred
            assertThat(e.sent() - e.document()).as(hop).isBetween(100L, 1_500L);
        }

        // mtls-only: the caller's word in a header, no document at either hop
        assertThat(post("mtls-only", "mint", token).statusCode()).isEqualTo(200);
        Map<String, WireBytes.Entry> mtls = hops(post("mtls-only", "balance", token));
        assertThat(mtls.get("m-tier").document()).isEqualTo(-1);
        assertThat(mtls.get("m-tier.target-wl").document()).isEqualTo(-1);
        // the callers' metrics count the same documents
        assertThat(documents("m-tier", "txn-token", "target-wl")).isPositive();
        assertThat(documents("subject-wl", "mtls-only", "m-tier")).isZero();
    }

    @Test
    void balanceWhenDvidThenTheSameDocumentAtEveryHopAndTheProofTravelsOnce() throws Exception {
        String token = client.userToken("user0043");
        assertThat(post("dvid", "mint", token).statusCode()).isEqualTo(200);

        Map<String, WireBytes.Entry> first = hops(post("dvid", "balance", token));
        Map<String, WireBytes.Entry> second = hops(post("dvid", "balance", token));

        // a DVID is forwarded unchanged
        assertThat(first.get("m-tier").document())
                .isPositive()
                .isEqualTo(first.get("m-tier.target-wl").document());
        // m-tier's first check of this DVID brings the RSA proof from asserting-wl (about 85 KB) ...
        long firstProof = received(first, "m-tier.asserting-wl");
        assertThat(firstProof).isBetween(60_000L, 120_000L);
        // ... the next is answered "unchanged" without it
        assertThat(received(second, "m-tier.asserting-wl")).isLessThan(firstProof / 10);
    }

    @Test
    void balanceWhenAnonModeThenTheTargetReadsTheProofOfTheRoot() throws Exception {
        String token = client.userToken("user0044");
        assertThat(post("anon-mode", "mint", token).statusCode()).isEqualTo(200);

        Map<String, WireBytes.Entry> hops = hops(post("anon-mode", "balance", token));

        assertThat(hops.get("m-tier.target-wl.asserting-wl").path()).isEqualTo("/anon-mode/introspect");
        assertThat(received(hops, "m-tier.target-wl.asserting-wl")).isBetween(60_000L, 120_000L);
    }

    /** Answer bytes of every call on one hop (DVID's validate and introspect may be two). */
    private static long received(Map<String, WireBytes.Entry> hops, String hop) {
        return hops.entrySet().stream()
                .filter(e -> e.getKey().equals(hop) || e.getKey().startsWith(hop + "#"))
                .mapToLong(e -> e.getValue().received())
                .sum();
    }

    /** The entries of the answer's Wire-Bytes header by hop; a second call on a hop as {@code hop#2}. */
    private static Map<String, WireBytes.Entry> hops(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        List<WireBytes.Entry> entries = response.headers().allValues(WireBytes.HEADER).stream()
                .flatMap(v -> WireBytes.parse(v).stream())
                .toList();
        Map<String, WireBytes.Entry> out = new LinkedHashMap<>();
        for (WireBytes.Entry e : entries) {
            String key = e.hop();
            for (int n = 2; out.containsKey(key); n++) {
                key = e.hop() + "#" + n;
            }
            out.put(key, e);
        }
        return out;
    }

    private static double clientBytes(String workload, Mode mode, String downstream, String direction) {
        MeterRegistry registry = stack.context(workload).getBean(MeterRegistry.class);
        return Search.in(registry)
                .name(OperationMetrics.CLIENT_BYTES)
                .tags("mode", mode.pathSegment(), "downstream", downstream, "direction", direction)
                .summaries()
                .stream()
                .mapToDouble(s -> s.totalAmount())
                .sum();
    }

    /** How many downstream calls of {@code workload} in {@code mode} carried a document. */
    private static long documents(String workload, String mode, String downstream) {
        MeterRegistry registry = stack.context(workload).getBean(MeterRegistry.class);
        return Search.in(registry)
                .name(OperationMetrics.CLIENT_DOCUMENT_SIZE)
                .tags("mode", mode, "downstream", downstream)
                .summaries()
                .stream()
                .mapToLong(s -> s.count())
                .sum();
    }

    private static HttpResponse<String> post(String mode, String operation, String token) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(stack.subjectUrl() + "/api/" + mode + "/" + operation))
                .timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(operation.equals("deposit") ? "{\"amount\":1}" : "{}"))
                .build();
        return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
