package io.spiffeidt.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.internal.Json;
import io.spiffeidt.testkit.GoldenVectors.Mode;
import io.spiffeidt.testkit.VectorManifest.Entry;
import io.spiffeidt.testkit.VectorManifest.Kind;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each folder's manifest agrees with its vector files: one entry per file, and no expectation that
 * contradicts what the file records (the original's verdict, the strict expectation).
 */
class VectorManifestTests {

    static Stream<Arguments> entries() {
        return Stream.of(Mode.values())
                .flatMap(mode -> VectorManifest.load(mode).entries().stream().map(e -> Arguments.of(mode, e)));
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void manifestWhenFolderListedThenOneEntryPerVectorFile(Mode mode) {
        VectorManifest manifest = VectorManifest.load(mode);

        assertThat(manifest.entries())
                .extracting(Entry::vector)
                .doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(GoldenVectors.names(mode));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("entries")
    void manifestWhenEntryReadThenAgreesWithTheVectorFile(Mode mode, Entry entry) {
        VectorManifest manifest = VectorManifest.load(mode);
        Map<String, Object> file = Json.parseObject(GoldenVectors.text(mode, entry.vector()));

        assertThat(file.get("format")).isEqualTo(manifest.format());
        if (file.containsKey("vector")) {
            assertThat(file.get("vector")).isEqualTo(entry.vector());
        }
        if (entry.kind() == Kind.CONSTANTS) {
            assertThat(file).doesNotContainKey("verification");
            assertThat(entry.originalCompatible()).isNull();
            assertThat(entry.strict()).isNull();
            return;
        }
        assertThat(entry.originalCompatible()).as("original-compatible verdict").isNotNull();
        assertThat(entry.strict()).as("strict verdict").isNotNull();
        if (entry.kind() == Kind.TOKEN) {
            assertThat(entry.audience()).as("who verifies").isNotNull();
            assertThat(entry.now()).as("the verifier's clock").isNotNull();
        }

        Object expectation = file.get("strict_implementation_expectation");
        if (expectation instanceof String s && s.startsWith("reject")) {
            assertThat(entry.strict().valid()).as("strict must reject: %s", s).isFalse();
        } else if (expectation instanceof String s) {
            assertThat(s).startsWith("accept");
            assertThat(entry.strict().valid()).isTrue();
        }
        if (!originalVerdicts(file).contains("valid")) {
            // never accept what every original verifier rejected
            assertThat(entry.originalCompatible().valid()).isFalse();
            assertThat(entry.strict().valid()).isFalse();
        }
    }

    private static List<String> originalVerdicts(Map<String, Object> file) {
        Object verification = file.get("verification");
        List<?> all = verification instanceof List<?> l ? l : List.of(verification);
        return all.stream().map(o -> (String) ((Map<?, ?>) o).get("result")).toList();
    }
}
