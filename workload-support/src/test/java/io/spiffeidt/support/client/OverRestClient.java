package io.spiffeidt.support.client;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.spiffeidt.core.Mode;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.metrics.OperationMetrics;
import java.time.Duration;
import org.springframework.web.client.RestClient;

/** A {@link DownstreamClient} whose every call goes through one given RestClient (a test's real server). */
final class OverRestClient {

    private OverRestClient() {}

    static DownstreamClient client(Mode mode, Role downstream, RestClient rest) {
        return new DownstreamClient(
                mode,
                downstream,
                ConnectionStrategy.POOLED,
                new DownstreamClient.Transport() {
                    @Override
                    public <T> T call(DownstreamClient.RestCall<T> call) {
                        return call.on(rest);
                    }
                },
                Duration.ofMillis(250),
                new OperationMetrics(new SimpleMeterRegistry()));
    }
}
