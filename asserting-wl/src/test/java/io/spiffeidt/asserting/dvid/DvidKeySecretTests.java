package io.spiffeidt.asserting.dvid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.spiffeidt.asserting.keys.PemKeyPair;
import java.io.IOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPrivateKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The one-shot DVID key Job against a stand-in for the Kubernetes API server (no cluster runs
 * here): real HTTPS on loopback with a server certificate the service account's {@code ca.crt}
 * trusts, bearer-token checks, and the Secrets API's 200 / 404 / 201 / 409 answers.
 */
class DvidKeySecretTests {

    private static final String TOKEN = "sa-token-" + System.nanoTime();
    private static final Pattern DATA = Pattern.compile("\"dvid-key.pem\":\"([A-Za-z0-9+/=]+)\"");

    @TempDir
    Path dir;

    private HttpsServer server;
    private final Map<String, String> secrets = new ConcurrentHashMap<>();
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private volatile boolean raceOnCreate;
    private Path serviceAccount;
    private URI apiServer;

    @BeforeEach
    void start() throws Exception {
        KeyPair keys = ecKeys();
        X509Certificate cert = selfSigned(keys);
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setKeyEntry("api", keys.getPrivate(), new char[0], new X509Certificate[] {cert});
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(store, new char[0]);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(kmf.getKeyManagers(), null, null);
        server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(tls));
        server.createContext("/api/v1/namespaces/spiffeidt/secrets", this::handle);
        server.start();
        apiServer = URI.create("https://127.0.0.1:" + server.getAddress().getPort());
        serviceAccount = Files.createDirectories(dir.resolve("sa"));
        Files.writeString(serviceAccount.resolve("token"), TOKEN + "\n");
        Files.writeString(serviceAccount.resolve("namespace"), "spiffeidt");
        Files.writeString(serviceAccount.resolve("ca.crt"), pem(cert));
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        requests.add(exchange.getRequestMethod() + " " + path);
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        int status;
        if (!("Bearer " + TOKEN).equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
            status = 401;
        } else if (exchange.getRequestMethod().equals("GET")) {
            String name = path.substring(path.lastIndexOf('/') + 1);
            status = secrets.containsKey(name) ? 200 : 404;
        } else if (exchange.getRequestMethod().equals("POST") && path.endsWith("/secrets")) {
            Matcher name = Pattern.compile("\"name\":\"([^\"]+)\"").matcher(body);
            name.find();
            status = raceOnCreate || secrets.putIfAbsent(name.group(1), body) != null ? 409 : 201;
        } else {
            status = 405;
        }
        exchange.sendResponseHeaders(status, -1);
        exchange.close();
    }

    private DvidKeySecret job() {
        return new DvidKeySecret(apiServer, serviceAccount, "asserting-wl-dvid-key", "dvid-key.pem");
    }

    @Test
    void ensureWhenSecretMissingThenCreatesOneWithAnRsaKeyTheWorkloadReads() throws Exception {
        assertThat(job().ensure()).isEqualTo(DvidKeySecret.Outcome.CREATED);

        assertThat(requests)
                .containsExactly(
                        "GET /api/v1/namespaces/spiffeidt/secrets/asserting-wl-dvid-key",
                        "POST /api/v1/namespaces/spiffeidt/secrets");
        String secret = secrets.get("asserting-wl-dvid-key");
        assertThat(secret).contains("\"namespace\":\"spiffeidt\"").contains("\"type\":\"Opaque\"");
        Matcher data = DATA.matcher(secret);
        assertThat(data.find()).isTrue();
        Path keyFile = dir.resolve("dvid-key.pem");
        Files.write(keyFile, Base64.getDecoder().decode(data.group(1)));
        DvidSigningKey key = DvidSigningKey.loadOrGenerate(keyFile);
        assertThat(key.generated()).isFalse();
        assertThat(key.privateKey()).isInstanceOf(RSAPrivateKey.class);
        assertThat(((RSAPrivateKey) key.privateKey()).getModulus().bitLength()).isEqualTo(2048);
    }

    @ParameterizedTest
    @ValueSource(strings = {"txn-token-key.pem", "wit-issuer-key.pem"})
    void ensureWhenSecretMissingThenItAlsoHoldsAP256KeyOfItsOwn(String file) throws Exception {
        job().ensure();

        String secret = secrets.get("asserting-wl-dvid-key");
        Matcher data = Pattern.compile("\"" + Pattern.quote(file) + "\":\"([A-Za-z0-9+/=]+)\"")
                .matcher(secret);
        assertThat(data.find()).isTrue();
        Path keyFile = dir.resolve(file);
        Files.write(keyFile, Base64.getDecoder().decode(data.group(1)));
        KeyPair pair = PemKeyPair.read(keyFile, file);
        assertThat(pair.getPublic()).isInstanceOf(ECPublicKey.class);
        assertThat(((ECPublicKey) pair.getPublic())
                        .getParams()
                        .getCurve()
                        .getField()
                        .getFieldSize())
                .isEqualTo(256);
        // three keys, no two alike
        Matcher all = Pattern.compile("\"[a-z-]+\\.pem\":\"([A-Za-z0-9+/=]+)\"").matcher(secret);
        java.util.Set<String> keys = new java.util.HashSet<>();
        int count = 0;
        while (all.find()) {
            keys.add(all.group(1));
            count++;
        }
        assertThat(count).isEqualTo(3);
        assertThat(keys).hasSize(3);
    }

    @Test
    void ensureWhenSecretExistsThenLeftAloneAndNothingCreated() throws Exception {
        job().ensure();
        String first = secrets.get("asserting-wl-dvid-key");
        requests.clear();

        assertThat(job().ensure()).isEqualTo(DvidKeySecret.Outcome.EXISTED);

        assertThat(requests).containsExactly("GET /api/v1/namespaces/spiffeidt/secrets/asserting-wl-dvid-key");
        assertThat(secrets.get("asserting-wl-dvid-key")).isEqualTo(first);
    }

    @Test
    void ensureWhenAnotherJobCreatesItFirstThenConflictIsSuccess() throws Exception {
        raceOnCreate = true;

        assertThat(job().ensure()).isEqualTo(DvidKeySecret.Outcome.CREATED_CONCURRENTLY);
        assertThat(secrets).isEmpty();
    }

    @Test
    void ensureWhenTokenRefusedThenFailsWithTheStatusOnlyAndCreatesNothing() throws Exception {
        Files.writeString(serviceAccount.resolve("token"), "not-the-token");

        assertThatThrownBy(() -> job().ensure())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("answered 401")
                .hasMessageNotContaining("not-the-token");
        assertThat(secrets).isEmpty();
    }

    @Test
    void ensureWhenApiServerCertificateNotFromTheServiceAccountCaThenTlsFailsAndNothingIsSent() throws Exception {
        Files.writeString(serviceAccount.resolve("ca.crt"), pem(selfSigned(ecKeys())));

        assertThatThrownBy(() -> job().ensure()).isInstanceOf(SSLHandshakeException.class);
        assertThat(requests).isEmpty();
    }

    @Test
    void constructWhenNameNotAKubernetesNameThenRefused() {
        assertThatThrownBy(() -> new DvidKeySecret(apiServer, serviceAccount, "../evil", "dvid-key.pem"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("invalid secret name");
    }

    private static KeyPair ecKeys() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        return generator.generateKeyPair();
    }

    private static X509Certificate selfSigned(KeyPair keys) throws Exception {
        X500Name name = new X500Name("CN=kube-apiserver test");
        Instant now = Instant.now();
        JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                name,
                BigInteger.valueOf(now.toEpochMilli()),
                Date.from(now.minus(Duration.ofMinutes(5))),
                Date.from(now.plus(Duration.ofHours(1))),
                name,
                keys.getPublic());
        builder.addExtension(
                Extension.subjectAlternativeName,
                false,
                new GeneralNames(new GeneralName(GeneralName.iPAddress, "127.0.0.1")));
        return new JcaX509CertificateConverter()
                .getCertificate(builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate())));
    }

    private static String pem(X509Certificate cert) throws IOException {
        java.io.StringWriter out = new java.io.StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
            writer.writeObject(cert);
        }
        return out.toString();
    }
}
