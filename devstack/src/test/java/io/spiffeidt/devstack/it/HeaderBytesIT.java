package io.spiffeidt.devstack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.devstack.DevStackSettings;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * Bytes a header must not hold, sent as raw bytes (no client library in between) in every header a
 * workload reads, at each of the four workloads: C1 control bytes, NUL, DEL, 0xFF, invalid UTF-8 and
 * a header over Tomcat's limit. A control byte or an overlong header is a 400 problem detail with a
 * code in every header; 0xFF and broken UTF-8 are characters, refused with a code by the parser of a
 * header the request needs and never a server error elsewhere. The log quotes neither the value (for
 * {@code Authorization}, a real access token) nor a stack trace.
 */
@ExtendWith(OutputCaptureExtension.class)
class HeaderBytesIT extends EmbeddedStackIT {

    /** The headers a workload reads, from the user or between the tiers. */
    private static final List<String> HEADERS = List.of(
            "Authorization",
            "Idempotency-Key",
            "traceparent",
            "Cookie",
            "Txn-Token",
            "SpiffeIdt-User",
            "Spiffeidt-Timeout-Ms");

    /** The headers a deposit in DVID needs at every tier: a bad byte in them is always refused. */
    private static final List<String> REQUIRED = List.of("Authorization", "Idempotency-Key");

    /** What is appended to a value: name, bytes, and whether they hold a control character. */
    private static final List<Object[]> BYTES = List.of(
            new Object[] {"C1 0x85", new byte[] {(byte) 0x85}, true},
            new Object[] {"C1 0x9F", new byte[] {(byte) 0x9f}, true},
            new Object[] {"NUL", new byte[] {0}, true},
            new Object[] {"DEL", new byte[] {0x7f}, true},
            new Object[] {"0xFF", new byte[] {(byte) 0xff}, false},
            new Object[] {"invalid UTF-8", new byte[] {(byte) 0xc3, 0x28}, false},
            new Object[] {"overlong", "A".repeat(64 * 1024).getBytes(StandardCharsets.US_ASCII), false});

    private static final Pattern STATUS = Pattern.compile("^HTTP/1\\.1 (\\d{3})");
    private static final Pattern CODE = Pattern.compile("\"code\":\"([A-Z_]+)\"");

    private static String token;

    @BeforeAll
    static void start() {
        startStack(DevStackSettings.ephemeral());
        token = client.userToken("user0001");
    }

    static Stream<Arguments> cases() {
        List<Arguments> all = new ArrayList<>();
        for (String workload : List.of("subject-wl", "asserting-wl", "m-tier", "target-wl")) {
            for (String header : HEADERS) {
                for (Object[] b : BYTES) {
                    all.add(Arguments.of(workload, header, b[0], b[1], b[2]));
                }
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("cases")
    void requestWhenHeaderHoldsBadBytesThen4xxWithCodeAndNothingLogged(
            String workload, String header, String what, byte[] bad, boolean control, CapturedOutput output)
            throws Exception {
        String marker = "SECRET" + UUID.randomUUID().toString().replace("-", "");
        String value = header.equals("Authorization") ? "Bearer " + token : marker;

        String answer = send(workload, header, value, bad);

        Matcher status = STATUS.matcher(answer);
        assertThat(status.find()).as(answer).isTrue();
        int code = Integer.parseInt(status.group(1));
        if (control || what.equals("overlong") || REQUIRED.contains(header)) {
            // refused before anything reads it, or by the parser of a header the request needs
            assertThat(code).as(answer).isBetween(400, 499);
            Matcher problem = CODE.matcher(answer);
            assertThat(problem.find()).as("a problem with a code: %s", answer).isTrue();
            if (header.equals("Idempotency-Key") && !what.equals("overlong") && workload.equals("subject-wl")) {
                assertThat(problem.group(1)).as(answer).isEqualTo("IDEMPOTENCY_KEY_INVALID");
            }
        } else {
            // a printable byte in a header this request does not need (an optional trace context, a
            // cookie, another mode's header) is a character like any other: never a server error
            assertThat(code).as(answer).isLessThan(500);
        }
        assertThat(answer).doesNotContain(marker).doesNotContain(token.substring(0, 40));
        assertThat(output.getAll())
                .doesNotContain(marker)
                .doesNotContain(token.substring(0, 40))
                .doesNotContain(token.substring(token.length() - 40))
                .doesNotContainPattern("\\n\\s+at [a-z]")
                .doesNotContain("internal error");
    }

    @Test
    void depositWhenOutsideTestsCurlThen400AndTheTokenNeverLogged(CapturedOutput output) throws Exception {
        // the outside test's request: a valid token with a C1 byte after it
        String answer = send("subject-wl", "Authorization", "Bearer " + token, new byte[] {(byte) 0x85});

        assertThat(answer).startsWith("HTTP/1.1 400").contains("\"code\":\"MALFORMED\"");
        assertThat(answer).contains("WWW-Authenticate: Bearer error=\"invalid_request\"");
        assertThat(output.getAll()).doesNotContain("eyJ").contains("request header Authorization");
    }

    @Test
    void pageWhenCookieOrCsrfHeaderHoldsAC1ByteThen400BeforeSpringSecurity(CapturedOutput output) throws Exception {
        for (String header : List.of("Cookie", "X-XSRF-TOKEN")) {
            String marker = "SECRET" + UUID.randomUUID().toString().replace("-", "");

            String answer = send("subject-wl", "/page/api/dvid/balance", header, marker, new byte[] {(byte) 0x85});

            assertThat(answer).as(answer).startsWith("HTTP/1.1 400").contains("\"code\":\"MALFORMED\"");
            assertThat(output.getAll()).doesNotContain(marker).doesNotContainPattern("\\n\\s+at [a-z]");
        }
    }

    /**
     * A parameter Tomcat cannot decode, in the query string of each workload's path or in a form body
     * (the Txn-Token Service, the IdP's {@code /dev/token}): 400 with a problem where the workload reads
     * parameters, never a 500, and neither the value nor a stack trace in the log.
     */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "subject-wl, /api/dvid/balance?q=%ZZ",
        "subject-wl, /page/session?q=%ZZ",
        "asserting-wl, /dvid/mint?q=%C3%28",
        "m-tier, /dvid/balance?q=%ZZ",
        "target-wl, /dvid/balance?q=%ZZ",
        "asserting-wl, /txn-token/token",
        "idp, /dev/token"
    })
    void requestWhenParameterCannotBeDecodedThen400AndNothingLogged(String workload, String path, CapturedOutput output)
            throws Exception {
        String marker = "SECRET" + UUID.randomUUID().toString().replace("-", "");
        boolean form = !path.contains("?");
        byte[] body = (form
                        ? "grant_type=x&username=user0001&password=%ZZ" + marker + "&subject_token=%C3%28" + marker
                        : "{}")
                .getBytes(StandardCharsets.US_ASCII);
        String target = form ? path : path + marker;
        String request = "POST " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                + "Authorization: Bearer " + token + "\r\nContent-Type: "
                + (form ? "application/x-www-form-urlencoded" : "application/json") + "\r\nContent-Length: "
                + body.length + "\r\n\r\n";
        byte[] bytes = new byte[request.length() + body.length];
        System.arraycopy(request.getBytes(StandardCharsets.US_ASCII), 0, bytes, 0, request.length());
        System.arraycopy(body, 0, bytes, request.length(), body.length);

        String answer = exchange(workload, bytes);

        assertThat(answer).as(answer).startsWith("HTTP/1.1 400");
        assertThat(answer).doesNotContain(marker);
        assertThat(output.getAll())
                .doesNotContain(marker)
                .doesNotContain(token.substring(0, 40))
                .doesNotContainPattern("\\n\\s+at [a-z]");
    }

    /**
     * One POST with {@code header: value} followed by {@code bad}, to {@code workload} (as its usual
     * caller over mTLS, or plain HTTP at subject-wl); the whole answer as ISO-8859-1 text.
     */
    private static String send(String workload, String header, String value, byte[] bad) throws IOException {
        String path =
                switch (workload) {
                    case "subject-wl" -> "/api/dvid/deposit";
                    case "asserting-wl" -> "/dvid/mint";
                    default -> "/dvid/deposit";
                };
        return send(workload, path, header, value, bad);
    }

    private static String send(String workload, String path, String header, String value, byte[] bad)
            throws IOException {
        byte[] body = "{\"amount\":1}".getBytes(StandardCharsets.US_ASCII);
        ByteArrayOutputStream request = new ByteArrayOutputStream();
        request.writeBytes(("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                        + "Content-Type: application/json\r\nContent-Length: " + body.length + "\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        if (!header.equals("Authorization")) {
            request.writeBytes(("Authorization: Bearer " + token + "\r\n").getBytes(StandardCharsets.US_ASCII));
        }
        request.writeBytes((header + ": " + value).getBytes(StandardCharsets.US_ASCII));
        request.writeBytes(bad);
        request.writeBytes("\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        request.writeBytes(body);
        return exchange(workload, request.toByteArray());
    }

    /** {@code request} as it is to {@code workload} (the IdP and subject-wl over plain HTTP); the answer. */
    private static String exchange(String workload, byte[] request) throws IOException {
        URI base =
                switch (workload) {
                    case "idp" -> stack.idpUrl();
                    case "subject-wl" -> stack.subjectUrl();
                    default -> stack.mtlsUrl(workload);
                };
        String caller = workload.equals("target-wl") ? "m-tier" : "subject-wl";
        try (Socket socket = open(workload, base, caller)) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(request);
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            try {
                in.transferTo(answer);
            } catch (IOException e) {
                // the server may close after a refused request before the client has read everything
                if (answer.size() == 0) {
                    throw e;
                }
            }
            return answer.toString(StandardCharsets.ISO_8859_1);
        }
    }

    private static Socket open(String workload, URI base, String caller) throws IOException {
        if (workload.equals("subject-wl") || workload.equals("idp")) {
            return new Socket(base.getHost(), base.getPort());
        }
        SSLSocket ssl = (SSLSocket)
                client.sslContextFor(caller).getSocketFactory().createSocket(base.getHost(), base.getPort());
        ssl.startHandshake();
        return ssl;
    }
}
