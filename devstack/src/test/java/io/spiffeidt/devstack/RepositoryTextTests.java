package io.spiffeidt.devstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What the repository's code, scripts and configuration may not say: a ticket number (a comment says
 * what it refers to, not which issue asked for it). Prose under {@code docs/} and the READMEs is not
 * checked.
 */
class RepositoryTextTests {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private static final Set<String> CHECKED = Set.of(
            "java", "sh", "py", "yaml", "yml", "properties", "scala", "js", "html", "xml", "json", "toml", "conf");

    private static final Set<String> SKIPPED_DIRECTORIES =
            Set.of(".git", ".ci", ".mvn", "target", "node_modules", "docs", ".idea");

    static final Pattern TICKET = Pattern.compile("(?i)\\bissues? \\d+");

    @Test
    void patternFindsATicketNumberOnly() {
        assertThat(TICKET.matcher("the memo (" + "issue" + " 13) skips").find()).isTrue();
        assertThat(TICKET.matcher("Issue" + " 28's goal").find()).isTrue();
        assertThat(TICKET.matcher("the issuer 28").find()).isFalse();
    }

    @Test
    void noCodeOrScriptNamesATicket() throws IOException {
        assertThat(ROOT.resolve("devstack")).isDirectory();
        List<String> found = new ArrayList<>();
        int read = 0;
        try (Stream<Path> files = Files.walk(ROOT)) {
            for (Path file : (Iterable<Path>) files.filter(this::checked)::iterator) {
                read++;
                List<String> lines;
                try {
                    lines = Files.readAllLines(file, StandardCharsets.UTF_8);
                } catch (MalformedInputException e) {
                    continue;
                }
                for (int i = 0; i < lines.size(); i++) {
                    String line = lines.get(i);
                    if (TICKET.matcher(line).find()) {
                        found.add(ROOT.relativize(file) + ":" + (i + 1) + ": " + line.strip());
                    }
                }
            }
        }
        assertThat(read).as("files read").isGreaterThan(100);
        assertThat(found).isEmpty();
    }

    private boolean checked(Path file) {
        Path relative = ROOT.relativize(file);
        for (Path part : relative) {
            if (SKIPPED_DIRECTORIES.contains(part.toString())) {
                return false;
            }
        }
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        boolean script = dot < 0 && Files.isRegularFile(file) && isShebang(file);
        return Files.isRegularFile(file) && (script || dot >= 0 && CHECKED.contains(name.substring(dot + 1)));
    }

    private static boolean isShebang(Path file) {
        try (var in = Files.newInputStream(file)) {
            byte[] head = in.readNBytes(2);
            return head.length == 2 && head[0] == '#' && head[1] == '!';
        } catch (IOException e) {
            return false;
        }
    }
}
