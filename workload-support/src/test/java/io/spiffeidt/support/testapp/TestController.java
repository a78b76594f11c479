package io.spiffeidt.support.testapp;

import io.spiffe.workloadapi.X509Source;
import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.Mode;
import io.spiffeidt.support.caller.AllowedCallers;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.identity.WorkloadApiX509SourceFactory;
import io.spiffeidt.support.identity.WorkloadIdentity;
import io.spiffeidt.support.metrics.Operation;
import io.spiffeidt.support.metrics.OperationMetrics;
import io.spiffeidt.support.testing.StaticX509Source;
import io.spiffeidt.support.testing.TestIdentities;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Positive;
import java.net.ConnectException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Endpoints exercising authorization, the Caller parameter and the problem mappings. */
@RestController
@RequestMapping("/test")
public class TestController {

    private final OperationMetrics metrics;
    private final WorkloadIdentity identity;
    private final X509Source source;

    TestController(OperationMetrics metrics, WorkloadIdentity identity, X509Source source) {
        this.metrics = metrics;
        this.identity = identity;
        this.source = source;
    }

    /** Echoes who called, over which connection. */
    @AllowedCallers({Role.M_TIER, Role.SUBJECT_WL})
    @PostMapping("/echo")
    public Map<String, Object> echo(@RequestBody Map<String, Object> body, Caller caller, HttpServletRequest request) {
        return metrics.time(Mode.DVID, Operation.VALIDATE, () -> {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("caller", caller.id().toString());
            out.put("keyAlgorithm", caller.publicKey().getAlgorithm());
            out.put("leafMatchesKey", caller.leaf().getPublicKey().equals(caller.publicKey()));
            out.put("leafSerial", caller.leaf().getSerialNumber().toString(16));
            out.put("remotePort", request.getRemotePort());
            out.put("sessionId", String.valueOf(request.getAttribute("jakarta.servlet.request.ssl_session_id")));
            out.put("body", body);
            out.put("contentLength", request.getContentLengthLong());
            out.put("transferEncoding", String.valueOf(request.getHeader("Transfer-Encoding")));
            return out;
        });
    }

    /**
     * Reads this workload's SVID, rotates the server's source to a new SVID and reads it again: the
     * serials of both reads and of the source's SVID afterwards.
     */
    @AllowedCallers(Role.M_TIER)
    @PostMapping("/rotate-mid-request")
    public Map<String, Object> rotateMidRequest() {
        String first = identity.svid().getLeaf().getSerialNumber().toString(16);
        ((StaticX509Source) source).rotate(TestIdentities.PKI.issue(TestIdentities.id(Role.TARGET_WL)));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("first", first);
        out.put("second", identity.svid().getLeaf().getSerialNumber().toString(16));
        out.put("live", source.getX509Svid().getLeaf().getSerialNumber().toString(16));
        return out;
    }

    /** Released by a test to let the calls waiting in {@link #hold} answer. */
    public static volatile CountDownLatch release = new CountDownLatch(0);

    /** Signalled when a call has entered {@link #hold}. */
    public static volatile CountDownLatch entered = new CountDownLatch(0);

    /** Answers like {@link #echo} once {@link #release} is released (at most 10 s). */
    @AllowedCallers(Role.M_TIER)
    @PostMapping("/hold")
    public Map<String, Object> hold(@RequestBody Map<String, Object> body, Caller caller, HttpServletRequest request)
            throws InterruptedException {
        entered.countDown();
        boolean released = release.await(10, TimeUnit.SECONDS);
        Map<String, Object> out = echo(body, caller, request);
        out.put("released", released);
        return out;
    }

    /** Only target-wl may call. */
    @AllowedCallers(Role.TARGET_WL)
    @PostMapping("/target-only")
    public Map<String, Object> targetOnly(@RequestBody Map<String, Object> body) {
        return body;
    }

    /** No annotation: refused on the mTLS port. */
    @PostMapping("/unannotated")
    public Map<String, Object> unannotated(@RequestBody Map<String, Object> body) {
        return body;
    }

    /** Fails with the code named in the body. */
    @AllowedCallers(Role.M_TIER)
    @PostMapping("/fail")
    public Map<String, Object> fail(@RequestBody Map<String, String> body) {
        throw new AssertionException(ErrorCode.valueOf(body.get("code")), "test failure");
    }

    /** An unexpected failure with a detail that must not leak. */
    @AllowedCallers(Role.M_TIER)
    @PostMapping("/boom")
    public Map<String, Object> boom() {
        throw new IllegalStateException("secret internal detail");
    }

    /** Bean validation of the body. */
    @AllowedCallers(Role.M_TIER)
    @PostMapping("/validated")
    public Deposit validated(@Valid @RequestBody Deposit deposit) {
        return deposit;
    }

    /** A required integer parameter. */
    @AllowedCallers(Role.M_TIER)
    @GetMapping("/param")
    public Map<String, Object> param(@RequestParam("n") int n) {
        return Map.of("n", n);
    }

    /** The size limit of docs/formats/common.md on the raw body. */
    @AllowedCallers(Role.M_TIER)
    @PostMapping("/size")
    public Map<String, Object> size(@RequestBody String body) {
        Limits.defaults().checkEncodedSize(body.getBytes(StandardCharsets.UTF_8).length);
        return Map.of("bytes", body.length());
    }

    /** A depth limit (400, not 413). */
    @AllowedCallers(Role.M_TIER)
    @PostMapping("/depth")
    public Map<String, Object> depth() {
        Limits.defaults().checkDepth(33);
        return Map.of();
    }

    /** An upstream that refused the connection (503). */
    @AllowedCallers(Role.M_TIER)
    @PostMapping("/refused")
    public Map<String, Object> refused() {
        throw new AssertionException(
                ErrorCode.UPSTREAM_UNAVAILABLE, "asserting-wl unavailable", new ConnectException("refused"));
    }

    /**
     * A fresh X.509 source on a Workload API that is not there, as a call under a fresh-source
     * strategy meets an agent that is down (503, the wait bounded by what is left of the request).
     */
    @AllowedCallers(Role.M_TIER)
    @PostMapping("/no-workload-api")
    public Map<String, Object> noWorkloadApi() {
        new WorkloadApiX509SourceFactory("unix:/nonexistent/spiffeidt-agent.sock", Duration.ofMinutes(5))
                .open(Duration.ofMillis(300));
        return Map.of();
    }

    /** A deposit request. */
    public record Deposit(@NotBlank String user, @Positive long amount) {}
}
