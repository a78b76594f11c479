package io.spiffeidt.devstack.it;

import java.nio.file.Path;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/** The system's Chromium, headless, driven through chromedriver, as the page ITs use it. */
final class HeadlessChromium {

    private HeadlessChromium() {}

    /**
     * A browser with its own profile directory, headless, and nothing that reaches for the network beyond
     * this machine.
     */
    static ChromeDriver open(Path chromium, Path chromedriver, Path profile) {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(chromium.toFile());
        options.addArguments(
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
                "--window-size=1280,1800",
                "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(chromedriver.toFile())
                .usingAnyFreePort()
                .build();
        return new ChromeDriver(service, options);
    }
}
