package io.spiffeidt.devstack.workloadapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Value;
import com.nimbusds.jose.jwk.JWKSet;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.spiffe.workloadapi.grpc.Workload;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.devstack.ca.DevCa;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The wire contract of each RPC, checked with a bare gRPC client. */
class WorkloadApiProtocolIT {

    private static final SpiffeId SUBJECT = SpiffeId.parse("spiffe://example.org/subject-wl");
    private static final String M_TIER = "spiffe://example.org/m-tier";
    private static final String TRUST_DOMAIN_ID = "spiffe://example.org";

    @TempDir
    Path socketDir;

    private DevCa ca;
    private DevWorkloadApi api;
    private RawWorkloadApiChannel raw;

    @BeforeEach
    void start() {
        ca = DevCa.create("example.org", Duration.ofHours(1), Clock.systemUTC());
        api = DevWorkloadApi.start(ca, socketDir);
        raw = new RawWorkloadApiChannel(api.addWorkload("subject-wl", SUBJECT));
    }

    @AfterEach
    void stop() throws InterruptedException {
        raw.close();
        api.close();
    }

    @Test
    void verifyWhenX509SvidFetchedThenDerChainPkcs8KeyAndDerBundle() throws Exception {
        Workload.X509SVIDResponse response = raw.blocking(true)
                .fetchX509SVID(Workload.X509SVIDRequest.getDefaultInstance())
                .next();

        assertThat(response.getSvidsCount()).isEqualTo(1);
        Workload.X509SVID svid = response.getSvids(0);
        List<Certificate> chain = certificates(svid.getX509Svid().toByteArray());
        PrivateKey key = KeyFactory.getInstance("EC")
                .generatePrivate(new PKCS8EncodedKeySpec(svid.getX509SvidKey().toByteArray()));
        assertThat(svid.getSpiffeId()).isEqualTo(SUBJECT.toString());
        assertThat(chain).containsExactly(api.current("subject-wl").leaf());
        assertThat(key.getEncoded()).isEqualTo(api.current("subject-wl").key().getEncoded());
        assertThat(svid.getBundle().toByteArray()).isEqualTo(ca.root().getEncoded());
        assertThat(response.getFederatedBundlesMap()).isEmpty();
    }

    @Test
    void verifyWhenRotatedThenTheOpenStreamReceivesTheNewSvid() throws Exception {
        Iterator<Workload.X509SVIDResponse> stream =
                raw.blocking(true).fetchX509SVID(Workload.X509SVIDRequest.getDefaultInstance());
        Certificate first = certificates(stream.next().getSvids(0).getX509Svid().toByteArray())
                .get(0);

        api.rotate("subject-wl");
        Certificate second = certificates(
                        stream.next().getSvids(0).getX509Svid().toByteArray())
                .get(0);

        assertThat(second)
                .isNotEqualTo(first)
                .isEqualTo(api.current("subject-wl").leaf());
    }

    @Test
    void verifyWhenBundlesFetchedThenKeyedByTrustDomainId() throws Exception {
        Workload.X509BundlesResponse x509 = raw.blocking(true)
                .fetchX509Bundles(Workload.X509BundlesRequest.getDefaultInstance())
                .next();
        Workload.JWTBundlesResponse jwt = raw.blocking(true)
                .fetchJWTBundles(Workload.JWTBundlesRequest.getDefaultInstance())
                .next();

        assertThat(x509.getBundlesMap()).containsOnlyKeys(TRUST_DOMAIN_ID);
        assertThat(x509.getBundlesMap().get(TRUST_DOMAIN_ID).toByteArray())
                .isEqualTo(ca.root().getEncoded());
        assertThat(jwt.getBundlesMap()).containsOnlyKeys(TRUST_DOMAIN_ID);
        JWKSet jwks = JWKSet.parse(jwt.getBundlesMap().get(TRUST_DOMAIN_ID).toString(StandardCharsets.UTF_8));
        assertThat(jwks.getKeyByKeyId(ca.jwtKeyId())).isNotNull();
    }

    @Test
    void verifyWhenJwtSvidRequestedForOwnIdThenIssuedForTheAudience() {
        Workload.JWTSVIDResponse response = raw.blocking(true)
                .fetchJWTSVID(Workload.JWTSVIDRequest.newBuilder()
                        .addAudience(M_TIER)
                        .setSpiffeId(SUBJECT.toString())
                        .build());

        Workload.JWTSVID svid = response.getSvids(0);
        assertThat(svid.getSpiffeId()).isEqualTo(SUBJECT.toString());
        assertThat(ca.validateJwtSvid(svid.getSvid(), M_TIER).id()).isEqualTo(SUBJECT);
    }

    @Test
    void verifyWhenJwtSvidRequestedWithoutAudienceThenInvalidArgument() {
        assertStatus(
                () -> raw.blocking(true).fetchJWTSVID(Workload.JWTSVIDRequest.getDefaultInstance()),
                Status.Code.INVALID_ARGUMENT,
                "audience must be specified");
    }

    @Test
    void verifyWhenJwtSvidRequestedForAnotherIdThenPermissionDenied() {
        assertStatus(
                () -> raw.blocking(true)
                        .fetchJWTSVID(Workload.JWTSVIDRequest.newBuilder()
                                .addAudience(M_TIER)
                                .setSpiffeId(M_TIER)
                                .build()),
                Status.Code.PERMISSION_DENIED,
                M_TIER);
    }

    @Test
    void verifyWhenJwtSvidValidatedThenClaimsStructCarriesSubAudExp() {
        String token = ca.signJwtSvid(SUBJECT, List.of(M_TIER), Duration.ofMinutes(2));

        Workload.ValidateJWTSVIDResponse response = raw.blocking(true)
                .validateJWTSVID(Workload.ValidateJWTSVIDRequest.newBuilder()
                        .setAudience(M_TIER)
                        .setSvid(token)
                        .build());

        assertThat(response.getSpiffeId()).isEqualTo(SUBJECT.toString());
        var fields = response.getClaims().getFieldsMap();
        assertThat(fields.get("sub").getStringValue()).isEqualTo(SUBJECT.toString());
        Value aud = fields.get("aud");
        List<String> audience = new ArrayList<>();
        if (aud.hasListValue()) {
            aud.getListValue().getValuesList().forEach(v -> audience.add(v.getStringValue()));
        } else {
            audience.add(aud.getStringValue());
        }
        assertThat(audience).containsExactly(M_TIER);
        assertThat((long) fields.get("exp").getNumberValue())
                .isEqualTo(ca.validateJwtSvid(token, M_TIER).expiresAt().getEpochSecond());
    }

    @Test
    void verifyWhenValidateWithoutSvidOrAudienceThenInvalidArgument() {
        String token = ca.signJwtSvid(SUBJECT, List.of(M_TIER), Duration.ofMinutes(2));

        assertStatus(
                () -> raw.blocking(true)
                        .validateJWTSVID(Workload.ValidateJWTSVIDRequest.newBuilder()
                                .setAudience(M_TIER)
                                .build()),
                Status.Code.INVALID_ARGUMENT,
                "svid must be specified");
        assertStatus(
                () -> raw.blocking(true)
                        .validateJWTSVID(Workload.ValidateJWTSVIDRequest.newBuilder()
                                .setSvid(token)
                                .build()),
                Status.Code.INVALID_ARGUMENT,
                "audience must be specified");
    }

    @Test
    void verifyWhenValidateForgedSvidThenInvalidArgumentNamingTheCodeNotTheToken() {
        String forged = DevCa.create("example.org").signJwtSvid(SUBJECT, List.of(M_TIER), Duration.ofMinutes(2));

        assertThatThrownBy(() -> raw.blocking(true)
                        .validateJWTSVID(Workload.ValidateJWTSVIDRequest.newBuilder()
                                .setAudience(M_TIER)
                                .setSvid(forged)
                                .build()))
                .isInstanceOf(StatusRuntimeException.class)
                .hasMessageContaining("UNTRUSTED_KEY")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(forged.substring(0, 20)));
    }

    private static void assertStatus(ThrowingCallable call, Status.Code code, String message) {
        assertThatThrownBy(call)
                .isInstanceOf(StatusRuntimeException.class)
                .hasMessageContaining(message)
                .satisfies(
                        e -> assertThat(((StatusRuntimeException) e).getStatus().getCode())
                                .isEqualTo(code));
    }

    private static List<Certificate> certificates(byte[] der) throws Exception {
        return new ArrayList<>(
                CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(der)));
    }
}
