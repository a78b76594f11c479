package io.spiffeidt.support.identity;

import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spiffeidt.core.ErrorCode;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class WorkloadApiX509SourceFactoryTests {

    @TempDir
    Path dir;

    @Test
    void verifyWhenNoWorkloadApiOnSocketThenUpstreamUnavailableWithinInitTimeout() {
        Path socket = dir.resolve("absent.sock");
        WorkloadApiX509SourceFactory factory =
                new WorkloadApiX509SourceFactory("unix:" + socket, Duration.ofSeconds(1));

        assertThatAssertion(factory::open).hasCode(ErrorCode.UPSTREAM_UNAVAILABLE);
    }

    @Test
    @Timeout(60)
    void openWhenMaxWaitShorterThanInitTimeoutThenGivesUpAfterMaxWait() {
        Path socket = dir.resolve("absent.sock");
        // an init timeout far beyond the test's own timeout: only the shorter wait lets it pass
        WorkloadApiX509SourceFactory factory = new WorkloadApiX509SourceFactory("unix:" + socket, Duration.ofHours(1));

        assertThatAssertion(() -> factory.open(Duration.ofMillis(200))).hasCode(ErrorCode.UPSTREAM_UNAVAILABLE);
    }

    @Test
    void verifyWhenSocketAddressInvalidThenIllegalState() {
        WorkloadApiX509SourceFactory factory = new WorkloadApiX509SourceFactory("ftp://nowhere", Duration.ofSeconds(1));

        assertThatThrownBy(factory::open).isInstanceOf(IllegalStateException.class);
    }
}
