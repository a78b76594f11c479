package io.spiffeidt.devstack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.devstack.DevStackSettings;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * subject-wl's page in a real browser (headless Debian chromium through chromedriver): log in at
 * the development IdP, then per mode mint, read the decoded layers, deposit, see the balance change
 * and a waterfall entry per hop, each linked to the answer's trace at {@code spiffeidt.tracing.ui-url};
 * a wrong password shows the IdP's error; a lost session goes back to
 * the login; logout ends the IdP session too. Screenshots go to {@code target/screenshots/}.
 *
 * <p>Skipped when no chromium or chromedriver is installed (system properties {@code
 * spiffeidt.chromium} and {@code spiffeidt.chromedriver}, defaults {@code /usr/bin/chromium} and
 * {@code /usr/bin/chromedriver}; Debian packages {@code chromium} and {@code chromium-driver}).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PageBrowserIT extends EmbeddedStackIT {

    private static final String USER = "user0001";
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Path SCREENSHOTS = Path.of("target", "screenshots");
    private static final String TRACE_UI = "http://127.0.0.1:9411/zipkin/traces/{traceId}";

    private static WebDriver browser;
    private static Path profile;

    @BeforeAll
    static void start() throws IOException {
        Path chromium = Path.of(System.getProperty("spiffeidt.chromium", "/usr/bin/chromium"));
        Path chromedriver = Path.of(System.getProperty("spiffeidt.chromedriver", "/usr/bin/chromedriver"));
        Assumptions.assumeTrue(
                Files.isExecutable(chromium) && Files.isExecutable(chromedriver),
                "PageBrowserIT skipped: no " + chromium + " or " + chromedriver
                        + " (apt-get install chromium chromium-driver)");
        // every trace recorded (no exporter: nothing leaves the stack) and a trace UI, so the page links each hop
        startStack(DevStackSettings.ephemeral()
                .withProperty("management.tracing.sampling.probability", "1.0")
                .withProperty("spiffeidt.tracing.ui-url", TRACE_UI));
        profile = Files.createTempDirectory("spiffeidt-chromium-");
        browser = HeadlessChromium.open(chromium, chromedriver, profile);
        Files.createDirectories(SCREENSHOTS);
    }

    @AfterAll
    static void closeBrowser() throws IOException {
        if (browser != null) {
            browser.quit();
            browser = null;
        }
        if (profile != null) {
            try (Stream<Path> files = Files.walk(profile)) {
                files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
            }
        }
    }

    @Test
    @Order(1)
    void loginWhenWrongPasswordThenIdpShowsItsErrorAndRightPasswordLogsIn() {
        open("/");
        click(By.id("login-idp"));
        await().until(ExpectedConditions.visibilityOfElementLocated(By.name("username")));
        assertThat(browser.getCurrentUrl()).startsWith(stack.idpUrl().toString());
        typeCredentials(USER, "wrong-password");

        WebElement error = await().until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(".alert")));
        assertThat(browser.getCurrentUrl())
                .startsWith(stack.idpUrl().toString())
                .contains("error");
        assertThat(error.getText()).containsIgnoringCase("invalid credentials");

        typeCredentials(USER, "password");
        await().until(ExpectedConditions.visibilityOfElementLocated(By.id("app-view")));
        assertThat(browser.getCurrentUrl()).startsWith(stack.subjectUrl().toString());
        assertThat(text("user-name")).isEqualTo(USER);
    }

    @ParameterizedTest
    @ValueSource(strings = {"dvid", "id-mode", "anon-mode", "lsvid", "txn-token", "wimse"})
    @Order(2)
    void modeWhenMintThenDepositThenLayersBalanceAndWaterfallShown(String mode) throws IOException {
        loggedIn();
        click(By.cssSelector("input[name='mode'][value='" + mode + "']"));

        click(By.id("mint"));
        awaitDone("mint");
        List<WebElement> layers = browser.findElements(By.cssSelector("#layers article.layer"));
        assertThat(layers).isNotEmpty();
        String root = layers.get(0).getText();
        assertThat(root).contains("issuer", "signature", "bytes");
        assertThat(text("doc-summary")).containsPattern("\\d+ bytes");
        String delegated = browser.findElement(By.id("layers")).getText();
        assertThat(delegated).contains("dpr", USER);
        switch (mode) {
            case "dvid" -> assertThat(text("doc-header")).contains("alg");
            case "anon-mode" -> assertThat(root).contains("anonymous\nyes");
            default -> assertThat(layers.get(layers.size() - 1).getText()).contains("audience");
        }
        assertThat(hopsInWaterfall()).contains("subject-wl", "asserting-wl");

        click(By.id("balance"));
        awaitDone("balance");
        long before = Long.parseLong(text("balance-value"));

        WebElement amount = browser.findElement(By.id("amount"));
        amount.clear();
        amount.sendKeys("7");
        click(By.id("deposit"));
        awaitDone("deposit");
        assertThat(Long.parseLong(text("balance-value"))).isEqualTo(before + 7);
        List<String> path = browser.findElements(By.cssSelector("#path li")).stream()
                .map(WebElement::getText)
                .toList();
        assertThat(path).isNotEmpty();
        if (mode.equals("anon-mode")) {
            assertThat(path).as("hops anonymous").contains("anonymous");
        }
        assertThat(hopsInWaterfall()).contains("subject-wl", "m-tier", "target-wl");
        for (WebElement hop : browser.findElements(By.cssSelector("#waterfall .hop"))) {
            assertThat(hop.findElements(By.cssSelector(".step")))
                    .as(hop.getAttribute("data-hop"))
                    .isNotEmpty();
        }
        // the answer's trace (traceresponse) on every hop: its id, a link to the trace UI (set, and sampled)
        assertThat(text("trace-id")).matches("Trace of this call: trace [0-9a-f]{8}");
        WebElement shown = browser.findElement(By.cssSelector("#trace-id a.trace"));
        String traceId = shown.getAttribute("title").replaceFirst("^trace ", "");
        assertThat(traceId).matches("[0-9a-f]{32}").startsWith(text("trace-id").replaceFirst("^.* trace ", ""));
        String href = TRACE_UI.replace("{traceId}", traceId);
        assertThat(shown.getAttribute("href")).isEqualTo(href);
        List<WebElement> hops = browser.findElements(By.cssSelector("#waterfall .hop"));
        List<WebElement> links = browser.findElements(By.cssSelector("#waterfall .hop a.trace"));
        assertThat(links).hasSameSizeAs(hops).isNotEmpty();
        assertThat(links).allSatisfy(link -> assertThat(link.getAttribute("href"))
                .as("hop link to the trace")
                .isEqualTo(href)
                .endsWith("/" + traceId));

        screenshot(mode);
    }

    /**
     * The baselines have no document: Mint says what travels instead (never the access token), and
     * the verified path is what the target knows, its caller.
     */
    @ParameterizedTest
    @ValueSource(strings = {"mtls-only", "bearer-forward"})
    @Order(2)
    void modeWithoutDocumentWhenMintThenWhatTravelsShownAndDepositWorks(String mode) throws IOException {
        loggedIn();
        click(By.cssSelector("input[name='mode'][value='" + mode + "']"));

        click(By.id("mint"));
        awaitDone("mint");
        assertThat(text("doc-summary")).contains("no document").containsPattern("\\d+ bytes travel");
        String travels = browser.findElement(By.id("layers")).getText();
        assertThat(travels).contains("What travels", "dpr", USER);
        if (mode.equals("mtls-only")) {
            assertThat(travels).contains("SpiffeIdt-User");
        }
        assertThat(hopsInWaterfall()).contains("subject-wl").doesNotContain("asserting-wl");

        click(By.id("balance"));
        awaitDone("balance");
        long before = Long.parseLong(text("balance-value"));
        WebElement amount = browser.findElement(By.id("amount"));
        amount.clear();
        amount.sendKeys("3");
        click(By.id("deposit"));
        awaitDone("deposit");
        assertThat(Long.parseLong(text("balance-value"))).isEqualTo(before + 3);
        List<String> path = browser.findElements(By.cssSelector("#path li")).stream()
                .map(WebElement::getText)
                .toList();
        assertThat(path)
                .containsExactly(
                        stack.idOf("m-tier").toString(), stack.idOf("target-wl").toString());
        assertThat(hopsInWaterfall()).contains("subject-wl", "m-tier", "target-wl");

        screenshot(mode);
    }

    @Test
    @Order(3)
    void pageWhenPhoneSizedThenStillOneReadableColumn() throws IOException {
        loggedIn();
        browser.manage().window().setSize(new Dimension(390, 1600));
        try {
            click(By.cssSelector("input[name='mode'][value='id-mode']"));
            click(By.id("deposit"));
            awaitDone("deposit");
            Long scrollWidth =
                    (Long) ((JavascriptExecutor) browser).executeScript("return document.documentElement.scrollWidth;");
            Long clientWidth =
                    (Long) ((JavascriptExecutor) browser).executeScript("return document.documentElement.clientWidth;");
            assertThat(scrollWidth).as("no sideways scrolling").isLessThanOrEqualTo(clientWidth);
            screenshot("phone");
        } finally {
            browser.manage().window().setSize(new Dimension(1280, 1800));
        }
    }

    @Test
    @Order(3)
    void pageWhenUsedWithTheKeyboardOnlyThenModeAndOperationReachableAndFocusVisible() {
        loggedIn();
        browser.navigate().refresh();
        await().until(ExpectedConditions.visibilityOfElementLocated(By.id("app-view")));
        Actions keys = new Actions(browser);

        // Tab from the top of the page until a mode radio has the focus
        WebElement focused = tabUntil(keys, e -> "mode".equals(e.getAttribute("name")));
        assertThat(focused.getCssValue("outline-style")).as("focus ring").isNotEqualTo("none");
        String before = checkedMode();
        keys.sendKeys(Keys.ARROW_RIGHT).perform();
        String after = checkedMode();
        assertThat(after).isNotEqualTo(before);

        tabUntil(keys, e -> "balance".equals(e.getAttribute("id")));
        keys.sendKeys(Keys.ENTER).perform();
        awaitDone("balance");
        assertThat(text("status")).startsWith(modeName(after));
        assertThat(text("balance-value")).matches("\\d+");
    }

    private static WebElement tabUntil(Actions keys, java.util.function.Predicate<WebElement> wanted) {
        for (int i = 0; i < 40; i++) {
            keys.sendKeys(Keys.TAB).perform();
            WebElement active = browser.switchTo().activeElement();
            if (wanted.test(active)) {
                return active;
            }
        }
        throw new AssertionError("not reachable with the Tab key");
    }

    private static String checkedMode() {
        return browser.findElement(By.cssSelector("input[name='mode']:checked")).getAttribute("value");
    }

    private static String modeName(String mode) {
        return switch (mode) {
            case "dvid" -> "DVID";
            case "id-mode" -> "ID-Mode";
            case "anon-mode" -> "Anon-Mode";
            case "txn-token" -> "Txn-Token";
            case "wimse" -> "WIMSE";
            case "mtls-only" -> "mTLS only";
            case "bearer-forward" -> "Bearer forward";
            default -> "LSVID";
        };
    }

    @Test
    @Order(4)
    void callWhenSessionLostThenBackToLogin() {
        loggedIn();
        browser.manage().deleteCookieNamed("SPIFFEIDT_SUBJECT_SESSION");
        click(By.id("balance"));

        await().until(ExpectedConditions.visibilityOfElementLocated(By.id("login-view")));
        assertThat(text("login-message")).containsIgnoringCase("session expired");
        assertThat(browser.findElement(By.id("app-view")).isDisplayed()).isFalse();
    }

    @Test
    @Order(5)
    void logoutWhenLoggedInThenLoggedOutHereAndAtTheIdp() {
        loggedIn();
        click(By.id("logout"));

        await().until(ExpectedConditions.visibilityOfElementLocated(By.id("login-view")));
        assertThat(browser.getCurrentUrl()).startsWith(stack.subjectUrl().toString());
        assertThat(text("login-message")).contains("logged out");
        click(By.id("login-idp"));
        // the IdP's session ended too: it asks for the password again
        await().until(ExpectedConditions.visibilityOfElementLocated(By.name("username")));
        assertThat(browser.getCurrentUrl()).startsWith(stack.idpUrl().toString());
    }

    /** Opens the page and logs in unless already logged in (the IdP may remember the user). */
    private static void loggedIn() {
        open("/");
        await().until(d -> d.findElement(By.id("app-view")).isDisplayed()
                || d.findElement(By.id("login-view")).isDisplayed());
        if (browser.findElement(By.id("app-view")).isDisplayed()) {
            return;
        }
        click(By.id("login-idp"));
        await().until(d -> d.getCurrentUrl().startsWith(stack.subjectUrl().toString())
                || !d.findElements(By.name("username")).isEmpty());
        if (!browser.findElements(By.name("username")).isEmpty()) {
            typeCredentials(USER, "password");
        }
        await().until(ExpectedConditions.visibilityOfElementLocated(By.id("app-view")));
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
            String status = d.findElement(By.id("status")).getText();
            WebElement error = d.findElement(By.id("error"));
            if (error.isDisplayed()) {
                throw new AssertionError(operation + " failed on the page: " + error.getText());
            }
            return status.contains(operation + " done");
        });
    }

    private static Set<String> hopsInWaterfall() {
        return browser.findElements(By.cssSelector("#waterfall .hop")).stream()
                .filter(hop -> !hop.findElements(By.cssSelector(".step")).isEmpty())
                .map(hop -> hop.getAttribute("data-hop"))
                .collect(Collectors.toSet());
    }

    private static void open(String path) {
        browser.get(stack.subjectUrl() + path);
    }

    private static void click(By by) {
        await().until(ExpectedConditions.elementToBeClickable(by)).click();
    }

    private static String text(String id) {
        return browser.findElement(By.id(id)).getText();
    }

    private static WebDriverWait await() {
        return new WebDriverWait(browser, WAIT);
    }

    /** The whole page: the window grows to the page's height for the picture. */
    private static void screenshot(String name) throws IOException {
        Dimension before = browser.manage().window().getSize();
        Long height =
                (Long) ((JavascriptExecutor) browser).executeScript("return document.documentElement.scrollHeight;");
        browser.manage().window().setSize(new Dimension(before.getWidth(), (int) Math.min(8000, height + 140)));
        try {
            File shot = ((ChromeDriver) browser).getScreenshotAs(OutputType.FILE);
            Files.copy(
                    shot.toPath(), SCREENSHOTS.resolve("page-" + name + ".png"), StandardCopyOption.REPLACE_EXISTING);
        } finally {
            browser.manage().window().setSize(before);
        }
    }
}
