package io.spiffeidt.inspect;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** What the tables and the JSON show, and what they never show. */
class InspectOutputTests {

    @TempDir
    Path tmp;

    @Test
    void decodeWhenIdModeThenOneTablePerLayerOutermostFirst() {
        JsonNode v = InspectRun.vector("id-mode/003_layers3.json");
        String token = v.path("outputs").path("token").asString();
        String file = InspectRun.write(tmp, "t.txt", token);
        String artifacts = InspectRun.write(
                tmp, "a.pem", v.path("outputs").path("id_artifacts").asString());

        InspectRun run = InspectRun.run(List.of("decode", "--artifacts", artifacts, file));

        assertThat(run.exitCode()).isEqualTo(Inspect.EXIT_VALID);
        assertThat(run.out())
                .contains("ID-Mode nested token (id-mode)")
                .contains("| depth ")
                .contains("ES256 (ECDSA P-256, ASN.1 DER)")
                .contains("alice@example.test")
                .contains("spiffe://example.org/middletier, chain of 1, valid until");
        assertThat(run.out().indexOf("layer 2 (outermost)"))
                .isLessThan(run.out().indexOf("layer 1 (hop)"));
        assertThat(run.out().indexOf("layer 1 (hop)")).isLessThan(run.out().indexOf("layer 0 (root)"));
        for (String segment : token.split("\\.")) {
            assertThat(run.out()).doesNotContain(segment);
        }
        assertThat(run.out()).doesNotContain("BEGIN CERTIFICATE");
    }

    @Test
    void decodeWhenAnonModeThenHopsAnonymityShownAndTheLastSecretNeverPrinted() {
        String token = InspectRun.vector("anon-mode/003_layers3.json")
                .path("outputs")
                .path("token")
                .asString();
        String last = token.substring(token.lastIndexOf('.') + 1);

        InspectRun run = InspectRun.run(List.of("decode", "--json", InspectRun.write(tmp, "a.txt", token)));

        assertThat(run.exitCode()).isEqualTo(Inspect.EXIT_VALID);
        JsonNode json = run.json();
        assertThat(json.path("format").asString()).isEqualTo("anon-mode");
        // the original writes iid, the hop's SPIFFE ID: those hops are not anonymous
        assertThat(json.path("details").path("hopsAnonymous").asBoolean()).isFalse();
        assertThat(json.path("layers").path(0).path("anonymous").asBoolean()).isFalse();
        assertThat(json.path("layers").path(0).path("signatureBytes").asInt()).isEqualTo(64);
        assertThat(json.path("layers").path(1).path("signatureBytes").asInt()).isEqualTo(32);
        assertThat(json.path("layers").path(2).path("audience").asString())
                .isEqualTo("spiffe://example.org/subject_wl");
        assertThat(run.out()).doesNotContain(last).doesNotContain(last.substring(43));
    }

    @Test
    void decodeWhenDvidThenHeaderClaimsAndProofFlag() {
        String token = InspectRun.vector("dvid/003_dasvid_with_kid.json")
                .path("outputs")
                .path("dasvid")
                .asString();

        InspectRun run = InspectRun.run(List.of("decode", InspectRun.write(tmp, "d.txt", token)));

        assertThat(run.exitCode()).isEqualTo(Inspect.EXIT_VALID);
        assertThat(run.out())
                .contains("DVID (delegated assertion SVID, compact JWS) (dvid)")
                .containsPattern("\\| header\\.kid +\\| test-kid")
                .containsPattern("\\| proofAttached +\\| false")
                .containsPattern("\\| signatureBytes +\\| 256")
                .contains("2023-11-14T22:15:20Z (1700000120)");
        assertThat(run.out()).doesNotContain(token.substring(token.lastIndexOf('.') + 1));
    }

    @Test
    void decodeWhenLsvidThenEveryTokenWithItsRole() {
        String lsvid = InspectRun.vector("lsvid/004_extensions3.json")
                .path("outputs")
                .path("lsvid")
                .asString();

        InspectRun run = InspectRun.run(List.of("decode", "--json", InspectRun.write(tmp, "l.txt", lsvid)));

        assertThat(run.exitCode()).isEqualTo(Inspect.EXIT_VALID);
        JsonNode layers = run.json().path("layers");
        assertThat(layers).hasSize(4);
        assertThat(layers.path(0).path("role").asString()).isEqualTo("extension");
        assertThat(layers.path(0).path("issuer").asString()).isEqualTo("spiffe://example.org/subject_wl");
        assertThat(layers.path(0).path("audience").asString()).isEqualTo("spiffe://example.org/middletier");
        assertThat(layers.path(1).path("dpr").asString()).isEqualTo("alice@example.test");
        assertThat(layers.path(3).path("role").asString()).isEqualTo("base");
        assertThat(run.json().path("details").path("bundle").path("subject").asString())
                .isEqualTo("spiffe://example.org");
    }

    @Test
    void verifyWhenTamperedThenTableSaysInvalidWithTheCode() {
        JsonNode v = InspectRun.vector("id-mode/013_tamper_flip_signature.json");
        InspectRun run = InspectRun.run(List.of(
                "verify",
                "--profile",
                "original-compatible",
                "--at",
                "2024-01-02T00:00:00Z",
                "--original-max-age",
                "P60D",
                "--bundle",
                InspectRun.key("ca.cert.pem"),
                "--asserting",
                "spiffe://example.org/asserting_wl",
                "--verifier",
                "spiffe://example.org/target_wl",
                "--presenter",
                InspectRun.key("leaf_middletier.cert.pem"),
                "--artifacts",
                InspectRun.write(
                        tmp, "a.pem", v.path("outputs").path("id_artifacts").asString()),
                InspectRun.write(tmp, "t.txt", v.path("outputs").path("token").asString())));

        assertThat(run.exitCode()).isEqualTo(Inspect.EXIT_INVALID);
        assertThat(run.out())
                .contains("Verdict: INVALID (BAD_SIGNATURE)")
                .containsPattern("\\| code +\\| BAD_SIGNATURE");
    }

    @Test
    void verifyWhenPresentationJsonThenArtifactsTakenFromItAndUnpinnedValuesNoted() {
        JsonNode v = InspectRun.vector("id-mode/002_layers2.json");
        // artifacts as the original concatenated-PEM string
        String presentation =
                "{\"token\":" + quote(v.path("outputs").path("token").asString()) + ",\"artifacts\":"
                        + quote(v.path("outputs").path("id_artifacts").asString()) + "}";

        InspectRun run = InspectRun.run(List.of(
                "verify",
                "--json",
                "--profile",
                "original-compatible",
                "--at",
                "2024-01-02T00:00:00Z",
                "--original-max-age",
                "P60D",
                "--bundle",
                InspectRun.key("ca.cert.pem"),
                InspectRun.write(tmp, "p.json", presentation)));

        assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(Inspect.EXIT_VALID);
        JsonNode json = run.json();
        assertThat(json.path("format").asString()).isEqualTo("id-mode");
        assertThat(json.path("verification").path("verifier").asString()).isEqualTo("spiffe://example.org/middletier");
        assertThat(json.path("notes").toString())
                .contains("asserting workload not pinned")
                .contains("presenter binding was not checked");
    }

    @Test
    void verifyWhenAnonRootKeyIsAnotherKeyThenUntrustedKey() {
        String token = InspectRun.vector("anon-mode/002_layers2.json")
                .path("outputs")
                .path("token")
                .asString();
        InspectRun run = InspectRun.run(List.of(
                "verify",
                "--json",
                "--profile",
                "original-compatible",
                "--at",
                "1700000010",
                "--subject",
                "spiffe://example.org/subject_wl",
                "--root-key",
                "WGZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmY",
                InspectRun.write(tmp, "a.txt", token)));

        assertThat(run.exitCode()).isEqualTo(Inspect.EXIT_INVALID);
        assertThat(run.json().path("verification").path("code").asString()).isEqualTo("UNTRUSTED_KEY");
    }

    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
    }
}
