package dev.agentbus.bench.ui;

import dev.agentbus.bench.Stats;
import dev.agentbus.bench.steps.Quiet;
import dev.agentbus.standalone.Standalone;
import dev.agentbus.testkit.model.ScriptedModelServer;
import dev.agentbus.testkit.model.ScriptedReply;
import dev.agentbus.testkit.model.ScriptedToolCall;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The web UI's speed with a long session: the standalone stack runs one turn of {@code --steps} tool steps (five
 * events each, so 400 steps make a session of about 2,000 events), then a headless Chromium opens that session's
 * chat {@code --runs} times from a cold page load and its timeline once per run. Per run: the first contentful
 * paint, the time until the whole transcript is drawn (the chat's {@code data-last-seq} reaches the log's last
 * seq), the longest task that blocked the page meanwhile (the Long Tasks API), and the time until the timeline's
 * first page is drawn. Medians. {@code bin/bench UiBench [--steps 400] [--runs 5]}; see docs/benchmarks.md.
 */
public final class UiBench {
    private static final String PASSWORD = "ui-bench-password";
    private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*\"([^\"]+)\"");

    private UiBench() {
    }

    public static void main(String[] args) throws Exception {
        int steps = 400;
        int runs = 5;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--steps" -> steps = Integer.parseInt(args[++i]);
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                default -> {
                    System.err.println("usage: UiBench [--steps N] [--runs N]");
                    System.exit(64);
                }
            }
        }
        Quiet.logs();
        Path data = Files.createTempDirectory("agentbus-ui-bench");
        try (ScriptedModelServer model = ScriptedModelServer.start();
             Standalone stack = new Standalone(data, 0)) {
            stack.start(Map.of("llm.url", model.baseUrl(), "agentbus.gateway.port", "-1",
                    "agentbus.admin-password", PASSWORD,
                    "agentbus.agent.max-iterations", Integer.toString(steps),
                    // A benchmark scripts the same kind of call over and over, which the loop guards would (rightly) stop.
                    "agentbus.loop-guard.repeated-calls", "0", "agentbus.loop-guard.no-progress", "0"));
            for (int i = 0; i < steps; i++) {
                model.reply(ScriptedReply.toolCalls(List.of(ScriptedToolCall.of("ls", "{\"path\":\".\"}"))));
            }
            String url = stack.gatewayUrl();
            String session = longSession(url, stack.token());
            long lastSeq = lastSeq(url, stack.token(), session);
            System.out.printf("session %s: %d events%n", session, lastSeq);
            double[] paint = new double[runs];
            double[] drawn = new double[runs];
            double[] longest = new double[runs];
            double[] timeline = new double[runs];
            ChromeDriver chrome = chrome();
            try {
                logIn(chrome, url);
                for (int r = 0; r < runs; r++) {
                    chrome.get("about:blank");
                    long start = System.nanoTime();
                    chrome.get(url + "/#/s/" + session);
                    new WebDriverWait(chrome, Duration.ofSeconds(60)).until(d -> String.valueOf(lastSeq).equals(
                            d.findElement(By.cssSelector(".transcript")).getAttribute("data-last-seq")));
                    drawn[r] = (System.nanoTime() - start) / 1e6;
                    paint[r] = number(chrome.executeScript("const p = performance.getEntriesByName("
                            + "'first-contentful-paint')[0]; return p ? p.startTime : -1;"));
                    longest[r] = number(chrome.executeScript("return window.__longest || 0;"));
                    start = System.nanoTime();
                    chrome.get(url + "/#/s/" + session + "/timeline");
                    new WebDriverWait(chrome, Duration.ofSeconds(60)).until(ExpectedConditions
                            .presenceOfElementLocated(By.cssSelector("[data-testid=timeline-event]")));
                    timeline[r] = (System.nanoTime() - start) / 1e6;
                    System.out.printf("run %d: first paint %.0f ms, transcript drawn %.0f ms, longest task %.0f ms, "
                            + "timeline %.0f ms%n", r + 1, paint[r], drawn[r], longest[r], timeline[r]);
                }
            } finally {
                chrome.quit();
            }
            System.out.printf("%n%s%nsession of %d events, %d runs, medians:%n", Stats.machine(), lastSeq, runs);
            System.out.printf("| first contentful paint | whole transcript drawn | longest blocking task | timeline's "
                    + "first page |%n|---|---|---|---|%n| %.0f ms | %.0f ms | %.0f ms | %.0f ms |%n",
                    Stats.median(paint), Stats.median(drawn), Stats.median(longest), Stats.median(timeline));
        }
    }

    private static ChromeDriver chrome() {
        ChromeOptions options = new ChromeOptions();
        options.setBinary("/usr/bin/chromium");
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900");
        return new ChromeDriver(new ChromeDriverService.Builder()
                .usingDriverExecutable(new File("/usr/bin/chromedriver")).usingAnyFreePort().build(), options);
    }

    private static void logIn(ChromeDriver chrome, String url) {
        chrome.get(url + "/");
        WebDriverWait wait = new WebDriverWait(chrome, Duration.ofSeconds(30));
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("[data-testid=login-username]")))
                .sendKeys("admin");
        chrome.findElement(By.cssSelector("[data-testid=login-password]")).sendKeys(PASSWORD);
        chrome.findElement(By.cssSelector("[data-testid=login-submit]")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("[data-testid=me]")));
        // Records the longest task of every page load from here on (the observer is installed before the app runs).
        chrome.executeCdpCommand("Page.addScriptToEvaluateOnNewDocument", Map.of("source",
                "window.__longest = 0; new PerformanceObserver((l) => { for (const e of l.getEntries()) {"
                        + " window.__longest = Math.max(window.__longest, e.duration); } })"
                        + ".observe({type: 'longtask', buffered: true});"));
    }

    private static String longSession(String url, String token) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        String created = http.send(HttpRequest.newBuilder(URI.create(url + "/api/v1/sessions"))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"title\":\"a long session\"}")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Matcher m = ID.matcher(created);
        if (!m.find()) {
            throw new IllegalStateException("no session: " + created);
        }
        String id = m.group(1);
        http.send(HttpRequest.newBuilder(URI.create(url + "/api/v1/sessions/" + id + "/messages"))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"text\":\"list the files, many times\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
        while (System.nanoTime() < deadline) {
            String log = http.send(HttpRequest.newBuilder(URI.create(url + "/api/v1/sessions/" + id + "/log"))
                    .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofString()).body();
            if (log.contains("\"turn.ended.v1\"")) {
                return id;
            }
            Thread.sleep(500);
        }
        throw new IllegalStateException("the long turn did not end in 10 minutes");
    }

    private static long lastSeq(String url, String token, String id) throws Exception {
        String log = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url + "/api/v1/sessions/" + id
                + "/log")).header("Authorization", "Bearer " + token).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        return log.lines().filter(l -> !l.isBlank()).count();
    }

    private static double number(Object value) {
        return value instanceof Number n ? n.doubleValue() : -1;
    }
}
