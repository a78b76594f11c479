package io.spiffeidt.devstack.it;

import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.devstack.DevStack;
import io.spiffeidt.devstack.ca.IssuedSvid;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A test client of the embedded system: the user's side (plain HTTP to subject-wl and the IdP) and a
 * workload's side (SPIFFE mTLS with an SVID issued by the stack's Workload API, e.g. to pose as
 * subject-wl or as an intruder).
 */
public final class SystemClient {

    /** An HTTP answer: status, body and the {@code WWW-Authenticate} header ({@code null}: none). */
    public record Answer(int status, String body, String wwwAuthenticate) {

        /** An answer without a {@code WWW-Authenticate} header. */
        public Answer(int status, String body) {
            this(status, body, null);
        }

        /** The body as JSON. */
        public JsonNode json() {
            return JSON.readTree(body);
        }
    }

    static final JsonMapper JSON = JsonMapper.builder().build();

    private final DevStack stack;

    public SystemClient(DevStack stack) {
        this.stack = stack;
    }

    /** The dev IdP's answer to {@code user}'s login: its {@code access_token} and OIDC {@code id_token}. */
    public Answer idpTokens(String user) {
        return send(
                stack.idpUrl().resolve("/dev/token"),
                "POST",
                "application/x-www-form-urlencoded",
                "username=" + URLEncoder.encode(user, StandardCharsets.UTF_8) + "&password=password",
                Map.of(),
                null);
    }

    /** A user's access token from the dev IdP. */
    public String userToken(String user) {
        Answer a = idpTokens(user);
        if (a.status() != 200) {
            throw new IllegalStateException("IdP answered " + a.status());
        }
        return a.json().get("access_token").asString();
    }

    /** {@code POST /api/{mode}/{operation}} at subject-wl as the user of {@code token}. */
    public Answer user(String mode, String operation, String token, String jsonBody) {
        return user(mode, operation, token, jsonBody, Map.of());
    }

    /** As {@link #user(String, String, String, String)}, with more request headers. */
    public Answer user(String mode, String operation, String token, String jsonBody, Map<String, String> headers) {
        Map<String, String> all = new java.util.HashMap<>(headers);
        if (token != null) {
            all.put("Authorization", "Bearer " + token);
        }
        return send(
                stack.subjectUrl().resolve("/api/" + mode + "/" + operation),
                "POST",
                jsonBody == null ? null : "application/json",
                jsonBody,
                all,
                null);
    }

    /**
     * {@code POST path} with a JSON body at a workload's mTLS port, as the workload {@code asName}
     * (registered with the stack's Workload API under {@code spiffe://<td>/<asName>} if new).
     */
    public Answer asWorkload(String asName, String workload, String path, String jsonBody) {
        return asWorkload(asName, workload, path, jsonBody, Map.of());
    }

    /** As {@link #asWorkload(String, String, String, String)}, with request headers. */
    public Answer asWorkload(
            String asName, String workload, String path, String jsonBody, Map<String, String> headers) {
        SSLContext ssl = sslContextFor(asName);
        return send(stack.mtlsUrl(workload).resolve(path), "POST", "application/json", jsonBody, headers, ssl);
    }

    /**
     * As {@link #asWorkload(String, String, String, String)}, with request headers that may repeat:
     * each value of a name is sent as a header line of its own.
     */
    public Answer asWorkloadRepeating(
            String asName, String workload, String path, String jsonBody, Map<String, List<String>> headers) {
        SSLContext ssl = sslContextFor(asName);
        return sendLines(stack.mtlsUrl(workload).resolve(path), "POST", "application/json", jsonBody, headers, ssl);
    }

    /**
     * {@code POST path} with a form body ({@code application/x-www-form-urlencoded}, already
     * encoded) at a workload's mTLS port, as the workload {@code asName}: an OAuth request.
     */
    public Answer asWorkloadForm(String asName, String workload, String path, String formBody) {
        SSLContext ssl = sslContextFor(asName);
        return send(
                stack.mtlsUrl(workload).resolve(path),
                "POST",
                "application/x-www-form-urlencoded",
                formBody,
                Map.of(),
                ssl);
    }

    /** {@code GET path} at a workload's mTLS port, as the workload {@code asName}. */
    public Answer getAsWorkload(String asName, String workload, String path) {
        return send(stack.mtlsUrl(workload).resolve(path), "GET", null, null, Map.of(), sslContextFor(asName));
    }

    /** An mTLS context holding {@code name}'s current SVID and trusting the stack's root. */
    public SSLContext sslContextFor(String name) {
        if (!stack.workloadApi().workloads().contains(name)) {
            stack.workloadApi().addWorkload(name, stack.idOf(name));
        }
        return sslContextFor(stack.workloadApi().current(name));
    }

    /** An mTLS context holding a given (possibly superseded) SVID and trusting the stack's root. */
    public SSLContext sslContextFor(IssuedSvid svid) {
        try {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            ks.setKeyEntry("svid", svid.key(), new char[0], svid.chain().toArray(X509Certificate[]::new));
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, new char[0]);
            KeyStore ts = KeyStore.getInstance("PKCS12");
            ts.load(null, null);
            ts.setCertificateEntry("root", stack.workloadApi().ca().root());
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(ts);
            SSLContext ctx = SSLContext.getInstance("TLSv1.3");
            ctx.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
            return ctx;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The leaf certificate a workload's mTLS port presents now (a new handshake). */
    public X509Certificate serverLeaf(String workload) {
        SSLContext ssl = sslContextFor("probe");
        try {
            HttpsURLConnection c = (HttpsURLConnection)
                    stack.mtlsUrl(workload).resolve("/actuator").toURL().openConnection();
            c.setSSLSocketFactory(ssl.getSocketFactory());
            c.setHostnameVerifier((host, session) -> true);
            c.setConnectTimeout(5000);
            c.setReadTimeout(10000);
            c.connect();
            try {
                return (X509Certificate) c.getServerCertificates()[0];
            } finally {
                c.disconnect();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** GET a workload's Prometheus scrape (management port, plain HTTP). */
    public Answer prometheus(String workload) {
        return send(
                URI.create("http://127.0.0.1:" + stack.managementPort(workload) + "/actuator/prometheus"),
                "GET",
                null,
                null,
                Map.of(),
                null);
    }

    /**
     * The sum of every series of {@code metric} in a Prometheus {@code scrape} whose labels contain
     * each of {@code labels} (written as in the scrape, e.g. {@code mode="dvid"}).
     */
    public static double sum(String scrape, String metric, String... labels) {
        return scrape.lines()
                .filter(line -> line.startsWith(metric + "{"))
                .filter(line -> Arrays.stream(labels).allMatch(line::contains))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }

    /** The SPIFFE ID the stack gives {@code name}. */
    public SpiffeId idOf(String name) {
        return stack.idOf(name);
    }

    static Answer send(
            URI uri, String method, String contentType, String body, Map<String, String> headers, SSLContext ssl) {
        Map<String, List<String>> lines = new java.util.LinkedHashMap<>();
        headers.forEach((name, value) -> lines.put(name, List.of(value)));
        return sendLines(uri, method, contentType, body, lines, ssl);
    }

    private static Answer sendLines(
            URI uri,
            String method,
            String contentType,
            String body,
            Map<String, List<String>> headers,
            SSLContext ssl) {
        try {
            HttpURLConnection c = (HttpURLConnection) uri.toURL().openConnection();
            if (c instanceof HttpsURLConnection https) {
                https.setSSLSocketFactory(ssl.getSocketFactory());
                // SVIDs carry a URI SAN only; the SPIFFE ID is what the trust check is about
                https.setHostnameVerifier((host, session) -> true);
            }
            c.setRequestMethod(method);
            c.setConnectTimeout(5000);
            c.setReadTimeout(30000);
            headers.forEach((name, values) -> values.forEach(value -> c.addRequestProperty(name, value)));
            if (body != null) {
                c.setDoOutput(true);
                if (contentType != null) {
                    c.setRequestProperty("Content-Type", contentType);
                }
                try (OutputStream out = c.getOutputStream()) {
                    out.write(body.getBytes(StandardCharsets.UTF_8));
                }
            }
            int status = c.getResponseCode();
            InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream();
            String text = "";
            if (in != null) {
                try (in) {
                    ByteArrayOutputStream buf = new ByteArrayOutputStream();
                    in.transferTo(buf);
                    text = buf.toString(StandardCharsets.UTF_8);
                }
            }
            return new Answer(status, text, c.getHeaderField("WWW-Authenticate"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A JSON string literal. */
    public static String quote(String s) {
        return JSON.writeValueAsString(s);
    }
}
