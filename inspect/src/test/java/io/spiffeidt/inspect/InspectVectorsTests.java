package io.spiffeidt.inspect;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.ErrorCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/**
 * Runs the inspector, in process, on every golden vector (assertion-core's {@code vectors/<mode>/},
 * whose README gives the expectations) and requires its verdict to be the vector's expectation: the
 * {@code strict_implementation_expectation} where there is one, else the original's verdict on a
 * well-formed document.
 *
 * <p>Each vector is verified the way the workload it was addressed to would: as the outermost
 * audience, presented by the outermost issuer's certificate, at a time inside the documents' own
 * validity (the original documents carry no {@code exp}; ID-Mode's certificates start after its
 * {@code iat}, hence a 60-day original maximum age, as in assertion-core's vector tests). Accepted
 * vectors are original documents, so they verify under {@code original-compatible}; rejected ones
 * must be rejected under both profiles, save the one relaxation {@code original-compatible} makes
 * on purpose (see {@link #RELAXED_UNDER_ORIGINAL_COMPATIBLE}).
 */
class InspectVectorsTests {

    private static final String ASSERTING = "spiffe://example.org/asserting_wl";
    private static final String SUBJECT = "spiffe://example.org/subject_wl";
    private static final String TARGET = "spiffe://example.org/target_wl";

    /**
     * Rejected only under strict: a hop whose {@code iss} is not the recomputed key but whose
     * signature is honest (docs/formats/anon-mode.md: original-compatible does not compare hop issuers, as
     * schoco.Verify did not).
     */
    private static final List<String> RELAXED_UNDER_ORIGINAL_COMPATIBLE =
            List.of("anon-mode/019_wrong_iss_claim_honest_signature.json");

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
    void verifyWhenGoldenVectorThenVerdictIsTheVectorsExpectation(String file) {
        JsonNode vector = InspectRun.vector(file);
        boolean accept = expectsAccept(file, vector);

        if (accept) {
            InspectRun run = InspectRun.run(arguments(file, vector, "original-compatible"));
            assertThat(run.exitCode())
                    .as("%s: %s %s", file, run.out(), run.err())
                    .isEqualTo(Inspect.EXIT_VALID);
            JsonNode verification = run.json().path("verification");
            assertThat(verification.path("verdict").asString()).isEqualTo("valid");
            assertThat(verification.path("code").isNull()).isTrue();
            return;
        }
        for (String profile : List.of("strict", "original-compatible")) {
            InspectRun run = InspectRun.run(arguments(file, vector, profile));
            if (profile.equals("original-compatible") && RELAXED_UNDER_ORIGINAL_COMPATIBLE.contains(file)) {
                assertThat(run.exitCode())
                        .as("%s under %s: %s", file, profile, run.err())
                        .isEqualTo(Inspect.EXIT_VALID);
                continue;
            }
            assertThat(run.exitCode())
                    .as("%s under %s: %s %s", file, profile, run.out(), run.err())
                    .isEqualTo(Inspect.EXIT_INVALID);
            JsonNode verification = run.json().path("verification");
            assertThat(verification.path("verdict").asString()).isEqualTo("invalid");
            assertThat(Arrays.stream(ErrorCode.values()).map(Enum::name))
                    .contains(verification.path("code").asString());
        }
    }

    /** The vector's expectation: its strict expectation, else the original's verdict on a sound document. */
    private static boolean expectsAccept(String file, JsonNode vector) {
        JsonNode strict = vector.get("strict_implementation_expectation");
        if (strict != null && !strict.isNull()) {
            String s = strict.asString();
            assertThat(s).as(file).matches("(accept|reject).*");
            return s.startsWith("accept");
        }
        List<String> results = new ArrayList<>();
        JsonNode verification = vector.path("verification");
        if (verification.isArray()) {
            verification.forEach(v -> results.add(v.path("result").asString()));
        } else {
            results.add(verification.path("result").asString());
        }
        // a vector without a stated strict expectation is a well-formed document an original accepted
        assertThat(results).as(file).contains("valid");
        assertThat(vector.has("base_vector")).as(file).isFalse();
        return true;
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
