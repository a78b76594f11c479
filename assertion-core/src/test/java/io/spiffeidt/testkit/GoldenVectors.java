package io.spiffeidt.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The golden vectors, read from the classpath ({@code vectors/<mode>/} and {@code vectors/keys/} in
 * assertion-core's test resources; their README says what each file holds). Works the same from the
 * build directory and from the published test-jar.
 */
public final class GoldenVectors {

    /** The folder of each document's vectors. */
    public enum Mode {
        DVID("dvid"),
        ID_MODE("id-mode"),
        ANON_MODE("anon-mode"),
        LSVID("lsvid");

        private final String folder;

        Mode(String folder) {
            this.folder = folder;
        }

        public String folder() {
            return folder;
        }
    }

    private static final String ROOT = "vectors/";

    private GoldenVectors() {}

    /** The file in each mode's folder that holds the expected verdicts ({@link VectorManifest}). */
    public static final String MANIFEST = "manifest.json";

    /**
     * The vector names of a mode (file names without {@code .json}, the manifest left out), sorted;
     * never empty.
     */
    public static List<String> names(Mode mode) {
        List<String> names = list(ROOT + mode.folder()).stream()
                .filter(n -> n.endsWith(".json") && !n.equals(MANIFEST))
                .map(n -> n.substring(0, n.length() - ".json".length()))
                .sorted()
                .toList();
        if (names.isEmpty()) {
            throw new IllegalStateException("no golden vectors on the classpath under " + ROOT + mode.folder());
        }
        return names;
    }

    /** The exact text of one vector file; {@code name} with or without {@code .json}. */
    public static String text(Mode mode, String name) {
        String file = name.endsWith(".json") ? name : name + ".json";
        return resource(ROOT + mode.folder() + "/" + file);
    }

    /** The exact text of one file of {@code vectors/keys/} (PEM keys and certificates). */
    public static String keyFile(String file) {
        return resource(ROOT + "keys/" + file);
    }

    private static String resource(String name) {
        try (InputStream in = loader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("not on the classpath: " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> list(String folder) {
        URL url = loader().getResource(folder);
        if (url == null) {
            throw new IllegalStateException("not on the classpath: " + folder);
        }
        try {
            URI uri = url.toURI();
            if ("jar".equals(uri.getScheme())) {
                FileSystem fs;
                try {
                    fs = FileSystems.newFileSystem(uri, Map.of());
                } catch (FileSystemAlreadyExistsException e) {
                    fs = FileSystems.getFileSystem(uri);
                }
                return fileNames(fs.getPath("/" + folder));
            }
            return fileNames(Path.of(uri));
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> fileNames(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).toList();
        }
    }

    private static ClassLoader loader() {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        return context != null ? context : GoldenVectors.class.getClassLoader();
    }
}
