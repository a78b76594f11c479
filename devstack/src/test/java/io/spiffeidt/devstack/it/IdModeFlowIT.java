package io.spiffeidt.devstack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.Limits;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.idmode.IdModeArtifacts;
import io.spiffeidt.core.idmode.IdModeCredentials;
import io.spiffeidt.core.idmode.IdModeExtender;
import io.spiffeidt.core.idmode.IdModeMinter;
import io.spiffeidt.core.idmode.IdModePresentation;
import io.spiffeidt.core.idmode.IdModeToken;
import io.spiffeidt.devstack.DevStackSettings;
import io.spiffeidt.devstack.ca.IssuedSvid;
import io.spiffeidt.devstack.it.SystemClient.Answer;
import java.nio.charset.StandardCharsets;
import java.security.Provider;
import java.time.Clock;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * ID-Mode through the four tiers over real SPIFFE mTLS (the development Workload API) with the
 * development IdP: the shared flow contract ({@link ModeFlowContractIT}), and the ID-Mode attacks at the
 * middle tier and the target (replay by another workload, stripped outer layer, tampered middle
 * layer, a chain started by a non-asserting workload), each followed by a working request.
 *
 * <p>Attack tokens are built here with the real workloads' current SVIDs (the test holds what a
 * compromised workload would hold) and the core minter and extender, which sign but never verify.
 */
class IdModeFlowIT extends ModeFlowContractIT {

    private static final String MODE = "id-mode";
    private static final Limits LIMITS = Limits.defaults();
    private static final TimeRules TIME = TimeRules.defaults(Clock.systemUTC());
    private static final Provider BC = new BouncyCastleProvider();

    @BeforeAll
    static void start() {
        startStack(DevStackSettings.ephemeral());
    }

    @Override
    String mode() {
        return MODE;
    }

    @Override
    void assertMinted(JsonNode mint, String user, String accessToken) {
        assertThat(mint.get("claims").get("aud").asString()).isEqualTo(id("subject-wl"));
        assertThat(mint.get("claims").get("iss").asString()).isEqualTo(id("asserting-wl"));
        assertThat(mint.get("token").asString().split("\\.", -1)).hasSize(2);
        IdModeArtifacts artifacts = IdModeArtifacts.parse(mint.get("artifacts").asString(), LIMITS);
        assertThat(artifacts.size()).isEqualTo(1);
    }

    @Override
    void assertPath(List<String> path) {
        assertThat(path).containsExactly(id("asserting-wl"), id("subject-wl"), id("m-tier"), id("target-wl"));
    }

    @Override
    List<String> modeGarbage() {
        return List.of(
                "{\"token\":\"a.b.c\",\"artifacts\":\"[]\"}",
                "{\"token\":\"a.b\",\"artifacts\":\"not pem\"}",
                "{\"token\":\"a..b.c\",\"artifacts\":\"[[\\\"AAAA\\\"]]\"}");
    }

    @Test
    void targetWhenTokenReplayedByDifferentWorkloadThen403AndKeepsServing() {
        IdModePresentation forTarget = toTarget(root("user0043"));
        assertThat(present("m-tier", "target-wl", "balance", forTarget).status())
                .isEqualTo(200);

        // another workload: refused by the endpoint's allow-list
        assertThat(present("intruder", "target-wl", "balance", forTarget).status())
                .isEqualTo(403);

        // another instance under m-tier's name, with its own key: the presenter's key is not the signer's
        stack.workloadApi().addWorkload("m-tier-replica", stack.idOf("m-tier"));
        Answer replica = present("m-tier-replica", "target-wl", "balance", forTarget);
        assertThat(replica.status()).as(replica.body()).isEqualTo(403);
        assertThat(replica.json().get("code").asString()).isEqualTo("WRONG_PRESENTER");

        // a valid chain whose outermost layer an intruder signed, replayed by subject-wl at m-tier
        client.sslContextFor("intruder");
        IdModePresentation viaIntruder =
                extend("intruder", extend("subject-wl", root("user0043"), "intruder"), "m-tier");
        Answer byName = present("subject-wl", "m-tier", "balance", viaIntruder);
        assertThat(byName.status()).as(byName.body()).isEqualTo(403);
        assertThat(byName.json().get("code").asString()).isEqualTo("WRONG_PRESENTER");

        assertUserServed("user0043");
    }

    @Test
    void targetWhenOuterLayerStrippedThen403AndKeepsServing() {
        IdModePresentation forTarget = toTarget(root("user0044"));
        IdModePresentation stripped = prefix(forTarget, 2);
        Answer atTarget = present("m-tier", "target-wl", "balance", stripped);
        assertThat(atTarget.status()).as(atTarget.body()).isEqualTo(403);
        assertThat(atTarget.json().get("code").asString()).isEqualTo("WRONG_AUDIENCE");

        // the root alone is a validly signed token too, addressed to subject-wl, not to m-tier
        Answer atMtier = present("subject-wl", "m-tier", "balance", prefix(forTarget, 1));
        assertThat(atMtier.status()).as(atMtier.body()).isEqualTo(403);
        assertThat(atMtier.json().get("code").asString()).isEqualTo("WRONG_AUDIENCE");

        assertUserServed("user0044");
    }

    @Test
    void targetWhenMiddleLayerTamperedThen401AndKeepsServing() {
        IdModePresentation forMtier = extend("subject-wl", root("user0045"), "m-tier");
        IdModePresentation tampered =
                new IdModePresentation(tamperOutermostIat(forMtier.token()), forMtier.artifacts());
        // m-tier's own layer over the tampered one is valid: only the middle signature breaks
        IdModePresentation wrapped = extend("m-tier", tampered, "target-wl");
        Answer atTarget = present("m-tier", "target-wl", "balance", wrapped);
        assertThat(atTarget.status()).as(atTarget.body()).isEqualTo(401);
        assertThat(atTarget.json().get("code").asString()).isEqualTo("BAD_SIGNATURE");
        assertThat(atTarget.body()).doesNotContain(wrapped.token().substring(0, 40));

        Answer atMtier = present("subject-wl", "m-tier", "balance", tampered);
        assertThat(atMtier.status()).as(atMtier.body()).isEqualTo(401);
        assertThat(atMtier.json().get("code").asString()).isEqualTo("BAD_SIGNATURE");

        assertUserServed("user0045");
    }

    @Test
    void anyWorkloadVouchesForAnyUserWhenChainStartedByNonAssertingWorkloadThenRejected() {
        String victim = "user0046";
        String victimToken = client.userToken(victim);
        assertThat(client.user(MODE, "deposit", victimToken, "{\"amount\":10}").status())
                .isEqualTo(200);
        String dpa = client.user(MODE, "mint", victimToken, null)
                .json()
                .get("claims")
                .get("dpa")
                .asString();

        // subject-wl starts its own chain for the victim and presents it to m-tier
        IdModePresentation bySubject = mintAs("subject-wl", "m-tier", dpa, victim);
        Answer atMtier = deposit("subject-wl", "m-tier", bySubject, 1000);
        assertThat(atMtier.status()).as(atMtier.body()).isEqualTo(403);
        assertThat(atMtier.json().get("code").asString()).isEqualTo("DELEGATION_INVALID");

        // the same chain continued by m-tier's key (a compromised middle tier) fails at the target
        IdModePresentation continued = extend("m-tier", bySubject, "target-wl");
        Answer atTarget = deposit("m-tier", "target-wl", continued, 1000);
        assertThat(atTarget.status()).as(atTarget.body()).isEqualTo(403);
        assertThat(atTarget.json().get("code").asString()).isEqualTo("DELEGATION_INVALID");

        // a root m-tier makes for itself, straight to the target
        IdModePresentation byMtier = mintAs("m-tier", "target-wl", dpa, victim);
        Answer direct = deposit("m-tier", "target-wl", byMtier, 1000);
        assertThat(direct.status()).as(direct.body()).isEqualTo(403);
        assertThat(direct.json().get("code").asString()).isEqualTo("DELEGATION_INVALID");

        Answer balance = client.user(MODE, "balance", victimToken, null);
        assertThat(balance.status()).as(balance.body()).isEqualTo(200);
        assertThat(balance.json().get("balance").asLong()).isEqualTo(10);
    }

    @Test
    void middleTierWhenArtifactsMissingOrMismatchedThen400AndKeepsServing() {
        IdModePresentation forMtier = extend("subject-wl", root("user0047"), "m-tier");
        String noArtifacts = "{\"token\":" + SystemClient.quote(forMtier.token()) + "}";
        Answer missing = client.asWorkload("subject-wl", "m-tier", "/id-mode/balance", noArtifacts);
        assertThat(missing.status()).as(missing.body()).isEqualTo(400);
        assertThat(missing.json().get("code").asString()).isEqualTo("MALFORMED");

        IdModePresentation oneChainShort =
                new IdModePresentation(forMtier.token(), forMtier.artifacts().prefix(1));
        Answer mismatch = present("subject-wl", "m-tier", "balance", oneChainShort);
        assertThat(mismatch.status()).as(mismatch.body()).isEqualTo(400);
        assertThat(mismatch.json().get("code").asString()).isEqualTo("MALFORMED");

        assertUserServed("user0047");
    }

    @Test
    void assertingWhenCallerNotAllowedOrRootUnknownThenRefused() {
        String token = client.userToken("user0048");
        String mintBody = "{\"accessToken\":" + SystemClient.quote(token) + "}";
        assertThat(client.asWorkload("m-tier", "asserting-wl", "/id-mode/ecdsa-assertion", mintBody)
                        .status())
                .isEqualTo(403);
        assertThat(client.asWorkload("intruder", "asserting-wl", "/id-mode/ecdsa-assertion", mintBody)
                        .status())
                .isEqualTo(403);

        IdModePresentation root = root("user0048");
        String rootBody = "{\"token\":" + SystemClient.quote(root.token()) + "}";
        assertThat(client.asWorkload("subject-wl", "asserting-wl", "/id-mode/introspect", rootBody)
                        .status())
                .isEqualTo(403);
        Answer answer = client.asWorkload("target-wl", "asserting-wl", "/id-mode/introspect", rootBody);
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        assertThat(answer.json().get("msg").asString()).isNotEmpty();
        assertThat(answer.json().get("zkp").asString()).isNotEmpty();
        assertThat(answer.json().get("idpKey").asString()).contains("\"kty\":\"RSA\"");
        assertThat(answer.body()).doesNotContain(token);
        // the whole token names the same root
        String fullBody = "{\"token\":" + SystemClient.quote(toTarget(root).token()) + "}";
        Answer byFullToken = client.asWorkload("m-tier", "asserting-wl", "/id-mode/introspect", fullBody);
        assertThat(byFullToken.status()).as(byFullToken.body()).isEqualTo(200);
        assertThat(byFullToken.json().get("msg").asString())
                .isEqualTo(answer.json().get("msg").asString());

        // a root asserting-wl never minted (signed by subject-wl) is unknown
        IdModePresentation foreign = mintAs("subject-wl", "m-tier", "https://idp.example", "user0048");
        Answer unknown = client.asWorkload(
                "m-tier",
                "asserting-wl",
                "/id-mode/introspect",
                "{\"token\":" + SystemClient.quote(foreign.token()) + "}");
        assertThat(unknown.status()).as(unknown.body()).isEqualTo(404);
        assertThat(unknown.json().get("code").asString()).isEqualTo("NOT_FOUND");
    }

    @Test
    void metricsWhenFlowRanThenDocumentSizePerDepthAndOperationTimers() {
        assertNestedTokenMetrics(MODE, "user0049");
    }

    // --- helpers -------------------------------------------------------------------------------

    private void assertUserServed(String user) {
        Answer ok = client.user(MODE, "balance", client.userToken(user), null);
        assertThat(ok.status()).as(ok.body()).isEqualTo(200);
        assertThat(ok.json().get("user").asString()).isEqualTo(user);
    }

    /** A root minted by asserting-wl for {@code user}, addressed to subject-wl (through the user API). */
    private static IdModePresentation root(String user) {
        JsonNode mint = client.user(MODE, "mint", client.userToken(user), null).json();
        return new IdModePresentation(
                mint.get("token").asString(),
                IdModeArtifacts.parse(mint.get("artifacts").asString(), LIMITS));
    }

    /** The root extended as subject-wl (to m-tier), then as m-tier (to target-wl). */
    private static IdModePresentation toTarget(IdModePresentation root) {
        return extend("m-tier", extend("subject-wl", root, "m-tier"), "target-wl");
    }

    private static IdModePresentation extend(String as, IdModePresentation received, String next) {
        return new IdModeExtender(credentials(as), TIME, LIMITS, BC).extend(received, stack.idOf(next));
    }

    private static IdModePresentation mintAs(String as, String audience, String dpa, String dpr) {
        return new IdModeMinter(credentials(as), TIME, LIMITS, BC).mint(stack.idOf(audience), dpa, dpr, null);
    }

    private static IdModeCredentials credentials(String workload) {
        IssuedSvid svid = stack.workloadApi().current(workload);
        return IdModeCredentials.of(svid.key(), svid.chain());
    }

    private static IdModePresentation prefix(IdModePresentation p, int depth) {
        return new IdModePresentation(
                IdModeToken.parse(p.token(), LIMITS).prefix(depth),
                p.artifacts().prefix(depth));
    }

    /** The outermost payload re-encoded with {@code iat} one second earlier; every signature kept. */
    private static String tamperOutermostIat(String token) {
        int dot = token.indexOf('.');
        String json = new String(Base64.getUrlDecoder().decode(token.substring(0, dot)), StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("\"iat\":(\\d+)").matcher(json);
        assertThat(m.find()).isTrue();
        String changed = json.substring(0, m.start(1)) + (Long.parseLong(m.group(1)) - 1) + json.substring(m.end(1));
        String payload =
                Base64.getUrlEncoder().withoutPadding().encodeToString(changed.getBytes(StandardCharsets.UTF_8));
        return payload + token.substring(dot);
    }

    private static Answer present(String as, String workload, String operation, IdModePresentation p) {
        return client.asWorkload(as, workload, "/id-mode/" + operation, body(p, null));
    }

    private static Answer deposit(String as, String workload, IdModePresentation p, long amount) {
        return client.asWorkload(as, workload, "/id-mode/deposit", body(p, amount));
    }

    private static String body(IdModePresentation p, Long amount) {
        return "{\"token\":" + SystemClient.quote(p.token()) + ",\"artifacts\":"
                + SystemClient.quote(p.artifacts().toJson())
                + (amount == null ? "" : ",\"amount\":" + amount) + "}";
    }
}
