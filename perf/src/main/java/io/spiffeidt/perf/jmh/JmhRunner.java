package io.spiffeidt.perf.jmh;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs JMH with JSON results: {@code JmhRunner <results.json> [JMH options...]}. Creates the result
 * directory and records the JDK in the console output (JMH also records it in the JSON).
 */
public final class JmhRunner {

    private JmhRunner() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            throw new IllegalArgumentException("usage: JmhRunner <results.json> [JMH options]");
        }
        Path results = Path.of(args[0]).toAbsolutePath();
        Files.createDirectories(results.getParent());
        List<String> jmh = new ArrayList<>(List.of(args).subList(1, args.length));
        jmh.addAll(List.of("-rf", "json", "-rff", results.toString()));
        System.out.println("JDK " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name")
                + "), results to " + results);
        org.openjdk.jmh.Main.main(jmh.toArray(String[]::new));
    }
}
