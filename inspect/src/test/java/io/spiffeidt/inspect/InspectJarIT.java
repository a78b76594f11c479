package io.spiffeidt.inspect;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The packaged jar runs on its own: {@code java -jar spiffeidt-inspect.jar ...}, fed by standard input. */
class InspectJarIT {

    @TempDir
    Path tmp;

    @Test
    void jarWhenRunWithStandardInputThenDecodesAndExitsZero() throws Exception {
        Path jar = Path.of("target", "spiffeidt-inspect.jar");
        assertThat(jar).exists();
        String token = InspectRun.vector("anon-mode/003_layers3.json")
                .path("outputs")
                .path("token")
                .asString();
        Path input = Files.writeString(tmp.resolve("token.txt"), token, StandardCharsets.US_ASCII);

        Result ok = java(List.of("-jar", jar.toString(), "decode", "-"), input);
        Result usage = java(
                List.of("-jar", jar.toString(), "decode", tmp.resolve("absent").toString()), input);

        assertThat(ok.code()).as(ok.output()).isEqualTo(Inspect.EXIT_VALID);
        assertThat(ok.output()).contains("Anon-Mode nested token (anon-mode)").contains("layer 2 (outermost)");
        assertThat(usage.code()).isEqualTo(Inspect.EXIT_USAGE);
        assertThat(usage.output()).contains("no such file");
    }

    private record Result(int code, String output) {}

    private Result java(List<String> args, Path stdin) throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> command = new java.util.ArrayList<>();
        command.add(java.toString());
        command.addAll(args);
        Process p = new ProcessBuilder(command)
                .redirectInput(stdin.toFile())
                .redirectErrorStream(true)
                .start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Result(p.exitValue(), output);
    }
}
