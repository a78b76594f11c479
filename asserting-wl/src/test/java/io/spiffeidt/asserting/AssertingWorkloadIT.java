package io.spiffeidt.asserting;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.VerifiedResult;
import io.spiffeidt.core.dvid.RemoteValidation;
import io.spiffeidt.core.dvid.VerifiedDvid;
import io.spiffeidt.core.idmode.VerifiedIdMode;
import io.spiffeidt.core.lsvid.Lsvid;
import io.spiffeidt.core.zkp.OAuthProof;
import io.spiffeidt.core.zkp.VerifiedProofs;
import io.spiffeidt.support.anonmode.AnonModeHop;
import io.spiffeidt.support.dvid.DvidHop;
import io.spiffeidt.support.hop.Received;
import io.spiffeidt.support.hop.Verified;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.idmode.IdModeHop;
import io.spiffeidt.support.lsvid.LsvidHop;
import io.spiffeidt.support.metrics.OperationMetrics;
import io.spiffeidt.support.oauth.ProofCheck;
import io.spiffeidt.support.testing.RunningWorkload;
import io.spiffeidt.support.testing.StaticX509Source;
import io.spiffeidt.support.testing.TestHops;
import io.spiffeidt.support.testing.TestIdentities;
import io.spiffeidt.support.testing.TestOAuthIssuer;
import io.spiffeidt.support.wire.AccessTokenRequest;
import io.spiffeidt.support.wire.AnonModeIntrospectRequest;
import io.spiffeidt.support.wire.IntrospectRequest;
import io.spiffeidt.support.wire.LsvidExtendRequest;
import io.spiffeidt.support.wire.LsvidExtendResponse;
import io.spiffeidt.support.wire.MintResponse;
import io.spiffeidt.support.wire.ValidateRequest;
import io.spiffeidt.support.wire.ValidateResponse;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The asserting workload on its own: the real application with its SVID from a development
 * Workload API and a local OpenID provider, called over SPIFFE mTLS as the subject, middle tier and
 * target would call it; what it answers is checked with those tiers' hops.
 */
class AssertingWorkloadIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final StaticX509Source SUBJECT = TestIdentities.source(Role.SUBJECT_WL);

    @TempDir
    static Path dir;

    private static TestOAuthIssuer idp;
    private static RunningWorkload asserting;

    private final IdModeHop idModeSubject = TestHops.idMode(Role.SUBJECT_WL, SUBJECT);
    private final LsvidHop lsvidSubject = TestHops.lsvid(Role.SUBJECT_WL, SUBJECT);
    private final DvidHop dvidMtier = TestHops.dvid(Role.M_TIER, TestIdentities.source(Role.M_TIER));
    private final AnonModeHop anonTarget = TestHops.anonMode(Role.TARGET_WL, TestIdentities.source(Role.TARGET_WL));
    private final AnonModeHop anonSubject = TestHops.anonMode(Role.SUBJECT_WL, SUBJECT);

    @BeforeAll
    static void start() throws Exception {
        idp = new TestOAuthIssuer();
        asserting = RunningWorkload.start(
                AssertingWorkloadApplication.class,
                Role.ASSERTING_WL,
                dir,
                Map.of(
                        "spiffeidt.oauth.issuers[0].issuer",
                        idp.issuer(),
                        "spiffeidt.oauth.issuers[0].audience",
                        "spiffeidt"));
    }

    @AfterAll
    static void stop() {
        if (asserting != null) {
            asserting.close();
        }
        idp.close();
    }

    private static HttpResponse<String> post(StaticX509Source caller, String path, Object body) throws Exception {
        return asserting.post(caller, path, JSON.writeValueAsString(body));
    }

    private static HttpResponse<String> post(Role caller, String path, Object body) throws Exception {
        return asserting.post(caller, path, JSON.writeValueAsString(body));
    }

    private static <T> T ok(HttpResponse<String> response, Class<T> type) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JSON.readValue(response.body(), type);
    }

    private static long count(String mode, String operation) {
        Timer timer = asserting
                .meters()
                .find(OperationMetrics.OPERATION_TIMER)
                .tags("mode", mode, "operation", operation, "outcome", "success")
                .timer();
        return timer == null ? 0 : timer.count();
    }

    @Test
    void idModeWhenSubjectMintsThenRootAddressedToItNamesTheUserOfTheToken() throws Exception {
        MintResponse minted = ok(
                post(SUBJECT, "/id-mode/ecdsa-assertion", new AccessTokenRequest(idp.token("user0001"))),
                MintResponse.class);

        VerifiedIdMode root = idModeSubject
                .accept(new Received(minted.token(), minted.artifacts()))
                .document();

        assertThat(root.depth()).isEqualTo(1);
        assertThat(root.result().delegation().dpr()).isEqualTo("user0001");
        assertThat(root.result().delegation().dpa()).isEqualTo(idp.issuer());
        assertThat(minted.oauth().subject()).isEqualTo("user0001");
        assertThat(count("id-mode", "oauth_verify")).isPositive();
        assertThat(count("id-mode", "jwks_fetch")).isPositive();
        assertThat(count("id-mode", "mint")).isPositive();
    }

    @Test
    void mintWhenAtTheModesMintPathOrItsOriginalAliasThenTheSameRootAndTheAliasAsStrict() throws Exception {
        MintResponse idMode =
                ok(post(SUBJECT, "/id-mode/mint", new AccessTokenRequest(idp.token("user0008"))), MintResponse.class);
        MintResponse anonMode =
                ok(post(SUBJECT, "/anon-mode/mint", new AccessTokenRequest(idp.token("user0008"))), MintResponse.class);
        MintResponse anonAlias = ok(
                post(SUBJECT, "/anon-mode/schnorr-assertion", new AccessTokenRequest(idp.token("user0008"))),
                MintResponse.class);
        HttpResponse<String> aliasFromMtier =
                post(Role.M_TIER, "/anon-mode/schnorr-assertion", new AccessTokenRequest(idp.token("user0008")));
        HttpResponse<String> mintFromMtier =
                post(Role.M_TIER, "/id-mode/mint", new AccessTokenRequest(idp.token("user0008")));

        assertThat(idModeSubject
                        .accept(new Received(idMode.token(), idMode.artifacts()))
                        .delegation()
                        .dpr())
                .isEqualTo("user0008");
        assertThat(anonMode.oauth().subject()).isEqualTo("user0008");
        assertThat(anonAlias.oauth().subject()).isEqualTo("user0008");
        assertThat(aliasFromMtier.statusCode()).isEqualTo(403);
        assertThat(mintFromMtier.statusCode()).isEqualTo(403);
    }

    @Test
    void mintWhenCallerIsNotTheSubjectOrTokenFromAnotherIssuerThenRefused() throws Exception {
        HttpResponse<String> fromMtier =
                post(Role.M_TIER, "/id-mode/ecdsa-assertion", new AccessTokenRequest(idp.token("user0002")));
        try (TestOAuthIssuer stranger = new TestOAuthIssuer()) {
            HttpResponse<String> foreign =
                    post(SUBJECT, "/dvid/mint", new AccessTokenRequest(stranger.token("user0002")));

            assertThat(foreign.statusCode()).isBetween(400, 499);
            assertThat(JSON.readTree(foreign.body()).get("code").asString()).isEqualTo("UNKNOWN_ISSUER");
        }
        assertThat(fromMtier.statusCode()).isEqualTo(403);
    }

    @Test
    void dvidWhenMintedThenMiddleTierValidationAndIntrospectionProveTheUser() throws Exception {
        MintResponse minted =
                ok(post(SUBJECT, "/dvid/mint", new AccessTokenRequest(idp.token("user0003"))), MintResponse.class);

        ValidateResponse validated =
                ok(post(Role.M_TIER, "/dvid/validate", ValidateRequest.of(minted.token())), ValidateResponse.class);
        VerifiedDvid dvid = RemoteValidation.accept(
                validated.result(), validated.jti(), validated.subject(), dvidMtier.idOf(Role.SUBJECT_WL));
        OAuthProof proof =
                ok(post(Role.M_TIER, "/dvid/introspect", IntrospectRequest.of(minted.token(), null)), OAuthProof.class);
        HttpResponse<String> fromSubject = post(SUBJECT, "/dvid/validate", ValidateRequest.of(minted.token()));

        assertThat(dvid.subject().toString()).isEqualTo(TestIdentities.id(Role.SUBJECT_WL));
        assertThat(dvid.dpr()).isEqualTo("user0003");
        proofCheck(Mode.DVID).verify(proof, dvid.result().delegation(), idp.idpKeys());
        assertThat(fromSubject.statusCode()).isEqualTo(403);
    }

    @Test
    void dvidValidateWhenIntrospectionAskedThenOneAnswerCarriesBothAndErrorsAreThoseOfValidation() throws Exception {
        MintResponse minted =
                ok(post(SUBJECT, "/dvid/mint", new AccessTokenRequest(idp.token("user0007"))), MintResponse.class);
        String token = minted.token();
        long validations = count("dvid", "validate");

        String plain =
                post(Role.M_TIER, "/dvid/validate", ValidateRequest.of(token)).body();
        ValidateResponse both = ok(
                post(Role.M_TIER, "/dvid/validate", ValidateRequest.introspecting(token, null)),
                ValidateResponse.class);
        OAuthProof alone =
                ok(post(Role.M_TIER, "/dvid/introspect", IntrospectRequest.of(token, null)), OAuthProof.class);
        JsonNode unchanged = ok(
                        post(Role.M_TIER, "/dvid/validate", ValidateRequest.introspecting(token, alone.digest())),
                        JsonNode.class)
                .get("introspection");
        HttpResponse<String> digestAlone =
                post(Role.M_TIER, "/dvid/validate", Map.of("token", token, "proofDigest", alone.digest()));
        String forged = token.substring(0, token.length() - 4) + (token.endsWith("AAAA") ? "BBBB" : "AAAA");
        HttpResponse<String> forgedPlain = post(Role.M_TIER, "/dvid/validate", ValidateRequest.of(forged));
        HttpResponse<String> forgedBoth =
                post(Role.M_TIER, "/dvid/validate", ValidateRequest.introspecting(forged, alone.digest()));

        // without the flag the answer is as before, with no introspection field
        assertThat(JSON.readTree(plain).has("introspection")).isFalse();
        assertThat(JSON.readValue(plain, ValidateResponse.class).result()).isEqualTo(both.result());
        // with it: the proof /dvid/introspect gives, from one verification of the DVID
        assertThat(both.introspection().proof()).isEqualTo(alone);
        proofCheck(Mode.DVID).verify(both.introspection().proof(), both.result().delegation(), idp.idpKeys());
        assertThat(count("dvid", "validate")).isEqualTo(validations + 3);
        // the held proof's digest gets exactly {"unchanged":true}
        assertThat(unchanged.size()).isEqualTo(1);
        assertThat(unchanged.get("unchanged").asBoolean()).isTrue();
        // a digest without the flag is refused; a refused DVID is refused the same way either way
        assertThat(digestAlone.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(digestAlone.body()).get("code").asString()).isEqualTo("MALFORMED");
        assertThat(forgedBoth.statusCode()).isEqualTo(forgedPlain.statusCode()).isBetween(400, 499);
        assertThat(JSON.readTree(forgedBoth.body()).get("code").asString())
                .isEqualTo(JSON.readTree(forgedPlain.body()).get("code").asString());
        assertThat(forgedBoth.body()).doesNotContain("\"zkp\"").doesNotContain("unchanged");
    }

    @Test
    void dvidValidateWhenBodyIsBadThenMalformedAndTheNextGoodRequestIsAnswered() throws Exception {
        MintResponse minted =
                ok(post(SUBJECT, "/dvid/mint", new AccessTokenRequest(idp.token("user0008"))), MintResponse.class);
        String token = JSON.writeValueAsString(minted.token());
        List<String> bad = List.of(
                "{\"token\":" + token + ",\"introspect\":\"yes\"}",
                "{\"token\":" + token + ",\"introspect\":1}",
                "{\"token\":" + token + ",\"introspect\":true,\"proofDigest\":\"short\"}",
                "{\"token\":" + token + ",\"amount\":null}",
                "{\"token\":" + token + ",\"introspect\":true,\"introspect\":false}",
                "{\"introspect\":true}",
                "not json");

        for (String body : bad) {
            HttpResponse<String> answer = asserting.post(Role.M_TIER, "/dvid/validate", body);
            assertThat(answer.statusCode()).as(body).isEqualTo(400);
            assertThat(JSON.readTree(answer.body()).get("code").asString())
                    .as(body)
                    .isEqualTo("MALFORMED");
            assertThat(answer.body()).as(body).doesNotContain("\"zkp\"");
        }
        ValidateResponse after = ok(
                post(Role.M_TIER, "/dvid/validate", ValidateRequest.introspecting(minted.token(), null)),
                ValidateResponse.class);
        assertThat(after.introspection().proof().msg()).isNotBlank();
    }

    @Test
    void introspectWhenOfferedDigestIsTheKeptProofsThenUnchangedElseTheProof() throws Exception {
        MintResponse minted = ok(
                post(SUBJECT, "/id-mode/ecdsa-assertion", new AccessTokenRequest(idp.token("user0006"))),
                MintResponse.class);
        String root = minted.token();
        OAuthProof proof =
                ok(post(Role.TARGET_WL, "/id-mode/introspect", IntrospectRequest.of(root, null)), OAuthProof.class);
        String other = proof.digest().charAt(0) == 'A'
                ? "B" + proof.digest().substring(1)
                : "A" + proof.digest().substring(1);

        String unchanged = ok(
                        post(Role.TARGET_WL, "/id-mode/introspect", IntrospectRequest.of(root, proof.digest())),
                        JsonNode.class)
                .toString();
        OAuthProof again =
                ok(post(Role.TARGET_WL, "/id-mode/introspect", IntrospectRequest.of(root, other)), OAuthProof.class);
        HttpResponse<String> malformed =
                post(Role.TARGET_WL, "/id-mode/introspect", Map.of("token", root, "proofDigest", "not a digest"));

        // the answer is exactly {"unchanged":true}: no msg, no zkp, no key
        assertThat(JSON.readTree(unchanged).size()).isEqualTo(1);
        assertThat(JSON.readTree(unchanged).get("unchanged").asBoolean()).isTrue();
        assertThat(again).isEqualTo(proof);
        assertThat(malformed.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(malformed.body()).get("code").asString()).isEqualTo("MALFORMED");
    }

    @Test
    void anonModeWhenRootMintedThenTargetIntrospectsItsRootAndTheProofNamesTheUser() throws Exception {
        MintResponse minted = ok(
                post(SUBJECT, "/anon-mode/schnorr-assertion", new AccessTokenRequest(idp.token("user0004"))),
                MintResponse.class);
        VerifiedResult atSubject =
                anonSubject.accept(Received.of(minted.token())).result();
        String forwarded = anonSubject.forward(minted.token(), Role.M_TIER).token();

        OAuthProof proof = ok(
                post(
                        Role.TARGET_WL,
                        "/anon-mode/introspect",
                        new AnonModeIntrospectRequest(anonTarget.verifier().rootIdentifier(forwarded))),
                OAuthProof.class);

        assertThat(atSubject.delegation().dpr()).isEqualTo("user0004");
        proofCheck(Mode.ANON_MODE).verify(proof, atSubject.delegation(), idp.idpKeys());
    }

    @Test
    void lsvidWhenSubjectSendsItsRequestThenDelegatedAnswerVerifiesAtTheSubject() throws Exception {
        String request = lsvidSubject.begin(Role.ASSERTING_WL).token();

        LsvidExtendResponse answer = ok(
                post(SUBJECT, "/lsvid/extendlsvid", new LsvidExtendRequest(idp.token("user0005"), request)),
                LsvidExtendResponse.class);
        Verified<Lsvid> verified = lsvidSubject.accept(Received.of(answer.lsvid()));

        assertThat(verified.delegation().dpr()).isEqualTo("user0005");
        assertThat(verified.delegation().dpa()).isEqualTo(idp.issuer());
        assertThat(count("lsvid", "validate")).isPositive();
        assertThat(count("lsvid", "mint")).isPositive();
    }

    /** The check of introspection proofs a verifier of {@code mode} makes, without a memo: every proof in full. */
    private static ProofCheck proofCheck(Mode mode) {
        return new ProofCheck(
                mode,
                VerificationProfile.STRICT,
                Limits.defaults(),
                null,
                VerifiedProofs.none(),
                new OperationMetrics(new SimpleMeterRegistry()));
    }
}
