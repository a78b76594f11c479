package io.spiffeidt.devstack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.anonmode.AnonModeExtender;
import io.spiffeidt.core.anonmode.AnonModeMinter;
import io.spiffeidt.core.anonmode.AnonModeSettings;
import io.spiffeidt.core.anonmode.AnonModeVerifier;
import io.spiffeidt.core.anonmode.MintedAnonMode;
import io.spiffeidt.core.anonmode.NonceSource;
import io.spiffeidt.devstack.DevStackSettings;
import io.spiffeidt.devstack.it.SystemClient.Answer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Anon-Mode through the four tiers over real SPIFFE mTLS (the development Workload API) with the
 * development IdP: the shared flow contract ({@link ModeFlowContractIT}), a tampered token at the middle tier, a validly signed root
 * the asserting workload never minted (rejected at the target by introspection), the allow-lists,
 * and the metrics; every attack is followed by a working request.
 *
 * <p>Attack tokens are built here with the core minter and extender: extending needs only the
 * complete token (its last {@code s} is the next key), which is what a holder of the token has.
 */
class AnonModeFlowIT extends ModeFlowContractIT {

    private static final String MODE = "anon-mode";
    private static final String ANONYMOUS = "anonymous";

    private static AnonModeSettings subjectSettings;

    @BeforeAll
    static void start() {
        startStack(DevStackSettings.ephemeral());
        subjectSettings = AnonModeSettings.strict(stack.idOf("subject-wl"), Clock.systemUTC());
    }

    @Override
    String mode() {
        return MODE;
    }

    @Override
    void assertMinted(JsonNode mint, String user, String accessToken) {
        assertThat(mint.get("claims").get("aud").asString()).isEqualTo(id("subject-wl"));
        // the root's issuer is a fresh key, not a SPIFFE ID
        String rootKey = mint.get("claims").get("iss").asString();
        assertThat(rootKey).hasSize(43).doesNotContain("spiffe://");
        String[] segments = mint.get("token").asString().split("\\.", -1);
        assertThat(segments).hasSize(2);
        assertThat(segments[1]).hasSize(86);
    }

    /** The root is bound to asserting-wl by introspection; the hops (subject-wl, m-tier) stay anonymous. */
    @Override
    void assertPath(List<String> path) {
        assertThat(path).containsExactly(id("asserting-wl"), ANONYMOUS, ANONYMOUS, id("target-wl"));
    }

    @Override
    List<String> modeGarbage() {
        return List.of("{\"token\":\"a.b.c\"}", "{\"token\":\"a.b\"}", "{\"token\":\"a..b.c\"}");
    }

    @Test
    void middleTierWhenTamperedTokenThen401AndKeepsServing() {
        String victim = "user0064";
        String victimToken = client.userToken(victim);
        assertThat(client.user(MODE, "deposit", victimToken, "{\"amount\":10}").status())
                .isEqualTo(200);

        String root = root("user0065");
        String forMtier = extend(root);

        // the root names another user: every signature kept, the chain no longer verifies
        String otherUser = replaceInPayload(forMtier, 1, "\"dpr\":\"user0065\"", "\"dpr\":\"" + victim + "\"");
        Answer impersonation = deposit("subject-wl", "m-tier", otherUser, 1000);
        assertThat(impersonation.status()).as(impersonation.body()).isEqualTo(401);
        assertThat(impersonation.json().get("code").asString()).isEqualTo("BAD_SIGNATURE");
        assertThat(impersonation.body()).doesNotContain(otherUser.substring(0, 40));

        // the hop's iat one second earlier
        String hopTampered = replaceIat(forMtier, 0);
        Answer hop = present("subject-wl", "m-tier", "balance", hopTampered);
        assertThat(hop.status()).as(hop.body()).isEqualTo(401);
        assertThat(hop.json().get("code").asString()).isEqualTo("BAD_SIGNATURE");

        // a flipped bit in the last scalar s
        String lastFlipped = flipInLastSegment(forMtier, 60);
        Answer last = present("subject-wl", "m-tier", "balance", lastFlipped);
        assertThat(last.status()).as(last.body()).isEqualTo(401);
        assertThat(last.json().get("code").asString()).isEqualTo("BAD_SIGNATURE");

        Answer ok = present("subject-wl", "m-tier", "balance", forMtier);
        assertThat(ok.status()).as(ok.body()).isEqualTo(200);
        assertThat(ok.json().get("user").asString()).isEqualTo("user0065");

        Answer victimBalance = client.user(MODE, "balance", victimToken, null);
        assertThat(victimBalance.status()).as(victimBalance.body()).isEqualTo(200);
        assertThat(victimBalance.json().get("balance").asLong()).isEqualTo(10);
    }

    @Test
    void targetWhenRootNeverMintedByAssertingThenRejectedByIntrospectionAndKeepsServing() {
        String victim = "user0066";
        String victimToken = client.userToken(victim);
        assertThat(client.user(MODE, "deposit", victimToken, "{\"amount\":10}").status())
                .isEqualTo(200);
        String dpa = client.user(MODE, "mint", victimToken, null)
                .json()
                .get("claims")
                .get("dpa")
                .asString();
        long unknownBefore = introspectionNotFoundCount();

        // a validly signed root with a key of our own, for subject-wl, naming the victim
        SpiffeId subject = stack.idOf("subject-wl");
        MintedAnonMode forged =
                new AnonModeMinter(subjectSettings, NonceSource.secureRandom()).mint(subject, dpa, victim);
        Answer rejected = deposit("subject-wl", "m-tier", extend(forged.token()), 1000);
        // m-tier verifies and extends it (the signatures hold); target-wl's introspection does not know the root
        assertThat(rejected.status()).as(rejected.body()).isEqualTo(401);
        assertThat(rejected.json().get("code").asString()).isEqualTo("UNTRUSTED_KEY");
        assertThat(introspectionNotFoundCount()).isGreaterThan(unknownBefore);

        // asserting-wl answers the same to a direct question
        Answer unknown = introspect("target-wl", forged.rootIdentifier());
        assertThat(unknown.status()).as(unknown.body()).isEqualTo(404);
        assertThat(unknown.json().get("code").asString()).isEqualTo("NOT_FOUND");

        Answer balance = client.user(MODE, "balance", victimToken, null);
        assertThat(balance.status()).as(balance.body()).isEqualTo(200);
        assertThat(balance.json().get("balance").asLong()).isEqualTo(10);
    }

    @Test
    void middleTierWhenUnextendedRootThen403AndKeepsServing() {
        String root = root("user0067");
        Answer unextended = present("subject-wl", "m-tier", "balance", root);
        assertThat(unextended.status()).as(unextended.body()).isEqualTo(403);
        assertThat(unextended.json().get("code").asString()).isEqualTo("WRONG_AUDIENCE");

        assertUserServed("user0067");
    }

    @Test
    void forkWhenTwoExtensionsOfOneTokenThenBothAccepted() {
        String root = root("user0068");
        String first = extend(root);
        String second = extend(root);
        assertThat(first).isNotEqualTo(second);
        assertThat(present("subject-wl", "m-tier", "balance", first).status()).isEqualTo(200);
        assertThat(present("subject-wl", "m-tier", "balance", second).status()).isEqualTo(200);
    }

    @Test
    void callWhenWrongSpiffeIdThen403() {
        String token = client.userToken("user0069");
        String forMtier = extend(root("user0069"));
        String body = "{\"token\":" + SystemClient.quote(forMtier) + "}";
        assertThat(client.asWorkload("intruder", "m-tier", "/anon-mode/balance", body)
                        .status())
                .isEqualTo(403);
        assertThat(client.asWorkload("intruder", "target-wl", "/anon-mode/balance", body)
                        .status())
                .isEqualTo(403);
        // the subject workload may not skip the middle tier
        assertThat(client.asWorkload("subject-wl", "target-wl", "/anon-mode/balance", body)
                        .status())
                .isEqualTo(403);
        String mintBody = "{\"accessToken\":" + SystemClient.quote(token) + "}";
        assertThat(client.asWorkload("m-tier", "asserting-wl", "/anon-mode/schnorr-assertion", mintBody)
                        .status())
                .isEqualTo(403);
        assertThat(client.asWorkload("intruder", "asserting-wl", "/anon-mode/schnorr-assertion", mintBody)
                        .status())
                .isEqualTo(403);
    }

    @Test
    void assertingWhenIntrospectingThenAnswersKnownRootsOnlyAndOnlyToVerifiers() {
        String token = client.userToken("user0070");
        String root = root("user0070");
        String rootIdentifier = new AnonModeVerifier(subjectSettings).rootIdentifier(root);

        assertThat(introspect("subject-wl", rootIdentifier).status()).isEqualTo(403);
        assertThat(introspect("intruder", rootIdentifier).status()).isEqualTo(403);

        Answer answer = introspect("m-tier", rootIdentifier);
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        assertThat(answer.json().get("msg").asString()).isNotEmpty();
        assertThat(answer.json().get("zkp").asString()).isNotEmpty();
        assertThat(answer.json().get("idpKey").asString()).contains("\"kty\":\"RSA\"");
        assertThat(answer.body()).doesNotContain(token);

        // the whole token is not a root: its last segment (the bearer key) never goes to introspection
        Answer whole = introspect("target-wl", root);
        assertThat(whole.status()).as(whole.body()).isEqualTo(400);
        assertThat(whole.json().get("code").asString()).isEqualTo("MALFORMED");
        assertThat(introspect("target-wl", "a.b").status()).isEqualTo(400);
    }

    @Test
    void metricsWhenFlowRanThenDocumentSizePerDepthAndOperationTimers() {
        assertNestedTokenMetrics(MODE, "user0071");
    }

    // --- helpers -------------------------------------------------------------------------------

    /** How often target-wl's introspection calls were answered NOT_FOUND so far. */
    private static long introspectionNotFoundCount() {
        Matcher m = Pattern.compile("spiffeidt_operation_seconds_count\\{(?=[^}]*mode=\"anon-mode\")"
                        + "(?=[^}]*operation=\"introspect_call\")(?=[^}]*outcome=\"NOT_FOUND\")[^}]*} ([0-9.]+)")
                .matcher(client.prometheus("target-wl").body());
        return m.find() ? (long) Double.parseDouble(m.group(1)) : 0;
    }

    private void assertUserServed(String user) {
        Answer ok = client.user(MODE, "balance", client.userToken(user), null);
        assertThat(ok.status()).as(ok.body()).isEqualTo(200);
        assertThat(ok.json().get("user").asString()).isEqualTo(user);
    }

    /** A root minted by asserting-wl for {@code user}, addressed to subject-wl (through the user API). */
    private static String root(String user) {
        Answer minted = client.user(MODE, "mint", client.userToken(user), null);
        assertThat(minted.status()).as(minted.body()).isEqualTo(200);
        return minted.json().get("token").asString();
    }

    /** One anonymous layer over {@code token}, as subject-wl makes it. */
    private static String extend(String token) {
        return new AnonModeExtender(subjectSettings, NonceSource.secureRandom()).extend(token, null);
    }

    /**
     * The token with one text replacement in the payload of layer {@code fromOuter} (0 = the
     * outermost payload segment); every signature segment kept.
     */
    private static String replaceInPayload(String token, int fromOuter, String from, String to) {
        String[] parts = token.split("\\.", -1);
        String json = new String(Base64.getUrlDecoder().decode(parts[fromOuter]), StandardCharsets.UTF_8);
        assertThat(json).contains(from);
        parts[fromOuter] = Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(json.replace(from, to).getBytes(StandardCharsets.UTF_8));
        return String.join(".", parts);
    }

    /** The payload of layer {@code fromOuter} with {@code iat} one second earlier. */
    private static String replaceIat(String token, int fromOuter) {
        String[] parts = token.split("\\.", -1);
        String json = new String(Base64.getUrlDecoder().decode(parts[fromOuter]), StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("\"iat\":(\\d+)").matcher(json);
        assertThat(m.find()).isTrue();
        return replaceInPayload(token, fromOuter, m.group(), "\"iat\":" + (Long.parseLong(m.group(1)) - 1));
    }

    /** The token with one base64url character of its last segment changed. */
    private static String flipInLastSegment(String token, int index) {
        int start = token.lastIndexOf('.') + 1;
        char[] chars = token.toCharArray();
        chars[start + index] = chars[start + index] == 'A' ? 'B' : 'A';
        return new String(chars);
    }

    private static Answer introspect(String as, String root) {
        return client.asWorkload(
                as, "asserting-wl", "/anon-mode/introspect", "{\"root\":" + SystemClient.quote(root) + "}");
    }

    private static Answer present(String as, String workload, String operation, String token) {
        return client.asWorkload(
                as, workload, "/anon-mode/" + operation, "{\"token\":" + SystemClient.quote(token) + "}");
    }

    private static Answer deposit(String as, String workload, String token, long amount) {
        return client.asWorkload(
                as,
                workload,
                "/anon-mode/deposit",
                "{\"token\":" + SystemClient.quote(token) + ",\"amount\":" + amount + "}");
    }
}
