package io.spiffeidt.devstack.ca;

import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jwt.SignedJWT;
import io.spiffe.bundle.jwtbundle.JwtBundle;
import io.spiffe.bundle.x509bundle.X509Bundle;
import io.spiffe.spiffeid.TrustDomain;
import io.spiffe.svid.jwtsvid.JwtSvid;
import io.spiffe.svid.x509svid.X509Svid;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.internal.X509Svids;
import io.spiffeidt.testkit.MutableClock;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPrivateKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DevCaTests {

    private static final Instant START = Instant.parse("2026-03-01T10:00:00Z");
    private static final Duration TTL = Duration.ofMinutes(30);
    private static final SpiffeId SUBJECT = SpiffeId.parse("spiffe://example.org/subject-wl");
    private static final String SERVER_AUTH = "1.3.6.1.5.5.7.3.1";
    private static final String CLIENT_AUTH = "1.3.6.1.5.5.7.3.2";
    private static final int SAN_URI = 6;

    private final MutableClock clock = MutableClock.at(START);
    private final DevCa ca = DevCa.create("example.org", TTL, clock);

    @Test
    void verifyWhenIssuedThenLeafIsNotCa() {
        X509Certificate leaf = ca.issue(SUBJECT).leaf();

        assertThat(leaf.getBasicConstraints()).isEqualTo(-1);
        assertThat(leaf.getCriticalExtensionOIDs()).contains("2.5.29.19");
    }

    @Test
    void verifyWhenIssuedThenLeafHasExactlyOneSanAndItIsTheUri() throws Exception {
        X509Certificate leaf = ca.issue(SUBJECT).leaf();

        Collection<List<?>> sans = leaf.getSubjectAlternativeNames();
        assertThat(sans).hasSize(1);
        List<?> san = sans.iterator().next();
        assertThat(san.get(0)).isEqualTo(SAN_URI);
        assertThat(san.get(1)).isEqualTo(SUBJECT.toString());
        assertThat(X509Svids.spiffeId(leaf)).isEqualTo(SUBJECT);
    }

    @Test
    void verifyWhenIssuedThenKeyUsageIsDigitalSignatureOnly() {
        boolean[] keyUsage = ca.issue(SUBJECT).leaf().getKeyUsage();

        assertThat(keyUsage).isNotNull();
        assertThat(keyUsage[0]).as("digitalSignature").isTrue();
        assertThat(keyUsage.length > 5 && keyUsage[5]).as("keyCertSign").isFalse();
        assertThat(keyUsage.length > 6 && keyUsage[6]).as("cRLSign").isFalse();
        int set = 0;
        for (boolean bit : keyUsage) {
            set += bit ? 1 : 0;
        }
        assertThat(set).isEqualTo(1);
    }

    @Test
    void verifyWhenIssuedThenExtendedKeyUsageIsServerAndClientAuth() throws Exception {
        List<String> eku = ca.issue(SUBJECT).leaf().getExtendedKeyUsage();

        assertThat(eku).containsExactlyInAnyOrder(SERVER_AUTH, CLIENT_AUTH);
    }

    @Test
    void verifyWhenIssuedThenValidityIsTheTtlFromTheClock() {
        X509Certificate leaf = ca.issue(SUBJECT).leaf();

        assertThat(leaf.getNotAfter().toInstant()).isEqualTo(START.plus(TTL));
        assertThat(leaf.getNotBefore().toInstant()).isBefore(START);
        assertThat(ca.issue(SUBJECT).expiresAt()).isEqualTo(START.plus(TTL));
    }

    @Test
    void verifyWhenIssuedThenChainPassesTheCoreSvidRulesAgainstTheRoot() {
        IssuedSvid svid = ca.issue(SUBJECT);

        assertThat(svid.chain()).hasSize(1);
        assertThat(X509Svids.validate(svid.chain(), ca.trustBundle(), START.plusSeconds(60), 0))
                .isEqualTo(SUBJECT);
    }

    @Test
    void verifyWhenTtlHasPassedThenChainNoLongerValidates() {
        IssuedSvid svid = ca.issue(SUBJECT);

        assertThatAssertion(() -> X509Svids.validate(
                        svid.chain(), ca.trustBundle(), START.plus(TTL).plusSeconds(1), 0))
                .hasCode(ErrorCode.UNTRUSTED_KEY);
    }

    @Test
    void verifyWhenOtherCaIssuedThenChainDoesNotValidate() {
        IssuedSvid foreign = DevCa.create("example.org", TTL, clock).issue(SUBJECT);

        assertThatAssertion(() -> X509Svids.validate(foreign.chain(), ca.trustBundle(), START, 0))
                .hasCode(ErrorCode.UNTRUSTED_KEY);
    }

    @Test
    void verifyWhenIssuedThenPrivateKeyIsP256AndMatchesTheLeaf() throws Exception {
        IssuedSvid svid = ca.issue(SUBJECT);
        byte[] data = "proof of possession".getBytes(StandardCharsets.UTF_8);

        Signature signer = Signature.getInstance("SHA256withECDSA");
        signer.initSign(svid.key());
        signer.update(data);
        byte[] signature = signer.sign();
        Signature verifier = Signature.getInstance("SHA256withECDSA");
        verifier.initVerify(svid.leaf().getPublicKey());
        verifier.update(data);

        assertThat(verifier.verify(signature)).isTrue();
        assertThat(((ECPrivateKey) svid.key()).getParams().getCurve().getField().getFieldSize())
                .isEqualTo(256);
        assertThat(svid.key().getFormat()).isEqualTo("PKCS#8");
    }

    @Test
    void verifyWhenIssuedTwiceThenNewKeyAndNewSerial() {
        IssuedSvid first = ca.issue(SUBJECT);
        IssuedSvid second = ca.issue(SUBJECT);

        assertThat(second.leaf().getSerialNumber()).isNotEqualTo(first.leaf().getSerialNumber());
        assertThat(second.leaf().getPublicKey()).isNotEqualTo(first.leaf().getPublicKey());
        assertThat(second.key().getEncoded()).isNotEqualTo(first.key().getEncoded());
    }

    @Test
    void verifyWhenIdOutsideTheTrustDomainThenIssueIsRefused() {
        SpiffeId foreign = SpiffeId.parse("spiffe://other.org/subject-wl");

        assertThatThrownBy(() -> ca.issue(foreign))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("other.org");
        assertThatThrownBy(() -> ca.signJwtSvid(foreign, List.of("a"), Duration.ofMinutes(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void verifyWhenTrustDomainInvalidThenCreateIsRefused() {
        assertThatThrownBy(() -> DevCa.create("Example.org/x", TTL, clock))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DevCa.create("example.org", Duration.ZERO, clock))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void verifyWhenRootThenSelfSignedCaWithCertSignAndTrustDomainSan() throws Exception {
        X509Certificate root = ca.root();

        root.verify(root.getPublicKey());
        assertThat(root.getBasicConstraints()).isGreaterThanOrEqualTo(0);
        assertThat(root.getKeyUsage()[5]).as("keyCertSign").isTrue();
        assertThat(root.getKeyUsage()[0]).as("digitalSignature").isFalse();
        assertThat(root.getSubjectAlternativeNames().iterator().next().get(1)).isEqualTo("spiffe://example.org");
        assertThat(root.getNotAfter().toInstant()).isAfter(START.plus(TTL));
        assertThat(ca.trustBundle().roots()).containsExactly(root);
    }

    @Test
    void verifyWhenParsedByJavaSpiffeThenSvidAndBundleAreAccepted() throws Exception {
        IssuedSvid svid = ca.issue(SUBJECT);

        X509Svid parsed = X509Svid.parseRaw(der(svid.chain()), svid.key().getEncoded());
        X509Bundle bundle =
                X509Bundle.parse(TrustDomain.parse("example.org"), ca.root().getEncoded());

        assertThat(parsed.getSpiffeId().toString()).isEqualTo(SUBJECT.toString());
        assertThat(parsed.getLeaf()).isEqualTo(svid.leaf());
        assertThat(bundle.getX509Authorities()).containsExactly(ca.root());
    }

    @Test
    void verifyWhenJwtSvidSignedThenItVerifiesWithTheBundleKeyNamedByKid() throws Exception {
        String token = ca.signJwtSvid(SUBJECT, List.of("spiffe://example.org/m-tier"), Duration.ofMinutes(5));

        SignedJWT jwt = SignedJWT.parse(token);
        JWKSet bundle = JWKSet.parse(ca.jwtBundleJson());
        JWK key = bundle.getKeyByKeyId(jwt.getHeader().getKeyID());

        assertThat(jwt.getHeader().getAlgorithm().getName()).isEqualTo("ES256");
        assertThat(jwt.getHeader().getKeyID()).isEqualTo(ca.jwtKeyId());
        assertThat(key).isNotNull();
        assertThat(key.isPrivate()).isFalse();
        assertThat(key.getKeyUse().identifier()).isEqualTo("jwt-svid");
        assertThat(jwt.verify(new ECDSAVerifier((ECKey) key))).isTrue();
    }

    @Test
    void verifyWhenJwtSvidSignedThenClaimsAreSubAudIatExp() throws Exception {
        String token = ca.signJwtSvid(SUBJECT, List.of("aud-1", "aud-2"), Duration.ofMinutes(5));

        var claims = SignedJWT.parse(token).getJWTClaimsSet();

        assertThat(claims.getSubject()).isEqualTo(SUBJECT.toString());
        assertThat(claims.getAudience()).containsExactly("aud-1", "aud-2");
        assertThat(claims.getIssueTime().toInstant()).isEqualTo(START);
        assertThat(claims.getExpirationTime().toInstant()).isEqualTo(START.plus(Duration.ofMinutes(5)));
    }

    @Test
    void verifyWhenJwtSvidValidThenValidateReturnsIdAndClaims() {
        String token = ca.signJwtSvid(SUBJECT, List.of("aud-1"), Duration.ofMinutes(5));

        VerifiedJwtSvid verified = ca.validateJwtSvid(token, "aud-1");

        assertThat(verified.id()).isEqualTo(SUBJECT);
        assertThat(verified.audience()).containsExactly("aud-1");
        assertThat(verified.expiresAt()).isEqualTo(START.plus(Duration.ofMinutes(5)));
        assertThat(verified.claims())
                .containsEntry("sub", SUBJECT.toString())
                .containsEntry("exp", START.plus(Duration.ofMinutes(5)).getEpochSecond());
    }

    @Test
    void verifyWhenJwtSvidForOtherAudienceThenWrongAudience() {
        String token = ca.signJwtSvid(SUBJECT, List.of("aud-1"), Duration.ofMinutes(5));

        assertCode(() -> ca.validateJwtSvid(token, "aud-2"), ErrorCode.WRONG_AUDIENCE);
    }

    @Test
    void verifyWhenJwtSvidLifetimeOverThenExpired() {
        String token = ca.signJwtSvid(SUBJECT, List.of("aud-1"), Duration.ofMinutes(5));
        clock.advance(Duration.ofMinutes(5));

        assertCode(() -> ca.validateJwtSvid(token, "aud-1"), ErrorCode.EXPIRED);
    }

    @Test
    void verifyWhenJwtSvidPayloadSwappedThenBadSignature() {
        String token = ca.signJwtSvid(SUBJECT, List.of("aud-1"), Duration.ofMinutes(5));
        String other = ca.signJwtSvid(SUBJECT, List.of("aud-2"), Duration.ofMinutes(5));
        String[] a = token.split("\\.");
        String[] b = other.split("\\.");
        String spliced = a[0] + "." + b[1] + "." + a[2];

        assertCode(() -> ca.validateJwtSvid(spliced, "aud-2"), ErrorCode.BAD_SIGNATURE);
    }

    @Test
    void verifyWhenJwtSvidFromAnotherCaThenUntrustedKey() {
        String foreign =
                DevCa.create("example.org", TTL, clock).signJwtSvid(SUBJECT, List.of("aud-1"), Duration.ofMinutes(5));

        assertCode(() -> ca.validateJwtSvid(foreign, "aud-1"), ErrorCode.UNTRUSTED_KEY);
    }

    @Test
    void verifyWhenJwtSvidGarbageThenMalformed() {
        assertCode(() -> ca.validateJwtSvid("not.a.jwt", "aud-1"), ErrorCode.MALFORMED);
        assertCode(() -> ca.validateJwtSvid("", "aud-1"), ErrorCode.MALFORMED);
    }

    @Test
    void verifyWhenJwtSvidCheckedByJavaSpiffeThenAcceptedWithTheJwtBundle() throws Exception {
        DevCa live = DevCa.create("example.org", TTL, Clock.systemUTC());
        String token = live.signJwtSvid(SUBJECT, List.of("aud-1"), Duration.ofMinutes(5));
        JwtBundle bundle = JwtBundle.parse(
                TrustDomain.parse("example.org"), live.jwtBundleJson().getBytes(StandardCharsets.UTF_8));

        JwtSvid svid = JwtSvid.parseAndValidate(token, bundle, Set.of("aud-1"));

        assertThat(svid.getSpiffeId().toString()).isEqualTo(SUBJECT.toString());
        assertThat(bundle.getJwtAuthorities()).containsOnlyKeys(live.jwtKeyId());
    }

    @Test
    void verifyWhenPrintedThenNoKeyMaterialAppears() {
        IssuedSvid svid = ca.issue(SUBJECT);

        assertThat(svid.toString())
                .contains(SUBJECT.toString())
                .doesNotContain("BEGIN")
                .hasSizeLessThan(200);
    }

    private static void assertCode(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, ErrorCode code) {
        assertThatAssertion(call).hasCode(code);
    }

    private static byte[] der(List<X509Certificate> chain) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<X509Certificate> certs = new ArrayList<>(chain);
        for (X509Certificate cert : certs) {
            out.write(cert.getEncoded());
        }
        return out.toByteArray();
    }
}
