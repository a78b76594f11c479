package io.spiffeidt.mtier;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.Mode;
import io.spiffeidt.core.lsvid.Lsvid;
import io.spiffeidt.core.lsvid.LsvidCodec;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.testing.RunningWorkload;
import io.spiffeidt.support.testing.StubWorkload;
import io.spiffeidt.support.testing.StubWorkload.Reply;
import io.spiffeidt.support.testing.TestIdentities;
import io.spiffeidt.support.wire.DocumentRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The m-tier started with an RSA SVID (SPIRE's {@code rsa-2048} workload key type): it says at
 * start-up, in one line, that it cannot serve ID-Mode and LSVID (both sign with the SVID key as
 * ES256), answers those with a 501 problem that says why, and still serves DVID and Anon-Mode, which
 * never sign with it. mTLS works with the RSA key.
 */
@ExtendWith(OutputCaptureExtension.class)
class MiddleTierRsaSvidIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String ACCOUNT = "{\"user\":\"user0001\",\"balance\":7,\"mode\":\"%s\",\"path\":[]}";

    @TempDir
    static Path dir;

    private static StubWorkload target;
    private static RunningWorkload mTier;

    private final SubjectDocuments documents = new SubjectDocuments();

    @BeforeAll
    static void start() throws Exception {
        target = new StubWorkload(TestIdentities.source(Role.TARGET_WL));
        for (Mode mode : Mode.values()) {
            target.on("/" + mode.pathSegment() + "/balance", r -> Reply.ok(ACCOUNT.formatted(mode.pathSegment())));
        }
        mTier = RunningWorkload.startWithRsaSvid(
                MiddleTierApplication.class,
                Role.M_TIER,
                dir,
                Map.of(
                        "spiffeidt.endpoints.target-wl", target.uri().toString(),
                        "spiffeidt.endpoints.asserting-wl", target.uri().toString(),
                        "spiffeidt.pooling.profile", "pooled"));
    }

    @AfterAll
    static void stop() {
        if (mTier != null) {
            mTier.close();
        }
        target.close();
    }

    private static HttpResponse<String> present(String path, DocumentRequest request) throws Exception {
        return mTier.post(SubjectDocuments.SUBJECT, path, JSON.writeValueAsString(request));
    }

    private static long forwarded(String path) {
        return target.received().stream().filter(r -> r.path().equals(path)).count();
    }

    private static void assertNotServed(HttpResponse<String> answer, Mode mode) {
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(501);
        assertThat(answer.headers().firstValue("Content-Type"))
                .hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));
        JsonNode problem = JSON.readTree(answer.body());
        assertThat(problem.get("code").asString()).isEqualTo("SVID_KEY_UNSUPPORTED");
        assertThat(problem.get("mode").asString()).isEqualTo(mode.pathSegment());
        assertThat(problem.get("detail").asString()).contains("RSA 2048-bit").contains("EC P-256");
    }

    @Test
    void startWhenSvidKeyIsRsaThenOneLineNamesTheModesItCannotServe(CapturedOutput output) {
        assertThat(output.getOut().lines().filter(l -> l.contains("not EC P-256")))
                .singleElement()
                .asString()
                .contains("RSA 2048-bit")
                .contains("m-tier cannot serve id-mode, lsvid")
                .contains("it serves dvid, anon-mode");
    }

    @Test
    void idModeWhenValidTokenButRsaSvidThen501ProblemAndNothingForwarded() throws Exception {
        DocumentRequest extended = documents.idMode("user0001");
        long before = forwarded("/id-mode/balance");

        HttpResponse<String> answer = present("/id-mode/balance", extended);

        assertNotServed(answer, Mode.ID_MODE);
        assertThat(forwarded("/id-mode/balance")).isEqualTo(before);
    }

    @Test
    void lsvidWhenValidDocumentButRsaSvidThen501ProblemAndNothingForwarded() throws Exception {
        Lsvid extended = documents.lsvid("user0004");
        long before = forwarded("/lsvid/balance");

        HttpResponse<String> answer = present("/lsvid/balance", DocumentRequest.of(LsvidCodec.encode(extended)));

        assertNotServed(answer, Mode.LSVID);
        assertThat(forwarded("/lsvid/balance")).isEqualTo(before);
    }

    @Test
    void anonModeWhenRsaSvidThenStillServedOverMtlsWithTheRsaKey() throws Exception {
        String extended = documents.anonMode("user0003").extended();
        long before = forwarded("/anon-mode/balance");

        HttpResponse<String> answer = present("/anon-mode/balance", DocumentRequest.of(extended));

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(JSON.readTree(answer.body()).get("balance").asLong()).isEqualTo(7);
        assertThat(forwarded("/anon-mode/balance")).isEqualTo(before + 1);
    }
}
