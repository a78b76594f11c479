package io.spiffeidt.core.idmode;

import static io.spiffeidt.core.idmode.IdModeWorld.ASSERTING;
import static io.spiffeidt.core.idmode.IdModeWorld.CA;
import static io.spiffeidt.core.idmode.IdModeWorld.DPA;
import static io.spiffeidt.core.idmode.IdModeWorld.DPR;
import static io.spiffeidt.core.idmode.IdModeWorld.NOW;
import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.testkit.TestPki;
import java.security.Provider;
import java.security.Security;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Mint and extend round trips at depths 1 to 8 with freshly generated certificates, under the
 * BouncyCastle and the JDK (SunEC) providers: every hop verifies what it received as its
 * audience, bound to the presenting peer, then extends (docs/formats/id-mode.md "Extension").
 */
class IdModeRoundTripTests {

    private static final int MAX_DEPTH = 8;
    private static final List<IdModeCredentials> HOPS = IntStream.range(1, MAX_DEPTH + 1)
            .mapToObj(i -> i == 1 ? IdModeWorld.SUBJECT : IdModeWorld.credentials(CA.issue("hop-" + i)))
            .toList();

    static Stream<Arguments> depthsAndProviders() {
        List<Provider> providers = List.of(TestPki.BC, Security.getProvider("SunEC"));
        return providers.stream()
                .flatMap(p -> IntStream.rangeClosed(1, MAX_DEPTH).mapToObj(d -> Arguments.of(d, p)));
    }

    /** The workload that receives the token at {@code depth} (the audience of its outermost layer). */
    private static IdModeCredentials receiver(int depth) {
        return HOPS.get(depth - 1);
    }

    @ParameterizedTest(name = "depth {0}, {1}")
    @MethodSource("depthsAndProviders")
    void verifyWhenMintedAndExtendedToDepthThenEveryHopVerifies(int depth, Provider provider) {
        IdModeVerifier verifier = IdModeWorld.verifier(VerificationProfile.STRICT, provider);
        IdModePresentation p = new IdModeMinter(ASSERTING, IdModeWorld.time(), provider)
                .mint(receiver(1).spiffeId(), DPA, DPR, null);
        IdModeCredentials presenter = ASSERTING;
        for (int d = 1; d <= depth; d++) {
            IdModeCredentials self = receiver(d);
            VerifiedIdMode verified = verifier.verify(p, self.spiffeId(), IdModeWorld.presenter(presenter));
            assertThat(verified.depth()).isEqualTo(d);
            assertThat(verified.result().delegation().dpr()).isEqualTo(DPR);
            assertThat(verified.path().get(d - 1)).isEqualTo(presenter.spiffeId());
            if (d == depth) {
                List<SpiffeId> expectedPath = new ArrayList<>();
                expectedPath.add(ASSERTING.spiffeId());
                HOPS.subList(0, d - 1).forEach(h -> expectedPath.add(h.spiffeId()));
                assertThat(verified.path()).containsExactlyElementsOf(expectedPath);
                break;
            }
            p = new IdModeExtender(self, IdModeWorld.time(), Limits.defaults(), provider)
                    .extend(verified, receiver(d + 1).spiffeId());
            presenter = self;
        }
        IdModeToken token = IdModeToken.parse(p.token(), Limits.defaults());
        assertThat(token.depth()).isEqualTo(depth);
        assertThat(p.artifacts().size()).isEqualTo(depth);
        assertThat(p.token().split("\\.", -1)).hasSize(2 * depth);
    }

    @Test
    void verifyWhenPresentationSerializedThenParsesBackEqualAndVerifies() {
        IdModePresentation p = chain(5);
        IdModePresentation back = IdModePresentation.parse(p.toJson(), Limits.defaults());
        assertThat(back).isEqualTo(p);
        assertThat(back.artifacts().encodedSize())
                .isEqualTo(p.artifacts().toJson().length());
        assertThat(IdModeWorld.verifier()
                        .verify(back, receiver(5).spiffeId(), IdModeWorld.presenter(receiver(4)))
                        .depth())
                .isEqualTo(5);
    }

    @Test
    void verifyWhenArtifactsSentAsConcatenatedPemThenAccepted() {
        IdModePresentation p = chain(3);
        StringBuilder pem = new StringBuilder();
        for (List<java.security.cert.X509Certificate> c : p.artifacts().chains()) {
            pem.append("-----BEGIN CERTIFICATE-----\n")
                    .append(java.util.Base64.getMimeEncoder(64, new byte[] {'\n'})
                            .encodeToString(encoded(c.get(0))))
                    .append("\n-----END CERTIFICATE-----");
        }
        String body = "{\"token\":\"" + p.token() + "\",\"artifacts\":\""
                + pem.toString().replace("\n", "\\n") + "\"}";
        IdModePresentation fromPem = IdModePresentation.parse(body, Limits.defaults());
        assertThat(fromPem.artifacts()).isEqualTo(p.artifacts());
        assertThat(IdModeWorld.verifier()
                        .verify(fromPem, receiver(3).spiffeId(), IdModeWorld.presenter(receiver(2)))
                        .depth())
                .isEqualTo(3);
    }

    @Test
    void verifyWhenSizesPerDepthComputedThenTheyMatchEachHop() {
        List<IdModeSize> seen = new ArrayList<>();
        IdModePresentation p = new IdModeMinter(ASSERTING, IdModeWorld.time(), TestPki.BC)
                .mint(receiver(1).spiffeId(), DPA, DPR, null);
        seen.add(IdModeSize.of(p));
        for (int d = 1; d < MAX_DEPTH; d++) {
            p = IdModeWorld.extend(receiver(d), p, receiver(d + 1).spiffeId(), NOW);
            seen.add(p.size());
        }
        assertThat(IdModeSize.perDepth(p, Limits.defaults())).containsExactlyElementsOf(seen);
        for (int d = 1; d < seen.size(); d++) {
            IdModeSize prev = seen.get(d - 1);
            IdModeSize next = seen.get(d);
            assertThat(next.depth()).isEqualTo(prev.depth() + 1);
            // a hop adds one payload and one DER signature (spec: "~230 base64url characters")
            assertThat(next.tokenBytes() - prev.tokenBytes()).isBetween(150, 350);
            assertThat(next.artifactsBytes() - prev.artifactsBytes())
                    .isEqualTo(p.artifacts().toBase64().get(d).get(0).length() + 5);
        }
        assertThat(seen.get(MAX_DEPTH - 1).totalBytes())
                .isEqualTo(p.token().length() + p.artifacts().toJson().length());
    }

    @Test
    void verifyWhenExtendedThenExpNeverOutlivesInnerLayer() {
        Instant oauthExpiry = NOW.plusSeconds(50);
        IdModePresentation root = new IdModeMinter(ASSERTING, IdModeWorld.time(), TestPki.BC)
                .mint(receiver(1).spiffeId(), DPA, DPR, oauthExpiry);
        IdModePresentation two =
                IdModeWorld.extend(receiver(1), root, receiver(2).spiffeId(), NOW.plusSeconds(10));
        IdModeToken token = IdModeToken.parse(two.token(), Limits.defaults());
        assertThat(token.claims(0).expiresAt()).isEqualTo(oauthExpiry);
        assertThat(token.claims(1).expiresAt()).isEqualTo(oauthExpiry);
        assertThat(token.claims(1).issuedAt()).isEqualTo(NOW.plusSeconds(10));
    }

    @Test
    void verifyWhenMintedThenLifetimeIsTheDefault() {
        IdModePresentation root = IdModeWorld.mint(NOW);
        IdModeClaims claims = IdModeToken.parse(root.token(), Limits.defaults()).claims(0);
        assertThat(claims.issuedAt()).isEqualTo(NOW);
        assertThat(claims.expiresAt()).isEqualTo(NOW.plus(Duration.ofSeconds(120)));
        assertThat(claims.toJson())
                .startsWith("{\"aud\":\"" + receiver(1).spiffeId() + "\",\"dpa\":")
                .endsWith(",\"iss\":\"" + ASSERTING.spiffeId() + "\"}");
    }

    @Test
    void verifyWhenOauthTokenAlreadyExpiredThenMintRefuses() {
        IdModeMinter minter = new IdModeMinter(ASSERTING, IdModeWorld.time(), TestPki.BC);
        assertThatAssertion(() -> minter.mint(receiver(1).spiffeId(), DPA, DPR, NOW.minusSeconds(1)))
                .hasCode(ErrorCode.EXPIRED);
        assertThatAssertion(() -> minter.mint(receiver(1).spiffeId(), DPA, "", null))
                .hasCode(ErrorCode.MALFORMED);
    }

    @Test
    void verifyWhenExtendingBeyondDepthLimitThenLimitExceeded() {
        IdModePresentation two = chain(2);
        IdModeExtender extender = new IdModeExtender(
                receiver(2), IdModeWorld.time(), new Limits(256 * 1024, 2, 2048, 80, 256), TestPki.BC);
        assertThatAssertion(() -> extender.extend(two, receiver(3).spiffeId())).hasCode(ErrorCode.LIMIT_EXCEEDED);
    }

    @Test
    void verifyWhenCredentialsPrintedThenNoKeyMaterial() {
        assertThat(ASSERTING.toString()).isEqualTo("IdModeCredentials[" + ASSERTING.spiffeId() + "]");
        assertThat(chain(2).toString()).doesNotContain(chain(2).token().substring(0, 20));
    }

    @Test
    void verifyWhenSignerKeyFromBouncyCastleEcdsaGeneratorThenAcceptedAndNonP256Refused() {
        java.security.KeyPair ecdsa = TestPki.keyPair("ECDSA", new java.security.spec.ECGenParameterSpec("secp256r1"));
        assertThat(ecdsa.getPrivate().getAlgorithm()).isEqualTo("ECDSA");
        IdModeCredentials hop =
                IdModeWorld.credentials(CA.issue(ecdsa, CA.id("bc-hop"), false, TestPki.NOT_BEFORE, TestPki.NOT_AFTER));
        IdModePresentation root =
                new IdModeMinter(ASSERTING, IdModeWorld.time(), TestPki.BC).mint(hop.spiffeId(), DPA, DPR, null);
        IdModePresentation two = IdModeWorld.extend(hop, root, receiver(2).spiffeId(), NOW);
        assertThat(IdModeWorld.verifier()
                        .verify(two, receiver(2).spiffeId(), IdModeWorld.presenter(hop))
                        .depth())
                .isEqualTo(2);

        java.security.KeyPair p384 = TestPki.keyPair("EC", new java.security.spec.ECGenParameterSpec("secp384r1"));
        assertThatAssertion(() -> IdModeWorld.credentials(
                        CA.issue(p384, CA.id("p384"), false, TestPki.NOT_BEFORE, TestPki.NOT_AFTER)))
                .hasCode(ErrorCode.UNSUPPORTED);
    }

    /** A presentation of {@code depth} layers, addressed to {@code receiver(depth)}. */
    private static IdModePresentation chain(int depth) {
        IdModePresentation p = IdModeWorld.mint(NOW);
        for (int d = 1; d < depth; d++) {
            p = IdModeWorld.extend(receiver(d), p, receiver(d + 1).spiffeId(), NOW);
        }
        return p;
    }

    private static byte[] encoded(java.security.cert.X509Certificate c) {
        try {
            return c.getEncoded();
        } catch (java.security.cert.CertificateEncodingException e) {
            throw new IllegalStateException(e);
        }
    }
}
