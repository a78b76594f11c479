package io.spiffeidt.support.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spiffeidt.testkit.Await;
import jakarta.servlet.FilterChain;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

class AdmissionFilterTests {

    /** Threads of its own: the common pool may have a single thread on a 2-core machine. */
    private final ExecutorService threads = Executors.newFixedThreadPool(4);

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    private static final AdmissionProperties ONE_SLOT_ONE_WAITING =
            new AdmissionProperties(true, 1, 1, Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofMillis(50));

    private static MockHttpServletRequest request(String path) {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", path);
        request.setRequestURI(path);
        return request;
    }

    private static MockHttpServletResponse run(
            AdmissionFilter filter, MockHttpServletRequest request, FilterChain chain) throws Exception {
        MockHttpServletResponse response = new MockHttpServletResponse();
        filter.doFilter(request, response, chain);
        return response;
    }

    @Test
    void filterWhenSlotsAndQueueFullThenImmediate503OverloadedWithRetryAfterAndChainNotRun() throws Exception {
        AdmissionFilter filter = new AdmissionFilter(ONE_SLOT_ONE_WAITING);
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<MockHttpServletResponse> first = CompletableFuture.supplyAsync(
                () -> {
                    try {
                        return run(filter, request("/dvid/balance"), (req, res) -> {
                            inside.countDown();
                            await(release);
                        });
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                },
                threads);
        assertThat(inside.await(5, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<MockHttpServletResponse> queued = CompletableFuture.supplyAsync(
                () -> {
                    try {
                        return run(
                                filter,
                                request("/dvid/balance"),
                                (req, res) -> ((jakarta.servlet.http.HttpServletResponse) res).setStatus(200));
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                },
                threads);
        awaitWaiting(filter);
        AtomicLong thirdRan = new AtomicLong();

        MockHttpServletResponse third = run(filter, request("/dvid/balance"), (req, res) -> thirdRan.incrementAndGet());

        assertThat(third.getStatus()).isEqualTo(503);
        assertThat(third.getHeader("Retry-After")).isEqualTo("1");
        assertThat(third.getContentType()).isEqualTo("application/problem+json");
        assertThat(third.getContentAsString()).contains("\"code\":\"OVERLOADED\"");
        assertThat(thirdRan).hasValue(0);
        release.countDown();
        assertThat(first.get(5, TimeUnit.SECONDS).getStatus()).isEqualTo(200);
        assertThat(queued.get(5, TimeUnit.SECONDS).getStatus()).isEqualTo(200);
        assertThat(filter.running()).isZero();
    }

    @Test
    void filterWhenQueuedLongerThanTheQueueWaitThen503() throws Exception {
        AdmissionFilter filter = new AdmissionFilter(
                new AdmissionProperties(true, 1, 4, Duration.ofMillis(50), Duration.ofSeconds(10), Duration.ZERO));
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Void> first = CompletableFuture.runAsync(
                () -> {
                    try {
                        run(filter, request("/x"), (req, res) -> {
                            inside.countDown();
                            await(release);
                        });
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                },
                threads);
        assertThat(inside.await(5, TimeUnit.SECONDS)).isTrue();

        MockHttpServletResponse second = run(
                filter, request("/x"), (req, res) -> ((jakarta.servlet.http.HttpServletResponse) res).setStatus(200));

        assertThat(second.getStatus()).isEqualTo(503);
        release.countDown();
        first.get(5, TimeUnit.SECONDS);
    }

    @Test
    void filterWhenDeadlineHeaderThenBoundDeadlineIsTheSmallerAndUnboundAfterwards() throws Exception {
        AdmissionFilter filter = new AdmissionFilter(ONE_SLOT_ONE_WAITING);
        MockHttpServletRequest request = request("/id-mode/balance");
        request.addHeader(Deadline.HEADER, "1500");
        AtomicLong seen = new AtomicLong(-1);

        MockHttpServletResponse response = run(
                filter,
                request,
                (req, res) -> seen.set(Deadline.current().orElseThrow().remainingMillis()));

        assertThat(response.getStatus()).isEqualTo(200);
        assertThat(seen.get()).isBetween(1L, 1500L);
        assertThat(Deadline.current()).isEmpty();
    }

    @Test
    void filterWhenNoHeaderThenTheConfiguredBudget() throws Exception {
        AtomicLong seen = new AtomicLong(-1);

        run(
                new AdmissionFilter(ONE_SLOT_ONE_WAITING),
                request("/x"),
                (req, res) -> seen.set(Deadline.current().orElseThrow().remainingMillis()));

        assertThat(seen.get()).isBetween(9_000L, 10_000L);
    }

    @Test
    void filterWhenDeadlineHeaderZeroThen504AndNoWork() throws Exception {
        MockHttpServletRequest request = request("/lsvid/deposit");
        request.addHeader(Deadline.HEADER, "0");
        AtomicLong ran = new AtomicLong();

        MockHttpServletResponse response =
                run(new AdmissionFilter(ONE_SLOT_ONE_WAITING), request, (req, res) -> ran.incrementAndGet());

        assertThat(response.getStatus()).isEqualTo(504);
        assertThat(response.getContentAsString()).contains("\"code\":\"DEADLINE_EXCEEDED\"");
        assertThat(ran).hasValue(0);
    }

    @Test
    void filterWhenDeadlineHeaderMalformedThen400MalformedNeverA500() throws Exception {
        for (String bad : new String[] {"", "-5", "1e3", "12.5", "0x10", "9999999999", " 100", "100000000"}) {
            MockHttpServletRequest request = request("/x");
            request.addHeader(Deadline.HEADER, bad);
            AtomicLong ran = new AtomicLong();

            MockHttpServletResponse response =
                    run(new AdmissionFilter(ONE_SLOT_ONE_WAITING), request, (req, res) -> ran.incrementAndGet());

            assertThat(response.getStatus()).as(bad).isEqualTo(400);
            assertThat(response.getContentAsString()).as(bad).contains("\"code\":\"MALFORMED\"");
            assertThat(ran).as(bad).hasValue(0);
        }
    }

    @Test
    void filterWhenActuatorPathThenNeverLimited() throws Exception {
        AdmissionFilter filter = new AdmissionFilter(
                new AdmissionProperties(true, 1, 0, Duration.ZERO, Duration.ofSeconds(10), Duration.ZERO));
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Void> busy = CompletableFuture.runAsync(
                () -> {
                    try {
                        run(filter, request("/x"), (req, res) -> {
                            inside.countDown();
                            await(release);
                        });
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                },
                threads);
        assertThat(inside.await(5, TimeUnit.SECONDS)).isTrue();

        MockHttpServletResponse health =
                run(filter, request("/actuator/health"), (req, res) -> ((jakarta.servlet.http.HttpServletResponse) res)
                        .setStatus(200));
        MockHttpServletResponse other = run(
                filter, request("/x"), (req, res) -> ((jakarta.servlet.http.HttpServletResponse) res).setStatus(200));

        assertThat(health.getStatus()).isEqualTo(200);
        assertThat(other.getStatus()).isEqualTo(503);
        release.countDown();
        busy.get(5, TimeUnit.SECONDS);
    }

    @Test
    void checkCurrentWhenDeadlinePassedThenDeadlineExceededElseNothing() {
        Deadline.bind(Deadline.afterMillis(0));
        try {
            assertThatThrownBy(() -> Deadline.checkCurrent("the commit"))
                    .isInstanceOfSatisfying(RequestRefusedException.class, e -> {
                        assertThat(e.status()).isEqualTo(504);
                        assertThat(e.code()).isEqualTo("DEADLINE_EXCEEDED");
                    });
        } finally {
            Deadline.unbind();
        }
        Deadline.checkCurrent("work without a request");
        Deadline.bind(Deadline.afterMillis(60_000));
        try {
            Deadline.checkCurrent("the commit");
            assertThat(Deadline.current()).isPresent();
        } finally {
            Deadline.unbind();
        }
    }

    @Test
    void propertiesWhenNonsenseThenRefused() {
        assertThatThrownBy(() -> new AdmissionProperties(true, 0, 1, null, null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("max-concurrent");
        assertThatThrownBy(() -> new AdmissionProperties(true, 1, -1, null, null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("queue-size");
        assertThatThrownBy(
                        () -> new AdmissionProperties(true, 1, 1, Duration.ofMillis(1), Duration.ZERO, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void awaitWaiting(AdmissionFilter filter) throws InterruptedException {
        assertThat(Await.until(filter::waiting, n -> n != 0, Duration.ofSeconds(5), Duration.ofMillis(10)))
                .isEqualTo(1);
    }
}
