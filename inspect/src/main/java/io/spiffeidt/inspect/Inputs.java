package io.spiffeidt.inspect;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Reads the inspector's inputs: a file, or standard input for {@code -}, bounded in size. */
final class Inputs {

    /** Largest input read, bytes (the core's own limits apply after this, 256 KiB by default). */
    static final int MAX_BYTES = 4 * 1024 * 1024;

    private Inputs() {}

    /** The text of {@code name} ({@code -} = {@code stdin}). */
    static String read(String name, InputStream stdin) {
        if ("-".equals(name)) {
            try {
                return bounded(stdin.readNBytes(MAX_BYTES + 1), "standard input");
            } catch (IOException e) {
                throw new UsageException("cannot read standard input: " + e.getMessage(), e);
            }
        }
        return readFile(Path.of(name));
    }

    /** The text of a file. */
    static String readFile(Path path) {
        try {
            if (Files.isDirectory(path)) {
                throw new UsageException("not a file: " + path);
            }
            if (Files.size(path) > MAX_BYTES) {
                throw new UsageException("file too large (over " + MAX_BYTES + " bytes): " + path);
            }
            return bounded(Files.readAllBytes(path), path.toString());
        } catch (NoSuchFileException e) {
            throw new UsageException("no such file: " + path, e);
        } catch (IOException e) {
            throw new UsageException("cannot read " + path + ": " + e.getClass().getSimpleName(), e);
        }
    }

    private static String bounded(byte[] bytes, String what) {
        if (bytes.length > MAX_BYTES) {
            throw new UsageException(what + " is too large (over " + MAX_BYTES + " bytes)");
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
