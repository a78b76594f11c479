package io.spiffeidt.devstack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.devstack.DevStackSettings;
import io.spiffeidt.devstack.it.SystemClient.Answer;
import io.spiffeidt.testkit.Await;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import tools.jackson.databind.JsonNode;

/**
 * The whole system with a real Keycloak as its OpenID provider: the realm of {@code
 * docs/keycloak/spiffeidt-realm.json} (the worked example of docs/own-openid-provider.md), a second
 * realm whose tokens must not be accepted, and a third whose client issues RFC 9068 access tokens
 * ({@code at+jwt}); the workloads configured for Keycloak's non-RFC 9068 access tokens ({@code typ}
 * {@code JWT}, the audience from an audience mapper) and for the RFC 9068 realm.
 *
 * <ul>
 *   <li>the JSON API in every mode with Keycloak access tokens;
 *   <li>refused with their codes: a Keycloak ID token, an access token for another audience, one of
 *       another realm, an expired one;
 *   <li>the page in headless Chromium: log in at Keycloak, mint, balance and deposit in every mode,
 *       log out at Keycloak too (a new login asks for the password again); skipped without chromium;
 *   <li>a key rotation at Keycloak (a new active key, the old one disabled) under load: no request
 *       fails.
 * </ul>
 *
 * Keycloak 26 needs JDK 21+: the IT looks for one (see {@link KeycloakServer#javaHome()}) and is
 * skipped with a message if there is none, or if Maven did not unpack the distribution. Keycloak's
 * output is kept in {@code target/keycloak-it.log}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KeycloakIT extends EmbeddedStackIT {

    private static final String REALM = "spiffeidt";
    private static final String AUDIENCE = "spiffeidt";
    private static final List<String> MODES = List.of("dvid", "id-mode", "anon-mode", "lsvid");
    private static final Path REALM_FILE =
            Path.of(System.getProperty("spiffeidt.keycloak.realm-file", "../docs/keycloak/spiffeidt-realm.json"));
    private static final Path OTHER_REALM_FILE = Path.of("src/test/resources/keycloak/other-realm.json");
    private static final Path TYPED_REALM_FILE = Path.of("src/test/resources/keycloak/typed-realm.json");
    private static final Path SCREENSHOTS = Path.of("target", "screenshots");
    private static final Duration WAIT = Duration.ofSeconds(60);

    private static KeycloakServer keycloak;
    private static WebDriver browser;
    private static Path profile;

    @BeforeAll
    static void start() throws Exception {
        Optional<Path> home = KeycloakServer.home();
        Assumptions.assumeTrue(
                home.isPresent(),
                "KeycloakIT skipped: no Keycloak distribution (spiffeidt.keycloak.home; Maven unpacks it in"
                        + " pre-integration-test)");
        Optional<Path> java = KeycloakServer.javaHome();
        Assumptions.assumeTrue(
                java.isPresent(),
                "KeycloakIT skipped: Keycloak needs a JDK 21 or newer and none was found (set"
                        + " SPIFFEIDT_KEYCLOAK_JAVA_HOME=/path/to/jdk)");
        keycloak =
                KeycloakServer.start(home.get(), java.get(), List.of(REALM_FILE, OTHER_REALM_FILE, TYPED_REALM_FILE));
        // the stack starts while Keycloak does; nothing of it asks Keycloak before its first use
        String issuer = keycloak.issuer(REALM).toString();
        startStack(DevStackSettings.ephemeral()
                .withProperty("spiffeidt.oauth.issuers[0].issuer", issuer)
                .withProperty("spiffeidt.oauth.issuers[0].audience", AUDIENCE)
                .withProperty("spiffeidt.oauth.issuers[0].rfc9068", "false")
                // a realm whose client switched on RFC 9068 access tokens (at+jwt): an RFC 9068 issuer
                .withProperty(
                        "spiffeidt.oauth.issuers[1].issuer",
                        keycloak.issuer("typed").toString())
                .withProperty("spiffeidt.oauth.issuers[1].audience", AUDIENCE)
                .withProperty("spiffeidt.oauth.issuers[1].rfc9068", "true")
                // a key Keycloak starts signing with is fetched at its first token
                .withProperty("spiffeidt.oauth.jwks-refetch-interval", "1s")
                // the expired token of the test is 1 s long: wait for it a few seconds, not 30
                .withProperty("spiffeidt.verification.skew", "2s")
                .withWorkloadProperty(
                        "subject-wl", "spring.security.oauth2.client.registration.keycloak.provider", "keycloak")
                .withWorkloadProperty(
                        "subject-wl", "spring.security.oauth2.client.registration.keycloak.client-name", "Keycloak")
                .withWorkloadProperty(
                        "subject-wl", "spring.security.oauth2.client.registration.keycloak.client-id", "spiffeidt-page")
                .withWorkloadProperty(
                        "subject-wl",
                        "spring.security.oauth2.client.registration.keycloak.client-authentication-method",
                        "none")
                .withWorkloadProperty(
                        "subject-wl",
                        "spring.security.oauth2.client.registration.keycloak.authorization-grant-type",
                        "authorization_code")
                .withWorkloadProperty(
                        "subject-wl",
                        "spring.security.oauth2.client.registration.keycloak.redirect-uri",
                        "{baseUrl}/login/oauth2/code/{registrationId}")
                .withWorkloadProperty(
                        "subject-wl", "spring.security.oauth2.client.registration.keycloak.scope", "openid,profile")
                .withWorkloadProperty(
                        "subject-wl", "spring.security.oauth2.client.provider.keycloak.issuer-uri", issuer)
                .withWorkloadProperty(
                        "subject-wl",
                        "spring.security.oauth2.client.provider.keycloak.user-name-attribute",
                        "preferred_username"));
        keycloak.awaitReady();
        keycloak.setRedirects(
                REALM,
                "spiffeidt-page",
                stack.subjectUrl() + "/login/oauth2/code/keycloak",
                stack.subjectUrl() + "/?logout");
    }

    @AfterAll
    static void stopKeycloak() throws IOException {
        if (browser != null) {
            browser.quit();
            browser = null;
        }
        if (profile != null) {
            try (Stream<Path> files = Files.walk(profile)) {
                files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
            }
        }
        if (keycloak != null) {
            keycloak.close();
            keycloak = null;
        }
    }

    // ---- the JSON API ----

    @Test
    @Order(1)
    void apiWhenKeycloakAccessTokenThenEveryModeMintsBalancesAndDeposits() {
        String token = keycloak.accessToken(REALM, "spiffeidt-cli", "user0001");
        JsonNode header = jwtPart(token, 0);
        JsonNode claims = jwtPart(token, 1);
        // what makes Keycloak's access tokens differ from RFC 9068 ones
        assertThat(header.get("typ").asString()).isEqualTo("JWT");
        assertThat(claims.get("azp").asString()).isEqualTo("spiffeidt-cli");
        String sub = keycloak.userId(REALM, "user0001");
        assertThat(claims.get("sub").asString()).isEqualTo(sub);

        for (String mode : MODES) {
            Answer mint = client.user(mode, "mint", token, null);
            assertThat(mint.status()).as(mode + " mint: " + mint.body()).isEqualTo(200);
            assertThat(mint.body()).as(mode).contains(sub);

            Answer balance = client.user(mode, "balance", token, null);
            assertThat(balance.status())
                    .as(mode + " balance: " + balance.body())
                    .isEqualTo(200);
            assertThat(balance.json().get("user").asString()).isEqualTo(sub);
            assertThat(balance.json().get("path").size()).as(mode).isGreaterThanOrEqualTo(2);
            long before = balance.json().get("balance").asLong();

            Answer deposit = client.user(mode, "deposit", token, "{\"amount\": 25}");
            assertThat(deposit.status())
                    .as(mode + " deposit: " + deposit.body())
                    .isEqualTo(200);
            assertThat(deposit.json().get("balance").asLong()).as(mode).isEqualTo(before + 25);
        }
    }

    @Test
    @Order(2)
    void apiWhenKeycloakIdTokenThenRefusedAsNoAccessToken() {
        String idToken = keycloak.passwordGrant(REALM, "spiffeidt-cli", "user0001", "password", "openid")
                .get("id_token")
                .asString();
        assertThat(jwtPart(idToken, 1).get("typ").asString()).isEqualTo("ID");
        for (String mode : MODES) {
            assertRefused(mode, idToken, "UNSUPPORTED");
        }
    }

    @Test
    @Order(2)
    void apiWhenTokenForAnotherAudienceThenWrongAudience() {
        String token = keycloak.accessToken(REALM, "other-service", "user0001");
        assertThat(jwtPart(token, 1).toString()).doesNotContain("\"" + AUDIENCE + "\"");
        for (String mode : MODES) {
            assertRefused(mode, token, "WRONG_AUDIENCE");
        }
    }

    @Test
    @Order(2)
    void apiWhenTokenOfAnotherRealmThenUnknownIssuer() {
        String token = keycloak.accessToken("other", "spiffeidt-cli", "user0001");
        assertThat(jwtPart(token, 1).get("aud").toString()).contains(AUDIENCE);
        for (String mode : MODES) {
            assertRefused(mode, token, "UNKNOWN_ISSUER");
        }
    }

    @Test
    @Order(2)
    void apiWhenTokenExpiredThenExpired() throws InterruptedException {
        String token = keycloak.accessToken(REALM, "spiffeidt-short-lived", "user0001");
        long exp = jwtPart(token, 1).get("exp").asLong();
        // past exp and the 2 s skew
        Await.until(() -> System.currentTimeMillis() / 1000, now -> now > exp + 3, Duration.ofSeconds(20));
        for (String mode : MODES) {
            assertRefused(mode, token, "EXPIRED");
        }
    }

    @Test
    @Order(2)
    void apiWhenRfc9068IssuerThenAtJwtAccessTokensAcceptedAndItsIdTokensRefusedByType() {
        JsonNode tokens = keycloak.passwordGrant("typed", "spiffeidt-cli", "user0001", "password", "openid");
        String accessToken = tokens.get("access_token").asString();
        String idToken = tokens.get("id_token").asString();
        assertThat(jwtPart(accessToken, 0).get("typ").asString()).isEqualTo("at+jwt");
        assertThat(jwtPart(idToken, 0).get("typ").asString()).isEqualTo("JWT");
        String sub = jwtPart(accessToken, 1).get("sub").asString();

        for (String mode : MODES) {
            Answer balance = client.user(mode, "balance", accessToken, null);
            assertThat(balance.status()).as(mode + ": " + balance.body()).isEqualTo(200);
            assertThat(balance.json().get("user").asString()).isEqualTo(sub);
            assertRefused(mode, idToken, "UNSUPPORTED");
        }
    }

    private static void assertRefused(String mode, String token, String code) {
        Answer a = client.user(mode, "balance", token, null);
        assertThat(a.status()).as(mode + ": " + a.body()).isEqualTo(401);
        assertThat(a.json().get("code").asString()).as(mode + ": " + a.body()).isEqualTo(code);
    }

    // ---- the page ----

    @Test
    @Order(3)
    void pageWhenLoggedInAtKeycloakThenEveryModeWorksAndLogoutEndsKeycloakSession() throws IOException {
        Path chromium = Path.of(System.getProperty("spiffeidt.chromium", "/usr/bin/chromium"));
        Path chromedriver = Path.of(System.getProperty("spiffeidt.chromedriver", "/usr/bin/chromedriver"));
        Assumptions.assumeTrue(
                Files.isExecutable(chromium) && Files.isExecutable(chromedriver),
                "KeycloakIT's page test skipped: no " + chromium + " or " + chromedriver
                        + " (apt-get install chromium chromium-driver)");
        openBrowser(chromium, chromedriver);
        String user = "user0003";
        String sub = keycloak.userId(REALM, user);

        browser.get(stack.subjectUrl() + "/");
        click(By.id("login-keycloak"));
        await().until(ExpectedConditions.visibilityOfElementLocated(By.name("username")));
        assertThat(browser.getCurrentUrl()).startsWith(keycloak.issuer(REALM).toString());
        screenshot("keycloak-login");
        typeCredentials(user, "password");
        await().until(ExpectedConditions.visibilityOfElementLocated(By.id("app-view")));
        assertThat(browser.getCurrentUrl()).startsWith(stack.subjectUrl().toString());
        assertThat(browser.findElement(By.id("user-name")).getText()).isEqualTo(user);
        assertThat(keycloak.adminGet(REALM + "/users/" + sub + "/sessions").size())
                .as("Keycloak sessions of " + user)
                .isEqualTo(1);

        for (String mode : MODES) {
            click(By.cssSelector("input[name='mode'][value='" + mode + "']"));
            click(By.id("mint"));
            awaitDone("mint");
            assertThat(browser.findElement(By.id("layers")).getText()).as(mode).contains("dpr", sub);
            click(By.id("balance"));
            awaitDone("balance");
            long before =
                    Long.parseLong(browser.findElement(By.id("balance-value")).getText());
            WebElement amount = browser.findElement(By.id("amount"));
            amount.clear();
            amount.sendKeys("7");
            click(By.id("deposit"));
            awaitDone("deposit");
            assertThat(Long.parseLong(
                            browser.findElement(By.id("balance-value")).getText()))
                    .as(mode)
                    .isEqualTo(before + 7);
            screenshot("keycloak-" + mode);
        }

        click(By.id("logout"));
        await().until(ExpectedConditions.visibilityOfElementLocated(By.id("login-view")));
        assertThat(browser.getCurrentUrl()).startsWith(stack.subjectUrl().toString());
        assertThat(browser.findElement(By.id("login-message")).getText()).contains("logged out");
        // RP-initiated logout ended Keycloak's session too: no session left, and a new login asks again
        assertThat(keycloak.adminGet(REALM + "/users/" + sub + "/sessions").size())
                .as("Keycloak sessions of " + user)
                .isZero();
        click(By.id("login-keycloak"));
        await().until(ExpectedConditions.visibilityOfElementLocated(By.name("password")));
        assertThat(browser.getCurrentUrl()).startsWith(keycloak.issuer(REALM).toString());
    }

    private static void openBrowser(Path chromium, Path chromedriver) throws IOException {
        profile = Files.createTempDirectory("spiffeidt-chromium-");
        browser = HeadlessChromium.open(chromium, chromedriver, profile);
        Files.createDirectories(SCREENSHOTS);
    }

    private static void typeCredentials(String user, String password) {
        WebElement name = browser.findElement(By.name("username"));
        name.clear();
        name.sendKeys(user);
        WebElement secret = browser.findElement(By.name("password"));
        secret.clear();
        secret.sendKeys(password);
        secret.submit();
    }

    private static void awaitDone(String operation) {
        await().until(d -> {
            WebElement error = d.findElement(By.id("error"));
            if (error.isDisplayed()) {
                throw new AssertionError(operation + " failed on the page: " + error.getText());
            }
            return d.findElement(By.id("status")).getText().contains(operation + " done");
        });
    }

    private static void click(By by) {
        await().until(ExpectedConditions.elementToBeClickable(by)).click();
    }

    private static WebDriverWait await() {
        return new WebDriverWait(browser, WAIT);
    }

    private static void screenshot(String name) throws IOException {
        File shot = ((ChromeDriver) browser).getScreenshotAs(OutputType.FILE);
        Files.copy(shot.toPath(), SCREENSHOTS.resolve("page-" + name + ".png"), StandardCopyOption.REPLACE_EXISTING);
    }

    // ---- key rotation ----

    @Test
    @Order(4)
    void keyRotationAtKeycloakWhenRequestsKeepGoingThenPickedUpWithoutFailure() throws Exception {
        Map<String, JsonNode> before = keycloak.keyProviders(REALM);
        JsonNode oldProvider = before.get("rsa-generated");
        assertThat(oldProvider).as("Keycloak's default RSA key provider").isNotNull();
        String oldKid = keycloak.activeKid(REALM, "RS256");

        AtomicBoolean running = new AtomicBoolean(true);
        List<String> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        Map<String, AtomicInteger> okByKid = new ConcurrentHashMap<>();
        Set<String> modesAfterRotation = ConcurrentHashMap.newKeySet();
        AtomicBoolean oldDisabled = new AtomicBoolean();
        ExecutorService load = Executors.newFixedThreadPool(2);
        List<Future<?>> workers = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
            int worker = w;
            workers.add(load.submit(() -> {
                int i = worker;
                while (running.get()) {
                    String mode = MODES.get(i++ % MODES.size());
                    boolean afterDisable = oldDisabled.get();
                    String token = keycloak.accessToken(REALM, "spiffeidt-cli", "user0002");
                    String kid = jwtPart(token, 0).get("kid").asString();
                    Answer a = client.user(mode, "balance", token, null);
                    if (a.status() != 200) {
                        failures.add(mode + " with kid " + (kid.equals(oldKid) ? "old" : "new") + ": " + a.status()
                                + " " + a.body());
                    } else {
                        okByKid.computeIfAbsent(kid, k -> new AtomicInteger()).incrementAndGet();
                        if (afterDisable && !kid.equals(oldKid)) {
                            modesAfterRotation.add(mode);
                        }
                    }
                }
                return null;
            }));
        }
        try {
            // requests signed by the old key go through
            Await.until(() -> okByKid.getOrDefault(oldKid, new AtomicInteger()).get(), n -> n >= 4, WAIT);
            keycloak.addRsaKeyProvider(REALM, "rsa-rotated", 200);
            String newKid = keycloak.activeKid(REALM, "RS256");
            assertThat(newKid).isNotEqualTo(oldKid);
            // tokens signed with the new key are accepted at once (their kid makes the workloads refetch)
            Await.until(() -> okByKid.getOrDefault(newKid, new AtomicInteger()).get(), n -> n >= 4, WAIT);
            keycloak.disableKeyProvider(REALM, oldProvider);
            assertThat(keycloak.jwksKids(REALM)).contains(newKid).doesNotContain(oldKid);
            oldDisabled.set(true);
            Await.until(() -> Set.copyOf(modesAfterRotation), s -> s.containsAll(MODES), WAIT);
        } finally {
            running.set(false);
            for (Future<?> f : workers) {
                f.get(60, TimeUnit.SECONDS);
            }
            load.shutdownNow();
        }
        assertThat(failures).as("requests that failed during the rotation").isEmpty();
        assertThat(modesAfterRotation).as("modes served with the new key only").containsAll(MODES);
        assertThat(okByKid.get(oldKid).get()).isPositive();
    }

    /** The JSON of part {@code index} (0 header, 1 claims) of a compact JWT. */
    private static JsonNode jwtPart(String jwt, int index) {
        String part = jwt.split("\\.")[index];
        return SystemClient.JSON.readTree(new String(Base64.getUrlDecoder().decode(part), StandardCharsets.UTF_8));
    }
}
