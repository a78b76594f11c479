package io.spiffeidt.inspect;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.ErrorCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/**
 * Runs the inspector, in process, on every golden vector (assertion-core's {@code vectors/<mode>/})
 * and requires the verdict and error code that the folder's {@code manifest.json} states, as
 * assertion-core's vector tests do.
 *
 * <p>Each vector is verified the way the workload it was addressed to would: as the outermost
 * audience, presented by the outermost issuer's certificate, at a time inside the documents' own
 * validity (the original documents carry no {@code exp}; ID-Mode's certificates start after its
 * {@code iat}, hence a 60-day original maximum age, as in assertion-core's vector tests). Accepted
 * vectors are original documents, so they are judged under {@code original-compatible}; derived
 * (tampered) ones under both profiles.
 */
class InspectVectorsTests {

    private static final String ASSERTING = "spiffe://example.org/asserting_wl";
    private static final String SUBJECT = "spiffe://example.org/subject_wl";
    private static final String TARGET = "spiffe://example.org/target_wl";

    @TempDir
    Path tmp;

    static Stream<String> vectorFiles() throws IOException {
        List<String> out = new ArrayList<>();
        for (String mode : List.of("dvid", "id-mode", "anon-mode", "lsvid")) {
            try (Stream<Path> files = Files.list(InspectRun.vectors().resolve(mode))) {
                files.map(p -> mode + "/" + p.getFileName())
                        .filter(n -> n.endsWith(".json"))
                        .filter(n -> !n.endsWith("/manifest.json"))
                        .filter(n -> !n.equals("anon-mode/000_kyber_constants.json"))
                        .sorted()
                        .forEach(out::add);
            }
        }
        return out.stream();
    }

    @Test
    void vectorsWhenListedThenEveryModeIsThereAndOnlyTheConstantsFileIsSkipped() throws IOException {
        List<String> files = vectorFiles().toList();
        assertThat(files).hasSizeGreaterThanOrEqualTo(52);
        assertThat(files.stream().map(f -> f.substring(0, f.indexOf('/'))).distinct())
                .containsExactlyInAnyOrder("dvid", "id-mode", "anon-mode", "lsvid");
        // the one file left out holds constants of the group, no document to verify
        JsonNode constants = InspectRun.vector("anon-mode/000_kyber_constants.json");
        assertThat(constants.path("outputs").path("token").isMissingNode()).isTrue();
        assertThat(constants.has("verification")).isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectorFiles")
    void verifyWhenGoldenVectorThenVerdictIsTheManifests(String file) {
        JsonNode vector = InspectRun.vector(file);
        JsonNode original = expected(file, "original_compatible");

        if (!vector.has("base_vector")) {
            // an original document: the original-compatible verdict (strict refuses every original shape)
            assertVerdict(file, vector, "original-compatible", original);
            return;
        }
        assertVerdict(file, vector, "strict", expected(file, "strict"));
        assertVerdict(file, vector, "original-compatible", original);
    }

    private void assertVerdict(String file, JsonNode vector, String profile, JsonNode expected) {
        InspectRun run = InspectRun.run(arguments(file, vector, profile));
        JsonNode verification = run.json().path("verification");
        if (expected.path("result").asString().equals("valid")) {
            assertThat(run.exitCode())
                    .as("%s under %s: %s %s", file, profile, run.out(), run.err())
                    .isEqualTo(Inspect.EXIT_VALID);
            assertThat(verification.path("verdict").asString()).isEqualTo("valid");
            assertThat(verification.path("code").isNull()).isTrue();
            return;
        }
        assertThat(run.exitCode())
                .as("%s under %s: %s %s", file, profile, run.out(), run.err())
                .isEqualTo(Inspect.EXIT_INVALID);
        assertThat(verification.path("verdict").asString()).isEqualTo("invalid");
        List<String> codes = new ArrayList<>();
        expected.path("codes").forEach(c -> codes.add(c.asString()));
        assertThat(codes)
                .as("%s under %s", file, profile)
                .contains(verification.path("code").asString());
    }

    /** The verdict {@code vectors/<mode>/manifest.json} states for {@code file} under {@code profile}. */
    private static JsonNode expected(String file, String profile) {
        String mode = file.substring(0, file.indexOf('/'));
        String name = file.substring(file.indexOf('/') + 1).replace(".json", "");
        for (JsonNode entry : InspectRun.vector(mode + "/manifest.json").path("vectors")) {
            if (entry.path("vector").asString().equals(name)) {
                JsonNode verdict = entry.path(profile);
                assertThat(verdict.isObject())
                        .as("%s: %s verdict", file, profile)
                        .isTrue();
                return verdict;
            }
        }
        throw new AssertionError("no manifest entry for " + file);
    }

    // ---- how each vector is verified ----

    private List<String> arguments(String file, JsonNode v, String profile) {
        String mode = file.substring(0, file.indexOf('/'));
        String name = file.substring(file.indexOf('/') + 1).replace(".json", "");
        List<String> args = new ArrayList<>(List.of("verify", "--json", "--profile", profile));
        switch (mode) {
            case "dvid" -> dvid(name, v, args);
            case "id-mode" -> idMode(name, v, args);
            case "anon-mode" -> anonMode(name, v, args);
            case "lsvid" -> lsvid(name, v, args);
            default -> throw new IllegalArgumentException(mode);
        }
        return args;
    }

    private void dvid(String name, JsonNode v, List<String> args) {
        JsonNode outputs = v.path("outputs");
        JsonNode inputs = v.path("inputs");
        if (outputs.has("dasvid")) {
            String token =
                    InspectRun.write(tmp, name + ".jws", outputs.path("dasvid").asString());
            JsonNode jwk = inputs.has("asserting_jwk")
                    ? inputs.path("asserting_jwk")
                    : inputs.path("keys").path("asserting_wl_dasvid_key").path("jwk");
            // verified at the document's own time, read by the inspector's decoder
            String iat = decode(token).path("layers").path(0).path("iat").asString();
            args.addAll(List.of(
                    "--at",
                    iat,
                    "--key",
                    InspectRun.write(tmp, "asserting.jwk", jwk.toString()),
                    "--asserting",
                    ASSERTING,
                    "--verifier",
                    SUBJECT,
                    token));
            return;
        }
        String proof = outputs.has("proof_json")
                ? outputs.path("proof_json").asString()
                : inputs.path("proof_json").asString();
        JsonNode jwk = inputs.has("idp_jwk")
                ? inputs.path("idp_jwk")
                : inputs.path("idp_key").path("jwk");
        args.addAll(List.of(
                "--idp-key",
                InspectRun.write(tmp, "idp.jwk", jwk.toString()),
                "--zkp-msg",
                InspectRun.write(tmp, "msg.txt", inputs.path("msg").asString()),
                InspectRun.write(tmp, name + ".proof.json", proof)));
    }

    private void idMode(String name, JsonNode v, List<String> args) {
        JsonNode outputs = v.path("outputs");
        String token =
                InspectRun.write(tmp, name + ".token", outputs.path("token").asString());
        String artifacts = InspectRun.write(
                tmp, name + ".artifacts", outputs.path("id_artifacts").asString());
        // the hop the document (or, for a tampered one, the document it was made from) was addressed to
        String reference = v.path("inputs").has("base_token")
                ? InspectRun.write(
                        tmp,
                        "reference.token",
                        v.path("inputs").path("base_token").asString())
                : token;
        JsonNode outermost = decode(reference).path("layers").path(0);
        args.addAll(List.of(
                "--at",
                "2024-01-02T00:00:00Z",
                "--original-max-age",
                "P60D",
                "--bundle",
                InspectRun.write(
                        tmp, "ca.pem", v.path("inputs").path("ca_cert_pem").asString()),
                "--asserting",
                ASSERTING,
                "--verifier",
                outermost.path("audience").asString(),
                "--presenter",
                leafCertificate(outermost.path("issuer").asString()),
                "--artifacts",
                artifacts,
                token));
    }

    private void anonMode(String name, JsonNode v, List<String> args) {
        String token = InspectRun.write(
                tmp, name + ".token", v.path("outputs").path("token").asString());
        String rootKey = InspectRun.vector("anon-mode/000_kyber_constants.json")
                .path("golden_root_keypair")
                .path("Y0_Point2string_b64url")
                .asString();
        int depth = decode(token).path("depth").asInt();
        args.addAll(List.of(
                "--at",
                "1700000010",
                "--subject",
                SUBJECT,
                "--verifier",
                depth == 1 ? SUBJECT : TARGET,
                "--root-key",
                rootKey,
                token));
    }

    private void lsvid(String name, JsonNode v, List<String> args) {
        String lsvid = InspectRun.write(
                tmp, name + ".lsvid", v.path("outputs").path("lsvid").asString());
        String reference = v.path("inputs").has("base_lsvid")
                ? InspectRun.write(
                        tmp,
                        "reference.lsvid",
                        v.path("inputs").path("base_lsvid").asString())
                : lsvid;
        JsonNode referenceDoc = decode(reference);
        JsonNode outermost = referenceDoc.path("layers").path(0);
        String presenter = referenceDoc.path("depth").asInt() == 1
                ? outermost.path("subject").asString()
                : outermost.path("issuer").asString();
        boolean delegated = false;
        for (JsonNode layer : decode(lsvid).path("layers")) {
            delegated |= !layer.path("dpa").isNull() && !layer.path("dpa").isMissingNode();
        }
        String issuerKey = InspectRun.vector("lsvid/001_extensions0.json")
                .path("inputs")
                .path("keys")
                .path("lsvid_issuer_public_key_pem")
                .asString();
        args.addAll(List.of(
                "--at",
                "1700000010",
                "--bundle",
                InspectRun.key("ca.cert.pem"),
                "--lsvid-issuer-key",
                InspectRun.write(tmp, "lsvid-issuer.pem", issuerKey),
                "--asserting",
                ASSERTING,
                "--verifier",
                outermost.path("audience").asString(),
                "--presenter",
                leafCertificate(presenter),
                "--delegation",
                delegated ? "required" : "absent",
                lsvid));
    }

    private static JsonNode decode(String file) {
        InspectRun run = InspectRun.run(List.of("decode", "--json", file));
        assertThat(run.exitCode()).as(run.err()).isEqualTo(Inspect.EXIT_VALID);
        return run.json();
    }

    private static String leafCertificate(String spiffeId) {
        String workload = spiffeId.substring(spiffeId.lastIndexOf('/') + 1);
        return InspectRun.key("leaf_" + workload + ".cert.pem");
    }

    @Test
    void verifyWhenPositiveVectorUnderStrictThenRejectedBecauseOriginalsCarryNoExp() {
        // the same run as the verdict test, only the profile differs: strict refuses original shapes
        for (String file : List.of("id-mode/003_layers3.json", "anon-mode/003_layers3.json")) {
            InspectRun run = InspectRun.run(arguments(file, InspectRun.vector(file), "strict"));
            assertThat(run.exitCode()).as(file).isEqualTo(Inspect.EXIT_INVALID);
            assertThat(run.json().path("verification").path("code").asString()).isEqualTo(ErrorCode.MALFORMED.name());
        }
    }
}
