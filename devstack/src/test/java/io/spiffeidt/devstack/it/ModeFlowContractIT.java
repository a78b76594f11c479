package io.spiffeidt.devstack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.devstack.it.SystemClient.Answer;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * What every mode's flow through the four tiers must do, whatever its document (the shared
 * contract; each mode's subclass adds its own attacks): two users walk through in parallel and each
 * keeps their own balance and verified path, a balance without a kept document mints first, the user
 * API refuses a missing or malformed bearer token and a bad amount, and the middle tier answers
 * garbage with 4xx and keeps serving.
 *
 * <p>A subclass names its mode ({@link #mode()}) and says what its minted document and its verified
 * path look like; it starts the stack in its {@code @BeforeAll}.
 */
abstract class ModeFlowContractIT extends EmbeddedStackIT {

    /** Bodies every middle tier answers with 4xx, whatever its mode. */
    private static final List<String> GARBAGE =
            List.of("", "{}", "not json", "{\"token\":\"\"}", "[1,2]", HUGE_TOKEN_BODY);

    /**
     * The mode's path segment ({@code dvid}, {@code id-mode}, {@code anon-mode}, {@code lsvid}, and the
     * baselines {@code txn-token}, {@code mtls-only}, {@code bearer-forward}).
     */
    abstract String mode();

    /** The claim of the minted document that names the user: {@code dpr}, or a mode's own (a Txn-Token's {@code sub}). */
    String userClaim() {
        return "dpr";
    }

    /** The mode's own checks of the user API's mint answer for {@code user} (who holds {@code accessToken}). */
    abstract void assertMinted(JsonNode mint, String user, String accessToken);

    /** The verified path of a balance or deposit answer. */
    abstract void assertPath(List<String> path);

    /** Bodies of the mode's own wire format that the middle tier must answer with 4xx, besides {@link #GARBAGE}. */
    abstract List<String> modeGarbage();

    @Test
    void flowWhenTwoUsersInParallelThenEachKeepsOwnBalanceAndTheVerifiedPath() throws Exception {
        twoUsersInParallel(this::walkThrough, "user0091", "user0092");
    }

    private long walkThrough(String user, long amount) {
        String token = client.userToken(user);
        Answer minted = client.user(mode(), "mint", token, null);
        assertThat(minted.status()).as(minted.body()).isEqualTo(200);
        JsonNode mint = minted.json();
        assertThat(mint.get("mode").asString()).isEqualTo(mode());
        assertThat(mint.get("user").asString()).isEqualTo(user);
        assertThat(mint.get("claims").get(userClaim()).asString()).isEqualTo(user);
        if (mint.has("token")) {
            assertThat(mint.get("size").asInt())
                    .isEqualTo(mint.get("token").asString().length());
        } else {
            // a mode without a document: the size of what travels in its place, never the access token
            assertThat(mint.get("size").asInt()).isPositive();
            assertThat(mint.toString()).doesNotContain(token);
        }
        assertMinted(mint, user, token);

        Answer balance = client.user(mode(), "balance", token, null);
        assertThat(balance.status()).as(balance.body()).isEqualTo(200);
        assertThat(balance.json().get("user").asString()).isEqualTo(user);
        assertThat(balance.json().get("mode").asString()).isEqualTo(mode());
        assertThat(balance.json().get("balance").asLong()).isZero();
        assertThat(balance.json().get("minted").asBoolean()).isFalse();
        assertPath(strings(balance.json().get("path")));

        for (long deposit : List.of(amount, amount, 1L)) {
            Answer d = client.user(mode(), "deposit", token, "{\"amount\":" + deposit + "}");
            assertThat(d.status()).as(d.body()).isEqualTo(200);
            assertThat(d.json().get("mode").asString()).isEqualTo(mode());
        }
        Answer after = client.user(mode(), "balance", token, null);
        assertThat(after.status()).as(after.body()).isEqualTo(200);
        assertThat(after.json().get("user").asString()).isEqualTo(user);
        return after.json().get("balance").asLong();
    }

    @Test
    void balanceWhenNoDocumentKeptThenMintsFirstAndSaysSo() {
        String token = client.userToken("user0093");

        Answer balance = client.user(mode(), "balance", token, null);

        assertThat(balance.status()).as(balance.body()).isEqualTo(200);
        assertThat(balance.json().get("minted").asBoolean()).isTrue();
        assertThat(balance.json().get("user").asString()).isEqualTo("user0093");
        assertPath(strings(balance.json().get("path")));
    }

    @Test
    void userWhenNoOrBadBearerThen401() {
        assertThat(client.user(mode(), "mint", null, null).status()).isEqualTo(401);

        Answer bad = client.user(mode(), "balance", "not-a-token", null);

        assertThat(bad.status()).isEqualTo(401);
        assertThat(bad.json().get("code").asString()).isEqualTo("MALFORMED");
    }

    @Test
    void depositWhenNonPositiveOrOverflowingThen400AndBalanceUnchanged() {
        String token = client.userToken("user0094");
        assertThat(client.user(mode(), "deposit", token, "{\"amount\":10}").status())
                .isEqualTo(200);

        for (String body : List.of(
                "{\"amount\":0}", "{\"amount\":-5}", "{\"amount\":9223372036854775807}", "{\"amount\":\"ten\"}")) {
            Answer a = client.user(mode(), "deposit", token, body);
            assertThat(a.status()).as(body + " -> " + a.body()).isEqualTo(400);
        }
        assertThat(client.user(mode(), "balance", token, null)
                        .json()
                        .get("balance")
                        .asLong())
                .isEqualTo(10);
    }

    @Test
    void middleTierWhenGarbageBodiesThen4xxAndKeepsServing() {
        assertMiddleTierRejects(
                "/" + mode() + "/balance",
                Stream.concat(GARBAGE.stream(), modeGarbage().stream()).toList());

        Answer served = client.user(mode(), "balance", client.userToken("user0095"), null);
        assertThat(served.status()).as(served.body()).isEqualTo(200);
        assertThat(served.json().get("user").asString()).isEqualTo("user0095");
    }

    static String id(String workload) {
        return client.idOf(workload).toString();
    }

    static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asString()));
        return out;
    }
}
