package dev.agentbus.systemtests;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A headless Chromium driven through Debian's chromedriver: no Selenium Manager, which would try to download a
 * driver. Missing on a developer's machine, the browser tests are skipped; under {@code CI=true} they fail, as the
 * Docker tests do: a UI that silently goes untested is worse than a red build. Saves a screenshot of each failed
 * test in {@code target/screenshots/}.
 */
final class Browser implements TestWatcher {
    static final String CHROMIUM = "/usr/bin/chromium";
    static final String DRIVER = "/usr/bin/chromedriver";
    static final Dimension DESKTOP = new Dimension(1280, 900);
    static final Dimension MOBILE = new Dimension(390, 844);

    private ChromeDriver driver;

    ChromeDriver start() {
        boolean installed = new File(CHROMIUM).canExecute() && new File(DRIVER).canExecute();
        if (!"true".equals(System.getenv("CI"))) {
            assumeTrue(installed, "chromium and chromium-driver are not installed (apt-get install chromium "
                    + "chromium-driver)");
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM);
        // --no-sandbox: CI runs as root, where Chromium's own sandbox cannot start.
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1280,900");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(new File(DRIVER))
                .usingAnyFreePort().build();
        driver = new ChromeDriver(service, options);
        driver.manage().window().setSize(DESKTOP);
        return driver;
    }

    void quit() {
        if (driver != null) {
            driver.quit();
            driver = null;
        }
    }

    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
        if (driver == null) {
            return;
        }
        try {
            Path dir = Path.of("target", "screenshots");
            Files.createDirectories(dir);
            Files.write(dir.resolve(context.getRequiredTestMethod().getName() + ".png"),
                    driver.getScreenshotAs(OutputType.BYTES));
        } catch (IOException | RuntimeException e) {
            System.err.println("could not save a screenshot: " + e);
        }
    }

    @Override
    public void testAborted(ExtensionContext context, Throwable cause) {
        // skipped: nothing to show
    }

    @Override
    public void testDisabled(ExtensionContext context, Optional<String> reason) {
        // nothing ran
    }
}
