package io.spiffeidt.inspect;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Runs the inspector in process through its entry point and captures what it prints. */
record InspectRun(int exitCode, String out, String err) {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    static InspectRun run(String stdin, List<String> args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Inspect.run(
                args.toArray(String[]::new),
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new InspectRun(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    static InspectRun run(List<String> args) {
        return run("", args);
    }

    /** The JSON the inspector printed (for {@code --json}). */
    JsonNode json() {
        return JSON.readTree(out);
    }

    /** Writes {@code text} to {@code dir/name} and returns its path as a string. */
    static String write(Path dir, String name, String text) {
        try {
            return Files.writeString(dir.resolve(name), text, StandardCharsets.UTF_8)
                    .toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The golden vectors, inside the repository (see the surefire configuration). */
    static Path vectors() {
        String dir = System.getProperty("spiffeidt.vectors.dir");
        return dir != null && !dir.isBlank()
                ? Path.of(dir)
                : Path.of("..", "assertion-core", "src", "test", "resources", "vectors");
    }

    static JsonNode vector(String relative) {
        try {
            return JSON.readTree(Files.readString(vectors().resolve(relative), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String key(String file) {
        return vectors().resolve("keys").resolve(file).toString();
    }
}
