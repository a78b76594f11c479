package io.spiffeidt.inspect;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** Usage errors exit with 2 and say why; standard input works as {@code -}. */
class InspectUsageTests {

    @TempDir
    Path tmp;

    @Test
    void runWhenNoCommandThenUsageError() {
        InspectRun run = InspectRun.run(List.of());
        assertThat(run.exitCode()).isEqualTo(Inspect.EXIT_USAGE);
        assertThat(run.err()).contains("decode or verify");
    }

    @Test
    void decodeWhenUnknownOptionThenUsageError() {
        InspectRun run = InspectRun.run(List.of("decode", "--no-such-option", "token.txt"));
        assertThat(run.exitCode()).isEqualTo(Inspect.EXIT_USAGE);
        assertThat(run.err()).contains("Unknown option: '--no-such-option'");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void decodeWhenFileMissingThenUsageError() {
        InspectRun run =
                InspectRun.run(List.of("decode", tmp.resolve("missing.txt").toString()));
        assertThat(run.exitCode()).isEqualTo(Inspect.EXIT_USAGE);
        assertThat(run.err()).contains("no such file");
    }

    @Test
    void decodeWhenFormatUndetectableThenUsageError() {
        String file = InspectRun.write(tmp, "prose.txt", "this is not a token at all\n");
        InspectRun run = InspectRun.run(List.of("decode", file));
        assertThat(run.exitCode()).isEqualTo(Inspect.EXIT_USAGE);
        assertThat(run.err()).contains("cannot detect the format");
    }

    @Test
    void decodeWhenOddSegmentCountThatIsNoJwsThenUsageError() {
        String file = InspectRun.write(tmp, "five.txt", "a.b.c.d.e");
        InspectRun run = InspectRun.run(List.of("decode", file));
        assertThat(run.exitCode()).isEqualTo(Inspect.EXIT_USAGE);
        assertThat(run.err()).contains("5 segments");
    }

    @Test
    void decodeWhenFormatOptionUnknownThenUsageError() {
        String file = InspectRun.write(tmp, "t.txt", idModeToken());
        InspectRun run = InspectRun.run(List.of("decode", "--format", "saml", file));
        assertThat(run.exitCode()).isEqualTo(Inspect.EXIT_USAGE);
        assertThat(run.err()).contains("unknown format saml");
    }

    @Test
    void verifyWhenTimeUnreadableThenUsageError() {
        String file = InspectRun.write(tmp, "t.txt", idModeToken());
        InspectRun run = InspectRun.run(List.of("verify", "--at", "yesterday", file));
        assertThat(run.exitCode()).isEqualTo(Inspect.EXIT_USAGE);
        assertThat(run.err()).contains("--at");
    }

    @Test
    void verifyWhenProfileUnknownThenUsageError() {
        String file = InspectRun.write(tmp, "t.txt", idModeToken());
        InspectRun run = InspectRun.run(List.of("verify", "--profile", "lenient", file));
        assertThat(run.exitCode()).isEqualTo(Inspect.EXIT_USAGE);
        assertThat(run.err()).contains("unknown profile lenient");
    }

    @Test
    void verifyWhenIdModeWithoutBundleThenUsageErrorNamingTheOption() {
        JsonNode v = InspectRun.vector("id-mode/003_layers3.json");
        String token =
                InspectRun.write(tmp, "t.txt", v.path("outputs").path("token").asString());
        String artifacts = InspectRun.write(
                tmp, "a.pem", v.path("outputs").path("id_artifacts").asString());
        InspectRun run = InspectRun.run(List.of("verify", "--artifacts", artifacts, token));
        assertThat(run.exitCode()).isEqualTo(Inspect.EXIT_USAGE);
        assertThat(run.err()).contains("--bundle");
    }

    @Test
    void verifyWhenLsvidWithoutPresenterThenUsageError() {
        String lsvid = InspectRun.write(
                tmp,
                "l.txt",
                InspectRun.vector("lsvid/004_extensions3.json")
                        .path("outputs")
                        .path("lsvid")
                        .asString());
        InspectRun run = InspectRun.run(List.of("verify", "--bundle", InspectRun.key("ca.cert.pem"), lsvid));
        assertThat(run.exitCode()).isEqualTo(Inspect.EXIT_USAGE);
        assertThat(run.err()).contains("--presenter");
    }

    @Test
    void verifyWhenPrivateKeyGivenThenUsageErrorThatNeverPrintsTheKey() throws IOException {
        String token = InspectRun.write(
                tmp,
                "d.txt",
                InspectRun.vector("dvid/003_dasvid_with_kid.json")
                        .path("outputs")
                        .path("dasvid")
                        .asString());
        Path privateKey = Path.of(InspectRun.key("dvid_asserting.rsa.pkcs8.pem"));
        List<String> body = Files.readAllLines(privateKey, StandardCharsets.US_ASCII).stream()
                .filter(l -> !l.startsWith("-----"))
                .toList();

        InspectRun run = InspectRun.run(List.of("verify", "--key", privateKey.toString(), token));

        assertThat(run.exitCode()).isEqualTo(Inspect.EXIT_USAGE);
        assertThat(run.err()).contains("holds a private key");
        for (String line : body) {
            assertThat(run.out()).doesNotContain(line);
            assertThat(run.err()).doesNotContain(line);
        }
    }

    @Test
    void decodeWhenStandardInputThenDocumentDetected() {
        String token = idModeToken();
        InspectRun run = InspectRun.run(token + "\n", List.of("decode", "--json", "-"));
        assertThat(run.exitCode()).as(run.err()).isEqualTo(Inspect.EXIT_VALID);
        JsonNode json = run.json();
        assertThat(json.path("format").asString()).isEqualTo("id-mode");
        assertThat(json.path("depth").asInt()).isEqualTo(3);
        assertThat(json.path("layers").path(0).path("issuer").asString()).isEqualTo("spiffe://example.org/middletier");
    }

    @Test
    void verifyWhenStandardInputThenVerdictAsForAFile() {
        JsonNode v = InspectRun.vector("dvid/003_dasvid_with_kid.json");
        String jwk = InspectRun.write(
                tmp,
                "k.jwk",
                v.path("inputs")
                        .path("keys")
                        .path("asserting_wl_dasvid_key")
                        .path("jwk")
                        .toString());
        List<String> args = List.of(
                "verify",
                "--profile",
                "original-compatible",
                "--at",
                "2023-11-14T22:13:30Z",
                "--key",
                jwk,
                "--asserting",
                "spiffe://example.org/asserting_wl",
                "-");

        InspectRun valid = InspectRun.run(v.path("outputs").path("dasvid").asString(), args);
        InspectRun empty = InspectRun.run("", args);

        assertThat(valid.exitCode()).as(valid.err()).isEqualTo(Inspect.EXIT_VALID);
        assertThat(valid.out()).contains("Verdict: VALID");
        assertThat(empty.exitCode()).isEqualTo(Inspect.EXIT_USAGE);
        assertThat(empty.err()).contains("empty input");
    }

    private static String idModeToken() {
        return InspectRun.vector("id-mode/003_layers3.json")
                .path("outputs")
                .path("token")
                .asString();
    }
}
