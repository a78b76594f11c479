package io.spiffeidt.support.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Mode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class OperationMetricsTests {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final OperationMetrics metrics = new OperationMetrics(registry);

    private long count(String mode, String operation, String outcome) {
        return registry.get(OperationMetrics.OPERATION_TIMER)
                .tags("mode", mode, "operation", operation, "outcome", outcome)
                .timer()
                .count();
    }

    private double counter(String name, String... tags) {
        return registry.get(name).tags(tags).counter().count();
    }

    @Test
    void verifyWhenWorkSucceedsThenResultReturnedAndSuccessRecorded() {
        String result = metrics.time(Mode.ID_MODE, Operation.EXTEND, () -> "done");

        assertThat(result).isEqualTo("done");
        assertThat(count("id-mode", "extend", "success")).isEqualTo(1);
    }

    @Test
    void verifyWhenAssertionExceptionThenRethrownAndCodeRecorded() {
        assertThatThrownBy(() -> metrics.time(Mode.LSVID, Operation.VALIDATE, () -> {
                    throw new AssertionException(ErrorCode.BROKEN_LINK, 2, "link");
                }))
                .isInstanceOf(AssertionException.class);

        assertThat(count("lsvid", "validate", "BROKEN_LINK")).isEqualTo(1);
    }

    @Test
    void verifyWhenOtherExceptionThenRethrownUnchangedAndErrorRecorded() {
        IllegalStateException failure = new IllegalStateException("x");

        assertThatThrownBy(() -> metrics.run(Mode.ANON_MODE, Operation.DB_QUERY, () -> {
                    throw failure;
                }))
                .isSameAs(failure);

        assertThat(count("anon-mode", "db_query", "error")).isEqualTo(1);
    }

    @Test
    void verifyWhenRunThenTimed() {
        metrics.run(Mode.DVID, Operation.ZKP_GENERATION, () -> {});
        metrics.run(Mode.DVID, Operation.ZKP_GENERATION, () -> {});

        assertThat(count("dvid", "zkp_generation", "success")).isEqualTo(2);
    }

    @Test
    void verifyWhenTagsDifferInOnePlaceThenEachCombinationHasItsOwnMeter() {
        metrics.record(Mode.LSVID, Operation.VALIDATE, "success", 1_000);
        metrics.record(Mode.LSVID, Operation.VALIDATE, "EXPIRED", 2_000);
        metrics.record(Mode.LSVID, Operation.EXTEND, "success", 3_000);
        metrics.record(Mode.ID_MODE, Operation.VALIDATE, "success", 4_000);
        metrics.record(Mode.LSVID, Operation.VALIDATE, "success", 5_000);
        metrics.countProofMemo(Mode.LSVID, "hit");
        metrics.countClientHandshake("m-tier", "pooled");
        metrics.countClientHandshake("m-tier", "non-pooled");

        assertThat(count("lsvid", "validate", "success")).isEqualTo(2);
        assertThat(count("lsvid", "validate", "EXPIRED")).isEqualTo(1);
        assertThat(count("lsvid", "extend", "success")).isEqualTo(1);
        assertThat(count("id-mode", "validate", "success")).isEqualTo(1);
        assertThat(registry.get(OperationMetrics.OPERATION_TIMER)
                        .tags("mode", "lsvid", "operation", "validate", "outcome", "success")
                        .timer()
                        .totalTime(TimeUnit.NANOSECONDS))
                .isEqualTo(6_000.0);
        assertThat(counter(OperationMetrics.PROOF_MEMO, "mode", "lsvid", "result", "hit"))
                .isEqualTo(1.0);
        assertThat(counter(OperationMetrics.CLIENT_HANDSHAKES, "downstream", "m-tier", "pooling", "pooled"))
                .isEqualTo(1.0);
        assertThat(counter(OperationMetrics.CLIENT_HANDSHAKES, "downstream", "m-tier", "pooling", "non-pooled"))
                .isEqualTo(1.0);
    }

    @Test
    void verifyWhenDocumentSizeRecordedThenSummaryByModeAndDepth() {
        metrics.recordDocumentSize(Mode.ID_MODE, 3, 1200);
        metrics.recordDocumentSize(Mode.ID_MODE, 3, 1300);
        metrics.recordDocumentSize(Mode.ID_MODE, 4, 1700);

        var depth3 = registry.get(OperationMetrics.DOCUMENT_SIZE)
                .tags("mode", "id-mode", "depth", "3")
                .summary();
        assertThat(depth3.count()).isEqualTo(2);
        assertThat(depth3.totalAmount()).isEqualTo(2500.0);
        assertThat(registry.get(OperationMetrics.DOCUMENT_SIZE)
                        .tags("mode", "id-mode", "depth", "4")
                        .summary()
                        .count())
                .isEqualTo(1);
    }

    @Test
    void verifyWhenOperationsListedThenTagValuesDistinctSnakeCaseAndEachDocumentedInOperationsTable() throws Exception {
        String table = Files.readString(Path.of("..", "docs", "operations.md"));

        assertThat(Arrays.stream(Operation.values()).map(Operation::tagValue))
                .doesNotHaveDuplicates()
                .allMatch(v -> v.matches("[a-z]+(_[a-z]+)*"))
                .allMatch(v -> table.contains("| `" + v + "` |"));
    }
}
