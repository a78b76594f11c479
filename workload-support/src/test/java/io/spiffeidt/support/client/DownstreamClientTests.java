package io.spiffeidt.support.client;

import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Mode;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.metrics.Operation;
import io.spiffeidt.support.metrics.OperationMetrics;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@link DownstreamClient#post(Operation, String, Object, Class)}: the call to the next tier is timed
 * by the client, under the operation the caller names, with the relayed code as outcome.
 */
class DownstreamClientTests {

    private final MeterRegistry registry = new SimpleMeterRegistry();

    private DownstreamClient client(DownstreamClient.Transport transport) {
        return new DownstreamClient(
                Mode.ID_MODE,
                Role.TARGET_WL,
                ConnectionStrategy.POOLED,
                transport,
                Duration.ofMillis(250),
                new OperationMetrics(registry));
    }

    @Test
    void postWhenAnsweredThenTimedAsTheNamedOperation() {
        DownstreamClient client = client(new DownstreamClient.Transport() {
            @Override
            @SuppressWarnings("unchecked")
            public <T> T call(DownstreamClient.RestCall<T> call) {
                return (T) "answer";
            }
        });

        assertThat(client.post(Operation.TARGET_CALL, "/id-mode/balance", "{}", String.class))
                .isEqualTo("answer");

        assertThat(timer("target_call", "success").count()).isEqualTo(1);
    }

    @Test
    void postWhenTheDownstreamRejectsThenTimedWithItsCode() {
        DownstreamClient client = client(new DownstreamClient.Transport() {
            @Override
            public <T> T call(DownstreamClient.RestCall<T> call) {
                throw new AssertionException(ErrorCode.WRONG_PRESENTER, "target-wl answered WRONG_PRESENTER");
            }
        });

        assertThatAssertion(() -> client.post(Operation.TARGET_CALL, "/id-mode/balance", "{}", String.class))
                .hasCode(ErrorCode.WRONG_PRESENTER);

        assertThat(timer("target_call", "WRONG_PRESENTER").count()).isEqualTo(1);
    }

    @Test
    void postWhenUntimedThenNoOperationRecorded() {
        DownstreamClient client = client(new DownstreamClient.Transport() {
            @Override
            @SuppressWarnings("unchecked")
            public <T> T call(DownstreamClient.RestCall<T> call) {
                return (T) "keys";
            }
        });

        client.get("/dvid/keys", String.class);

        assertThat(registry.find(OperationMetrics.OPERATION_TIMER).timers()).isEmpty();
    }

    private Timer timer(String operation, String outcome) {
        Timer timer = registry.find(OperationMetrics.OPERATION_TIMER)
                .tag("mode", "id-mode")
                .tag("operation", operation)
                .tag("outcome", outcome)
                .timer();
        assertThat(timer).isNotNull();
        return timer;
    }
}
