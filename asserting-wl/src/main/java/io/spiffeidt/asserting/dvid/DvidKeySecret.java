package io.spiffeidt.asserting.dvid;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.util.Base64;
import java.util.Objects;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Makes the DVID signing key that the asserting-wl replicas of a Kubernetes deployment share, once:
 * a one-shot Job ({@code deploy/k8s/base/spiffeidt/dvid-key-job.yaml}) runs it with the
 * asserting-wl image before the replicas can start. When the Secret already exists it leaves it
 * alone; otherwise it generates an RSA-2048 key (the workload's default DVID key type) and two EC
 * P-256 keys (the Txn-Token Service's and the WIT issuer's) and creates the Secret with them as PKCS#8
 * PEM under {@value #DEFAULT_FILE}, {@value #TXN_TOKEN_FILE} and {@value #WIT_ISSUER_FILE}. Two Jobs
 * racing both succeed:
 * the loser sees 409 and keeps the winner's key.
 *
 * <p>It talks to the Kubernetes API with the pod's service account (token, CA and namespace from
 * {@value #SERVICE_ACCOUNT_DIR}), needs only {@code get} and {@code create} on Secrets in its
 * namespace, and never prints the key or a Secret's body.
 *
 * <p>Environment: {@code KUBERNETES_SERVICE_HOST} / {@code KUBERNETES_SERVICE_PORT} (set by
 * Kubernetes), {@code SPIFFEIDT_DVID_SECRET_NAME} ({@value #DEFAULT_SECRET}), {@code
 * SPIFFEIDT_DVID_SECRET_FILE} ({@value #DEFAULT_FILE}). Exit status 0 when the Secret exists
 * afterwards, 1 otherwise.
 */
public final class DvidKeySecret {

    static final String SERVICE_ACCOUNT_DIR = "/var/run/secrets/kubernetes.io/serviceaccount";
    static final String DEFAULT_SECRET = "asserting-wl-dvid-key";
    static final String DEFAULT_FILE = "dvid-key.pem";
    /** The Txn-Token Service's key in the same Secret (EC P-256, {@code spiffeidt.txn-token.service.key-path}). */
    static final String TXN_TOKEN_FILE = "txn-token-key.pem";
    /** The WIT issuer's key in the same Secret (EC P-256, {@code spiffeidt.wimse.issuer.key-path}). */
    static final String WIT_ISSUER_FILE = "wit-issuer-key.pem";

    /** What happened. */
    public enum Outcome {
        /** The Secret was there already. */
        EXISTED,
        /** This run created it. */
        CREATED,
        /** Another run created it between our read and our create. */
        CREATED_CONCURRENTLY
    }

    private final URI apiServer;
    private final Path serviceAccount;
    private final String secretName;
    private final String fileName;

    /**
     * @param apiServer the API server's base URL ({@code https://host:port})
     * @param serviceAccount the directory holding {@code token}, {@code ca.crt} and {@code namespace}
     */
    public DvidKeySecret(URI apiServer, Path serviceAccount, String secretName, String fileName) {
        this.apiServer = Objects.requireNonNull(apiServer, "apiServer");
        this.serviceAccount = Objects.requireNonNull(serviceAccount, "serviceAccount");
        this.secretName = requireName(secretName, "secret name");
        this.fileName = requireName(fileName, "file name");
    }

    public static void main(String[] args) {
        String host = System.getenv("KUBERNETES_SERVICE_HOST");
        String port = Objects.requireNonNullElse(System.getenv("KUBERNETES_SERVICE_PORT"), "443");
        if (host == null || host.isBlank()) {
            System.err.println("dvid-key-secret: KUBERNETES_SERVICE_HOST is not set (run me as a Kubernetes Job)");
            System.exit(1);
        }
        String authority = host.contains(":") ? "[" + host + "]:" + port : host + ":" + port;
        try {
            Outcome outcome = new DvidKeySecret(
                            URI.create("https://" + authority),
                            Path.of(SERVICE_ACCOUNT_DIR),
                            Objects.requireNonNullElse(System.getenv("SPIFFEIDT_DVID_SECRET_NAME"), DEFAULT_SECRET),
                            Objects.requireNonNullElse(System.getenv("SPIFFEIDT_DVID_SECRET_FILE"), DEFAULT_FILE))
                    .ensure();
            System.out.println("dvid-key-secret: " + outcome.name().toLowerCase(java.util.Locale.ROOT));
        } catch (IOException | GeneralSecurityException | IllegalStateException e) {
            System.err.println("dvid-key-secret: " + e.getMessage());
            System.exit(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            System.exit(1);
        }
    }

    /**
     * Creates the Secret unless it exists.
     *
     * @throws IllegalStateException when the API server answers anything else than found, not found,
     *     created or conflict (the status only: the body may hold a Secret)
     */
    public Outcome ensure() throws IOException, GeneralSecurityException, InterruptedException {
        String token = Files.readString(serviceAccount.resolve("token"), StandardCharsets.US_ASCII)
                .strip();
        String namespace = requireName(
                Files.readString(serviceAccount.resolve("namespace"), StandardCharsets.US_ASCII)
                        .strip(),
                "namespace");
        HttpClient client = HttpClient.newBuilder()
                .sslContext(trusting(serviceAccount.resolve("ca.crt")))
                .connectTimeout(Duration.ofSeconds(10))
                .build();
        URI secrets = apiServer.resolve("/api/v1/namespaces/" + namespace + "/secrets");
        HttpResponse<Void> found = client.send(
                authorized(HttpRequest.newBuilder(secrets.resolve("secrets/" + secretName)), token)
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.discarding());
        if (found.statusCode() == 200) {
            return Outcome.EXISTED;
        }
        if (found.statusCode() != 404) {
            throw new IllegalStateException("reading Secret " + secretName + " answered " + found.statusCode());
        }
        HttpResponse<Void> created = client.send(
                authorized(HttpRequest.newBuilder(secrets), token)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(
                                secretJson(namespace, newKeyPem(), newEcKeyPem(), newEcKeyPem())))
                        .build(),
                HttpResponse.BodyHandlers.discarding());
        return switch (created.statusCode()) {
            case 200, 201 -> Outcome.CREATED;
            case 409 -> Outcome.CREATED_CONCURRENTLY;
            default ->
                throw new IllegalStateException("creating Secret " + secretName + " answered " + created.statusCode());
        };
    }

    /** A new RSA-2048 private key as PKCS#8 PEM ({@code PRIVATE KEY}), readable by {@link DvidSigningKey}. */
    static String newKeyPem() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        return pkcs8Pem(generator.generateKeyPair().getPrivate().getEncoded());
    }

    /** A new EC P-256 private key as PKCS#8 PEM: the Txn-Token Service's key, the WIT issuer's. */
    static String newEcKeyPem() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        return pkcs8Pem(generator.generateKeyPair().getPrivate().getEncoded());
    }

    private static String pkcs8Pem(byte[] der) {
        return "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                + "\n-----END PRIVATE KEY-----\n";
    }

    private String secretJson(String namespace, String dvidPem, String txnTokenPem, String witIssuerPem) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"type\":\"Opaque\",\"metadata\":{\"name\":\""
                + secretName + "\",\"namespace\":\"" + namespace + "\",\"labels\":{\"app.kubernetes.io/name\":"
                + "\"asserting-wl\",\"app.kubernetes.io/component\":\"dvid-key\"}},\"data\":{"
                + entry(fileName, dvidPem) + "," + entry(TXN_TOKEN_FILE, txnTokenPem) + ","
                + entry(WIT_ISSUER_FILE, witIssuerPem) + "}}";
    }

    private static String entry(String key, String pem) {
        return "\"" + key + "\":\"" + Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII))
                + "\"";
    }

    private static HttpRequest.Builder authorized(HttpRequest.Builder builder, String token) {
        return builder.header("Authorization", "Bearer " + token)
                .header("Accept", "application/json")
                .timeout(Duration.ofSeconds(30));
    }

    private static SSLContext trusting(Path caFile) throws IOException, GeneralSecurityException {
        KeyStore roots = KeyStore.getInstance(KeyStore.getDefaultType());
        roots.load(null, null);
        byte[] pem = Files.readAllBytes(caFile);
        int i = 0;
        try (InputStream in = new ByteArrayInputStream(pem)) {
            for (var cert : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                roots.setCertificateEntry("ca-" + i++, (X509Certificate) cert);
            }
        }
        if (i == 0) {
            throw new IllegalStateException("no CA certificate in " + caFile);
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(roots);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, tmf.getTrustManagers(), null);
        return context;
    }

    /** A Kubernetes object name or key (DNS-1123 subdomain characters, dots and underscores for keys). */
    private static String requireName(String name, String what) {
        if (name == null || !name.matches("[a-z0-9A-Z]([-a-z0-9A-Z._]{0,251}[a-z0-9A-Z])?")) {
            throw new IllegalStateException("invalid " + what);
        }
        return name;
    }
}
