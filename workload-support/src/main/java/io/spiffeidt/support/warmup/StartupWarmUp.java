package io.spiffeidt.support.warmup;

import io.spiffeidt.support.caller.AllowedCallers;
import java.net.URI;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.client.RestClient;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;

/**
 * Warms a workload's request path before it reports ready ("the first minute";
 * docs/operations.md "Warming up before ready"). Between the server's start and readiness, it makes
 * {@link WarmUpProperties#requests()} sequential POSTs to its own server, over the same HTTP client,
 * TLS and connection pool set-up as its calls downstream, presenting its own SVID. On the mTLS port no
 * endpoint allows the workload itself, so every call is refused with {@code 403} by the caller check,
 * having gone through the connector, TLS, the filters, Spring MVC, the interceptor and the problem
 * details answer (an endpoint that takes a form refuses its JSON body with {@code 415} before that);
 * on subject-wl's plain port the configured paths answer {@code 401} (no bearer token).
 * No call reaches an operation: a call answered with anything but a refusal ({@code 4xx}), or failing,
 * stops the warm-up with a warning. Either way the workload then reports ready: the warm-up saves time,
 * it does not check anything.
 *
 * <p>As a {@link HealthIndicator} it is {@code OUT_OF_SERVICE} while it runs, so {@code
 * /actuator/health} answers {@code 503} and neither Compose nor Kubernetes sends traffic to a workload
 * still warming; then {@code UP}, with what it sent and what came back.
 *
 * <p>Thread safety: {@link #run} runs once, on the start-up thread; {@link #health} and {@link #result}
 * may be read from any thread.
 */
public class StartupWarmUp implements ApplicationRunner, HealthIndicator {

    private static final Logger log = LoggerFactory.getLogger(StartupWarmUp.class);

    /**
     * What a finished warm-up did.
     *
     * @param paths the paths it called, round robin
     * @param sent calls answered
     * @param answers how many calls got each status
     * @param took from the first call to the last answer
     * @param stopped why it stopped before {@code requests} calls, if it did
     */
    public record Result(
            List<String> paths, int sent, Map<Integer, Integer> answers, Duration took, Optional<String> stopped) {
        public Result {
            paths = List.copyOf(paths);
            answers = Collections.unmodifiableMap(new TreeMap<>(answers));
        }
    }

    private final WarmUpProperties settings;
    private final Function<URI, RestClient> clients;
    private final Endpoints endpoints;
    private volatile int sent;
    private volatile Result result;

    /** Where the warm-up finds its own server and endpoints. */
    public interface Endpoints {
        /** The base URL of this workload's server ({@code https} on the mTLS port). */
        URI base();

        /** Whether the server port speaks SPIFFE mTLS, so that the caller check refuses the workload itself. */
        boolean mtls();

        /** The request mappings of the server's controllers. */
        Map<RequestMappingInfo, HandlerMethod> mappings();
    }

    /**
     * @param settings how many calls, how long at most, to which paths
     * @param clients makes the client to the workload's own server at a base URL
     * @param endpoints the server, read when the warm-up runs (the port is known only then)
     */
    public StartupWarmUp(WarmUpProperties settings, Function<URI, RestClient> clients, Endpoints endpoints) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.clients = Objects.requireNonNull(clients, "clients");
        this.endpoints = Objects.requireNonNull(endpoints, "endpoints");
    }

    @Override
    public void run(ApplicationArguments args) {
        List<String> paths = settings.paths().isEmpty() ? discovered() : settings.paths();
        if (settings.requests() == 0 || paths.isEmpty()) {
            if (settings.requests() > 0) {
                log.warn("warm-up skipped: no path to call (spiffeidt.warm-up.paths is empty and the server is "
                        + (endpoints.mtls() ? "serving no endpoint that declares its callers)" : "not mTLS)"));
            }
            result = new Result(paths, 0, Map.of(), Duration.ZERO, Optional.empty());
            return;
        }
        URI base = endpoints.base();
        RestClient rest = clients.apply(base);
        Map<Integer, Integer> answers = new TreeMap<>();
        String stopped = null;
        long start = System.nanoTime();
        long end = start + settings.timeLimit().toNanos();
        for (int i = 0; i < settings.requests(); i++) {
            if (System.nanoTime() - end > 0) {
                stopped = "time limit " + settings.timeLimit() + " reached";
                break;
            }
            String path = paths.get(i % paths.size());
            int status;
            try {
                status = rest.post()
                        .uri(path)
                        .contentType(MediaType.APPLICATION_JSON)
                        .body("{}")
                        .exchange((request, response) -> {
                            response.getBody().readAllBytes(); // the connection goes back to the pool
                            return response.getStatusCode().value();
                        });
            } catch (RuntimeException e) {
                stopped = "POST " + path + " failed: " + e.getClass().getSimpleName();
                break;
            }
            answers.merge(status, 1, Integer::sum);
            sent = i + 1;
            if (status < 400 || status > 499) {
                stopped = "POST " + path + " answered " + status + ", not a refusal";
                break;
            }
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        result = new Result(paths, sent, answers, took, Optional.ofNullable(stopped));
        if (stopped != null) {
            log.warn(
                    "warm-up stopped after {} of {} calls ({} ms): {}",
                    sent,
                    settings.requests(),
                    took.toMillis(),
                    stopped);
        } else {
            log.info(
                    "warm-up: {} calls to {} paths of {} in {} ms, answers {}",
                    sent,
                    paths.size(),
                    base,
                    took.toMillis(),
                    answers);
        }
    }

    /**
     * The POST endpoints that declare their allowed callers, on an mTLS port (which refuses the workload
     * itself at all of them), without path variables; sorted. None on a plain port, where the caller
     * check does not run.
     */
    List<String> discovered() {
        if (!endpoints.mtls()) {
            return List.of();
        }
        TreeSet<String> paths = new TreeSet<>();
        endpoints.mappings().forEach((info, method) -> {
            if (!info.getMethodsCondition().getMethods().contains(RequestMethod.POST)
                    || (AnnotatedElementUtils.findMergedAnnotation(method.getMethod(), AllowedCallers.class) == null
                            && AnnotatedElementUtils.findMergedAnnotation(method.getBeanType(), AllowedCallers.class)
                                    == null)) {
                return;
            }
            for (String pattern : info.getPatternValues()) {
                if (!pattern.contains("{") && !pattern.contains("*")) {
                    paths.add(pattern);
                }
            }
        });
        return List.copyOf(paths);
    }

    /** The finished warm-up, or empty while it runs (or before). */
    public Optional<Result> result() {
        return Optional.ofNullable(result);
    }

    @Override
    public Health health() {
        Result done = result;
        if (done == null) {
            return Health.outOfService()
                    .withDetail("sent", sent)
                    .withDetail("of", settings.requests())
                    .build();
        }
        Health.Builder up = Health.up().withDetail("sent", done.sent()).withDetail("answers", done.answers());
        done.stopped().ifPresent(why -> up.withDetail("stopped", why));
        return up.build();
    }
}
