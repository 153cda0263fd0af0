package dev.agentbus.systemtests;

import dev.agentbus.events.Json;
import dev.agentbus.testkit.model.ScriptedReply;
import dev.agentbus.testkit.model.ScriptedToolCall;
import dev.agentbus.testkit.model.WindowStyle;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The web UI in a real (headless) Chromium against the standalone stack and the scripted model server: logging in
 * with a second factor, a streamed turn with a tool-call card, a refresh in the middle of a reply, stop, and the
 * mobile width. The elements are found by their {@code data-testid}s, the UI's stable test hooks.
 */
class BrowserIT extends OnStandaloneStack {
    @RegisterExtension
    static final Browser BROWSER = new Browser();
    static final Duration WAIT = Duration.ofSeconds(30);
    static final String PASSWORD = "uma-password-123";

    static ChromeDriver chrome;
    static String totpSecret;
    /** The API as vic, the person the tests log in as: to seed and check what the browser shows and changes. */
    static GatewayClient vic;

    @BeforeAll
    static void startBrowser() throws Exception {
        chrome = BROWSER.start();
        // The model's context window, as vLLM tells it: the context gauge shows tokens against it.
        model.tellContextWindow(WindowStyle.VLLM, 32_768);
        totpSecret = userWithTwoFactor("uma");
        vic = new GatewayClient(stack.stack.gatewayUrl(), TeamsIT.newUserKey("vic"));
    }

    @AfterAll
    static void stopBrowser() {
        BROWSER.quit();
    }

    @BeforeEach
    void freshPage() {
        model.reset();
        chrome.manage().window().setSize(Browser.DESKTOP);
        chrome.manage().deleteAllCookies();
        chrome.get(stack.stack.gatewayUrl() + "/");
    }

    @Test
    void logging_in_takes_the_password_then_the_two_factor_code() {
        visible("login-username").sendKeys("uma");
        byTestId("login-password").sendKeys(PASSWORD);
        byTestId("login-submit").click();
        WebElement code = visible("login-totp");
        // The next step's code: the current step's was used to confirm the enrolment, and a code works once.
        code.sendKeys(totp(totpSecret, Instant.now().getEpochSecond() / 30 + 1));
        byTestId("login-submit").click();
        visible("me");

        assertThat(byTestId("me").getText()).isEqualTo("uma");
        assertThat(chrome.manage().getCookieNamed("agentbus_login").isHttpOnly()).isTrue();
    }

    @Test
    void a_turn_streams_with_a_tool_call_card_and_a_markdown_answer() {
        logIn();
        model.replyToolCall("write", "{\"path\":\"hello.txt\",\"content\":\"hi\\n\"}")
                .reply(ScriptedReply.text("I wrote **hello.txt**:\n\n```\nhi\n```"));
        byTestId("new-session").click();
        send("create hello.txt containing hi");

        WebElement card = wait(ExpectedConditions.presenceOfElementLocated(
                By.cssSelector("[data-testid=tool-call][data-status=done]")));
        assertThat(card.getText()).contains("write").contains("done in");
        WebElement answer = waitForAnswer("hello.txt");
        assertThat(answer.findElement(By.tagName("strong")).getText()).isEqualTo("hello.txt");
        // highlight.js is loaded with the first code block, so the colours come a moment after the text.
        wait(ExpectedConditions.numberOfElementsToBe(
                By.cssSelector("[data-testid=message-assistant] pre code.hljs"), 1));
        assertThat(answer.findElements(By.cssSelector("pre button.copy"))).as("a copy button").hasSize(1);
        assertThat(byTestId("message-user").findElement(By.tagName("p")).getText())
                .isEqualTo("create hello.txt containing hi");
    }

    @Test
    void a_refresh_in_the_middle_of_a_reply_brings_it_back_whole_and_once() {
        logIn();
        String reply = "The whole answer, streamed slowly, arrives exactly once.";
        model.reply(ScriptedReply.text(reply).withChunkDelay(Duration.ofMillis(150)));
        byTestId("new-session").click();
        send("answer slowly");
        wait(d -> !d.findElements(By.cssSelector("[data-testid=message-assistant].streaming")).isEmpty()
                && !d.findElement(By.cssSelector("[data-testid=message-assistant]")).getText().isBlank());

        chrome.navigate().refresh();

        waitForAnswer(reply);
        // The answer's text, not the thumbs under it.
        assertThat(chrome.findElements(By.cssSelector("[data-testid=message-assistant]"))).hasSize(1)
                .allSatisfy(m -> assertThat(m.findElement(By.cssSelector(".markdown")).getText()).isEqualTo(reply));
        assertThat(chrome.findElements(By.cssSelector("[data-testid=message-user]"))).hasSize(1);
    }

    @Test
    void stop_ends_a_running_turn_and_the_stop_button_survives_a_refresh_while_it_runs() {
        logIn();
        model.reply(ScriptedReply.text("too late").withDelay(Duration.ofSeconds(20)));
        byTestId("new-session").click();
        send("take your time");
        visible("stop");
        chrome.navigate().refresh();
        visible("stop");

        byTestId("stop").click();

        wait(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".transcript"), "Stopped."));
        wait(ExpectedConditions.invisibilityOfElementLocated(By.cssSelector("[data-testid=stop]")));
        assertThat(byTestId("composer-send").isEnabled()).isTrue();
    }

    @Test
    void a_task_call_shows_a_card_that_links_to_its_sub_agent_whose_chat_links_back_to_the_parent() {
        logIn();
        model.replyToolCall("task", "{\"description\":\"count the apples\",\"prompt\":\"How many apples?\"}")
                .replyText("There are 3 apples.")
                .replyText("The sub-agent counted 3 apples.");
        byTestId("new-session").click();
        send("delegate the count");
        String parent = currentSession();

        WebElement card = wait(ExpectedConditions.presenceOfElementLocated(
                By.cssSelector("[data-testid=subagent-card][data-outcome=COMPLETED]")));
        assertThat(card.getText()).contains("Sub-agent").contains("count the apples").contains("completed");
        waitForAnswer("The sub-agent counted 3 apples.");
        String child = chrome.findElement(By.cssSelector("[data-testid=subagent-link]")).getAttribute("href")
                .replaceFirst(".*#/s/", "");
        assertThat(child).isNotEqualTo(parent);

        chrome.findElement(By.cssSelector("[data-testid=subagent-link]")).click();

        wait(d -> currentSession().equals(child) ? true : null);
        waitForAnswer("There are 3 apples.");
        assertThat(visible("subagent-parent").getText()).contains("A sub-agent, started by its parent session");
        assertThat(byTestId("message-user").findElement(By.tagName("p")).getText()).isEqualTo("How many apples?");
        byTestId("parent-link").click();
        wait(d -> currentSession().equals(parent) ? true : null);
        visible("subagent-card");
    }

    @Test
    void the_timeline_steps_through_the_events_and_forks_at_one() {
        logIn();
        model.replyText("the first answer");
        byTestId("new-session").click();
        send("first question");
        waitForAnswer("the first answer");
        String source = chrome.getCurrentUrl();

        byTestId("tab-timeline").click();
        List<WebElement> events = wait(d -> {
            List<WebElement> rows = d.findElements(By.cssSelector("[data-testid=timeline-event]"));
            return rows.isEmpty() ? null : rows;
        });
        assertThat(events.getFirst().getText()).contains("session.created.v1");
        assertThat(chrome.findElement(By.cssSelector(".events")).getText()).contains("user_message.posted.v1")
                .contains("model_call.completed.v1").contains("turn.ended.v1");
        assertThat(chrome.findElement(By.cssSelector(".state")).getText()).contains("the first answer");
        WebElement question = events.stream().filter(e -> e.getText().contains("user_message.posted.v1"))
                .findFirst().orElseThrow();
        String seq = question.getAttribute("data-seq");
        question.findElement(By.cssSelector("button.seq")).click();
        wait(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".state h2"), "At event " + seq));
        assertThat(chrome.findElement(By.cssSelector(".state")).getText()).as("before the answer")
                .contains("first question").doesNotContain("the first answer");

        chrome.findElements(By.cssSelector("[data-testid=timeline-event]")).stream()
                .filter(e -> e.getText().contains("turn.ended.v1")).findFirst().orElseThrow()
                .findElement(By.cssSelector("[data-testid=timeline-fork]")).click();

        wait(d -> !d.getCurrentUrl().equals(source) && !d.getCurrentUrl().endsWith("/timeline"));
        wait(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".transcript"), "Forked from"));
        waitForAnswer("the first answer");
    }

    @Test
    void editing_a_message_sends_it_again_in_a_fork_and_leaves_the_original() {
        logIn();
        model.replyText("answer to the typo");
        byTestId("new-session").click();
        send("what is 2+3?");
        waitForAnswer("answer to the typo");
        String source = chrome.getCurrentUrl();
        model.replyText("answer to the edit");

        byTestId("message-edit").click();
        WebElement edit = visible("message-edit-input");
        edit.clear();
        edit.sendKeys("what is 2+2?");
        byTestId("message-edit-send").click();

        wait(d -> !d.getCurrentUrl().equals(source));
        waitForAnswer("answer to the edit");
        assertThat(chrome.findElements(By.cssSelector("[data-testid=message-user]")))
                .extracting(m -> m.findElement(By.tagName("p")).getText()).containsExactly("what is 2+2?");
        chrome.get(source);
        waitForAnswer("answer to the typo");
        assertThat(chrome.findElements(By.cssSelector("[data-testid=message-user]"))).hasSize(1);
    }

    @Test
    void settings_make_an_api_key_shown_once_and_refuse_a_bad_model_server_with_the_apis_message() {
        logIn();
        visible("nav-settings").click();
        visible("api-key-name").sendKeys("browser test key");
        byTestId("api-key-password").sendKeys("vic-password-123");
        byTestId("api-key-create").click();

        WebElement key = visible("api-key-value");
        assertThat(key.getText()).startsWith("ab_");
        wait(d -> d.findElements(By.cssSelector("[data-testid=api-key]")).stream()
                .anyMatch(k -> k.getText().contains("browser test key")) ? true : null);
        assertThat(chrome.findElement(By.cssSelector("[data-testid=api-key]")).getText()).doesNotContain(key.getText());

        byTestId("model-url").sendKeys("file:///etc/passwd");
        byTestId("model-save").click();
        wait(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".settings"), "baseUrl must be"));
    }

    @Test
    void screenshots_of_the_main_screens_light_and_dark_at_desktop_and_phone_widths() throws Exception {
        java.nio.file.Path dir = java.nio.file.Path.of("..", "docs", "ui");
        java.nio.file.Files.createDirectories(dir);
        model.replyToolCall("write", "{\"path\":\"notes.md\",\"content\":\"# Notes\\n\"}")
                .reply(ScriptedReply.text("I made **notes.md**:\n\n```markdown\n# Notes\n```\n\nAnything else?"));
        String session = null;
        for (String scheme : List.of("light", "dark")) {
            chrome.executeCdpCommand("Emulation.setEmulatedMedia", Map.of("features",
                    List.of(Map.of("name", "prefers-color-scheme", "value", scheme))));
            for (var size : List.of(Map.entry("desktop", Browser.DESKTOP), Map.entry("mobile", Browser.MOBILE))) {
                chrome.manage().window().setSize(size.getValue());
                chrome.manage().deleteAllCookies();
                chrome.get(stack.stack.gatewayUrl() + "/");
                visible("login-username");
                shot(dir, "login", scheme, size.getKey());
                logIn();
                if (session == null) {
                    byTestId("new-session").click();
                    send("write a notes file");
                    waitForAnswer("Anything else?");
                    session = chrome.getCurrentUrl();
                } else {
                    chrome.get(session);
                    waitForAnswer("Anything else?");
                }
                // The gauge comes with the session view's context, a moment after the transcript.
                visible("context-gauge");
                assertPaintedIn(scheme, "body");
                assertPaintedIn(scheme, "[data-testid=composer-input]");
                shot(dir, "chat", scheme, size.getKey());
                visible("notifications-bell").click();
                visible("notifications-list");
                shot(dir, "notifications", scheme, size.getKey());
                byTestId("notifications-close").click();
                wait(ExpectedConditions.invisibilityOfElementLocated(By.cssSelector("#notifications-panel")));
                chrome.get(session + "/timeline");
                visible("timeline-event");
                shot(dir, "timeline", scheme, size.getKey());
                chrome.get(stack.stack.gatewayUrl() + "/#/settings");
                visible("api-key-name");
                shot(dir, "settings", scheme, size.getKey());
                chrome.get(stack.stack.gatewayUrl() + "/#/inbox");
                visible("inbox-text");
                shot(dir, "inbox", scheme, size.getKey());
            }
        }
        chrome.executeCdpCommand("Emulation.setEmulatedMedia", Map.of("features", List.of()));
    }

    /**
     * That the page really follows the colour scheme, which a screenshot alone does not check: the element's computed
     * background is dark and its text light in the dark scheme, and the other way round in the light one.
     */
    private static void assertPaintedIn(String scheme, String selector) {
        double background = brightness(selector, "backgroundColor");
        double text = brightness(selector, "color");
        if (scheme.equals("dark")) {
            assertThat(background).as(selector + "'s background in the dark scheme").isLessThan(60);
            assertThat(text).as(selector + "'s text in the dark scheme").isGreaterThan(190);
        } else {
            assertThat(background).as(selector + "'s background in the light scheme").isGreaterThan(190);
            assertThat(text).as(selector + "'s text in the light scheme").isLessThan(60);
        }
    }

    /** The perceived brightness (0–255) of one computed colour ({@code rgb(r, g, b)}) of the first match. */
    private static double brightness(String selector, String property) {
        String colour = String.valueOf(chrome.executeScript(
                "return getComputedStyle(document.querySelector(arguments[0]))[arguments[1]]", selector, property));
        Matcher rgb = Pattern.compile("rgba?\\((\\d+), (\\d+), (\\d+)").matcher(colour);
        assertThat(rgb.find()).as(selector + " " + property + " is " + colour).isTrue();
        return 0.2126 * Integer.parseInt(rgb.group(1)) + 0.7152 * Integer.parseInt(rgb.group(2))
                + 0.0722 * Integer.parseInt(rgb.group(3));
    }

    private static void shot(java.nio.file.Path dir, String screen, String scheme, String size) throws Exception {
        java.nio.file.Files.write(dir.resolve(screen + "-" + scheme + "-" + size + ".png"),
                chrome.getScreenshotAs(org.openqa.selenium.OutputType.BYTES));
    }

    @Test
    void slash_commands_complete_as_you_type_and_question_mark_lists_the_shortcuts() {
        logIn();
        byTestId("new-session").click();
        WebElement input = visible("composer-input");
        input.sendKeys("/ti");
        wait(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("[data-testid=completion]"),
                "/timeline"));
        input.sendKeys(org.openqa.selenium.Keys.TAB);
        assertThat(input.getAttribute("value")).isEqualTo("/timeline");
        input.sendKeys(org.openqa.selenium.Keys.ENTER);
        visible("timeline-event");
        assertThat(chrome.getCurrentUrl()).endsWith("/timeline");
        assertThat(model.requestCount()).as("a command is not a message").isZero();

        chrome.findElement(By.tagName("body")).sendKeys("?");
        WebElement help = visible("shortcuts");
        assertThat(help.getText()).contains("Alt+N").contains("/fork").contains("/stop");
        byTestId("shortcuts-close").click();
        assertThat(chrome.findElements(By.cssSelector("[data-testid=shortcuts]"))).isEmpty();

        // /plan starts a new session in plan-first mode.
        String before = currentSession();
        visible("tab-chat").click();
        WebElement composer = visible("composer-input");
        composer.sendKeys("/plan");
        composer.sendKeys(org.openqa.selenium.Keys.ENTER);
        wait(d -> currentSession().equals(before) ? null : true);
        wait(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("[data-testid=planning-summary]"),
                "Plan first: no plan yet"));
    }

    @Test
    void a_long_session_shows_its_latest_items_and_the_earlier_ones_on_request() {
        logIn();
        byTestId("new-session").click();
        for (int turn = 1; turn <= 3; turn++) {
            for (int step = 0; step < 25; step++) {
                // A different file each step: the loop guards stop an agent that repeats itself or makes no progress.
                model.replyToolCall("write", "{\"path\":\"notes/" + turn + "-" + step + ".txt\",\"content\":\"x\"}");
            }
            send("turn " + turn);
            int ended = turn;
            wait(d -> d.findElements(By.xpath("//li[contains(@class, 'notice') and contains(., 'step limit')]"))
                    .size() >= ended ? true : null);
            byTestId("composer-input").clear();
        }
        int drawn = chrome.findElements(By.cssSelector(".transcript > li")).size();
        assertThat(drawn).as("only the latest items are in the page").isLessThanOrEqualTo(150);
        WebElement earlier = visible("show-earlier");

        earlier.click();

        wait(d -> d.findElements(By.cssSelector(".transcript > li")).size() > drawn ? true : null);
        assertThat(chrome.findElements(By.cssSelector("[data-testid=message-user]")))
                .extracting(m -> m.findElement(By.tagName("p")).getText()).containsExactly("turn 1", "turn 2", "turn 3");
        assertThat(byTestId("show-earlier").isDisplayed()).isFalse();
    }

    @Test
    void an_uploaded_file_appears_in_the_tree_and_previews() throws Exception {
        logIn();
        model.replyText("ready");
        byTestId("new-session").click();
        send("hello");
        waitForAnswer("ready");
        java.nio.file.Path file = dataDir.resolve("browser-upload").resolve("notes.md");
        java.nio.file.Files.createDirectories(file.getParent());
        java.nio.file.Files.writeString(file, "# Shopping\n\n- milk\n- bread\n");

        byTestId("tab-files").click();
        visible("file-tree");
        chrome.findElement(By.cssSelector("[data-testid=file-input]")).sendKeys(file.toAbsolutePath().toString());

        WebElement uploaded = wait(ExpectedConditions.elementToBeClickable(
                By.cssSelector("[data-testid=file][data-path='notes.md']")));
        uploaded.click();
        wait(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("[data-testid=file-preview]"), "milk"));
        assertThat(chrome.findElement(By.cssSelector("[data-testid=file-preview] h1")).getText()).isEqualTo("Shopping");
        assertThat(byTestId("file-download").getAttribute("href")).endsWith("/files/notes.md");

        // Deleted (a backup and a checkpoint are kept), then brought back by rewinding to the upload's checkpoint.
        byTestId("file-delete").click();
        chrome.switchTo().alert().accept();
        wait(ExpectedConditions.invisibilityOfElementLocated(
                By.cssSelector("[data-testid=file][data-path='notes.md']")));
        wait(d -> d.findElements(By.cssSelector("[data-testid=change]")).size() == 2 ? true : null);
        WebElement uploadChange = chrome.findElements(By.cssSelector("[data-testid=change]")).get(1);
        assertThat(uploadChange.getText()).contains("you: upload");
        uploadChange.click();
        uploadChange.findElement(By.cssSelector("[data-testid=rewind]")).click();
        chrome.switchTo().alert().accept();
        wait(ExpectedConditions.elementToBeClickable(By.cssSelector("[data-testid=file][data-path='notes.md']")))
                .click();
        wait(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("[data-testid=file-preview]"), "milk"));
    }

    @Test
    void a_read_only_link_shows_the_conversation_until_it_is_revoked() {
        logIn();
        model.replyText("Shared **answer**.");
        byTestId("new-session").click();
        send("share this");
        waitForAnswer("Shared answer.");
        String session = currentSession();

        visible("tab-share").click();
        assertThat(visible("export-markdown").getAttribute("href")).endsWith("/sessions/" + session + "/export.md");
        byTestId("share-create").click();
        String url = visible("share-url").getAttribute("value");
        assertThat(url).contains("/share.html#sh_");
        wait(d -> d.findElements(By.cssSelector("[data-testid=share-revoke]")).size() == 1 ? true : null);

        chrome.get(url);
        WebElement shared = visible("shared-session");
        assertThat(shared.findElement(By.tagName("strong")).getText()).isEqualTo("answer");
        assertThat(shared.getText()).contains("share this");

        chrome.get(stack.stack.gatewayUrl() + "/#/s/" + session + "/share");
        visible("share-revoke").click();
        wait(d -> d.findElements(By.cssSelector("[data-testid=share-revoke]")).isEmpty() ? true : null);
        chrome.get(url);
        chrome.navigate().refresh();
        assertThat(visible("shared-error").getText()).contains("no such share link");
    }

    @Test
    void a_session_pinned_and_filed_in_a_folder_stays_there_after_a_reload() {
        logIn();
        byTestId("new-session").click();
        String session = currentSession();
        By entry = By.xpath("//button[@data-session-id='" + session + "']/ancestor::li[contains(@class,'entry')]");

        WebElement row = wait(ExpectedConditions.presenceOfElementLocated(entry));
        new org.openqa.selenium.interactions.Actions(chrome).moveToElement(row).perform();
        row.findElement(By.cssSelector("[data-testid=session-pin]")).click();
        wait(ExpectedConditions.presenceOfElementLocated(By.cssSelector(
                "[data-testid=pinned] [data-session-id='" + session + "']")));

        row = wait(ExpectedConditions.presenceOfElementLocated(entry));
        new org.openqa.selenium.interactions.Actions(chrome).moveToElement(row).perform();
        row.findElement(By.cssSelector("[data-testid=session-pin]")).click();
        row = wait(ExpectedConditions.presenceOfElementLocated(By.xpath(
                "//ul[@aria-label='Sessions']/li[contains(@class,'entry')]/button[@data-session-id='" + session
                        + "']/..")));
        new org.openqa.selenium.interactions.Actions(chrome).moveToElement(row).perform();
        row.findElement(By.cssSelector("[data-testid=session-folder]")).click();
        chrome.switchTo().alert().sendKeys("Client work");
        chrome.switchTo().alert().accept();
        By filed = By.cssSelector("[data-testid=folder][data-folder='Client work'] [data-session-id='" + session + "']");
        wait(ExpectedConditions.presenceOfElementLocated(filed));

        chrome.navigate().refresh();
        wait(ExpectedConditions.presenceOfElementLocated(filed));
        assertThat(chrome.findElements(By.cssSelector("[data-testid=pinned] [data-session-id='" + session + "']")))
                .isEmpty();
    }

    @Test
    void a_call_held_for_approval_is_approved_from_the_approvals_page_and_runs() {
        logIn();
        model.replyToolCall("shell", "{\"command\":\"echo approved-run\"}").replyText("It ran.");
        byTestId("new-session").click();
        String session = currentSession();
        new org.openqa.selenium.support.ui.Select(visible("permission-mode")).selectByValue("normal");
        wait(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".transcript"),
                "Permission mode: normal."));
        send("run it");

        WebElement card = wait(ExpectedConditions.presenceOfElementLocated(
                By.cssSelector("[data-testid=tool-call][data-status=approval]")));
        assertThat(card.findElement(By.cssSelector("[data-testid=approval-approve]")).isDisplayed()).isTrue();
        assertThat(card.findElement(By.cssSelector("[data-testid=approval-deny]")).isDisplayed()).isTrue();
        wait(ExpectedConditions.textToBePresentInElementLocated(
                By.cssSelector("[data-session-id='" + session + "'] .status"), "needs approval"));

        byTestId("nav-approvals").click();
        WebElement pending = visible("pending-approval");
        assertThat(pending.getText()).contains("shell").contains("echo approved-run");
        pending.findElement(By.cssSelector("[data-testid=approval-approve]")).click();
        wait(d -> d.findElements(By.cssSelector("[data-testid=pending-approval]")).isEmpty() ? true : null);

        chrome.get(stack.stack.gatewayUrl() + "/#/s/" + session);
        waitForAnswer("It ran.");
        WebElement done = wait(ExpectedConditions.presenceOfElementLocated(
                By.cssSelector("[data-testid=tool-call][data-status=done]")));
        assertThat(done.getText()).contains("Approved by");
    }

    @Test
    void an_admin_makes_a_group_adds_a_member_and_a_session_is_shared_with_it() throws Exception {
        logInAsAdmin();
        visible("nav-admin").click();
        visible("group-id").sendKeys("browser-qa");
        byTestId("group-create").click();
        WebElement group = wait(ExpectedConditions.presenceOfElementLocated(
                By.cssSelector("[data-testid=group][data-group='browser-qa']")));
        // The admin themself: a session is shared only with a group its owner belongs to.
        new org.openqa.selenium.support.ui.Select(group.findElement(By.cssSelector("select")))
                .selectByVisibleText("admin");
        group.findElement(By.cssSelector("[data-testid=group-add-member]")).click();
        wait(ExpectedConditions.presenceOfElementLocated(
                By.cssSelector("[data-testid=group][data-group='browser-qa'] .member")));

        byTestId("new-session").click();
        visible("tab-share").click();
        visible("share-group").sendKeys("browser-qa");
        new org.openqa.selenium.support.ui.Select(byTestId("share-group-mode")).selectByValue("write");
        byTestId("share-group-add").click();
        wait(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("[data-testid=group-shares]"),
                "browser-qa: write"));
    }

    @Test
    void a_thumbs_up_on_an_answer_is_recorded_and_shown_pressed_and_a_thumbs_down_replaces_it() {
        logIn();
        model.replyText("An answer worth a vote.");
        byTestId("new-session").click();
        send("answer me");
        WebElement answer = waitForAnswer("An answer worth a vote.");

        answer.findElement(By.cssSelector("[data-testid=thumbs-up]")).click();

        // Pressed once feedback.recorded.v1 is in the log and reached the page: the vote was recorded, not just clicked.
        wait(d -> "true".equals(d.findElement(By.cssSelector("[data-testid=message-assistant] [data-testid=thumbs-up]"))
                .getAttribute("aria-pressed")));
        byTestId("message-assistant").findElement(By.cssSelector("[data-testid=thumbs-down]")).click();
        wait(d -> "true".equals(d.findElement(By.cssSelector(
                "[data-testid=message-assistant] [data-testid=thumbs-down]")).getAttribute("aria-pressed"))
                && "false".equals(d.findElement(By.cssSelector(
                "[data-testid=message-assistant] [data-testid=thumbs-up]")).getAttribute("aria-pressed")));
    }

    @Test
    void a_whisper_reaches_the_agents_next_step_and_a_session_is_renamed() {
        logIn();
        model.reply(ScriptedReply.text("first thoughts").withDelay(Duration.ofSeconds(4))).replyText("revised answer");
        byTestId("new-session").click();
        String session = currentSession();
        send("plan the trip");
        wait(ExpectedConditions.textToBe(By.cssSelector("[data-testid=composer-send]"), "Whisper"));
        send("also book a hotel");
        wait(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".transcript"),
                "Whisper: also book a hotel"));
        waitForAnswer("revised answer");
        assertThat(model.lastRequest().toString()).contains("also book a hotel");
        wait(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".transcript"), "(delivered)"));

        WebElement row = wait(ExpectedConditions.presenceOfElementLocated(By.xpath(
                "//button[@data-session-id='" + session + "']/ancestor::li[contains(@class,'entry')]")));
        new org.openqa.selenium.interactions.Actions(chrome).moveToElement(row).perform();
        row.findElement(By.cssSelector("[data-testid=session-rename]")).click();
        chrome.switchTo().alert().sendKeys("Trip to Lisbon");
        chrome.switchTo().alert().accept();
        wait(ExpectedConditions.textToBePresentInElementLocated(
                By.cssSelector("[data-session-id='" + session + "'] .title"), "Trip to Lisbon"));
    }

    @Test
    void at_a_phones_width_the_sessions_and_the_composer_are_both_there() {
        chrome.manage().window().setSize(Browser.MOBILE);
        logIn();
        byTestId("new-session").click();
        WebElement input = visible("composer-input");

        assertThat(input.getRect().getWidth()).isLessThanOrEqualTo(Browser.MOBILE.getWidth());
        assertThat(byTestId("new-session").isDisplayed()).isTrue();
        Object overflow = chrome.executeScript(
                "return document.documentElement.scrollWidth > document.documentElement.clientWidth");
        assertThat(overflow).as("no sideways scrolling").isEqualTo(false);
    }

    @Test
    void a_plan_first_session_shows_the_models_plan_which_is_approved_in_the_panel_then_its_steps_and_todos()
            throws Exception {
        logIn();
        model.replyToolCalls(List.of(
                        new ScriptedToolCall("t1", "todo_add", "{\"text\":\"write the notes\"}"),
                        new ScriptedToolCall("p1", "plan_create",
                                "{\"title\":\"notes\",\"steps\":[\"write notes.txt\",\"read it back\"]}")))
                .replyToolCalls(List.of(
                        new ScriptedToolCall("s1", "plan_complete_step", "{\"evidence\":\"wrote notes.txt\"}"),
                        new ScriptedToolCall("t2", "todo_update", "{\"id\":1,\"status\":\"in_progress\"}")))
                .replyText("Step one is done.");
        chrome.findElement(By.cssSelector("[data-testid=new-session-options] summary")).click();
        visible("new-plan-first").click();
        byTestId("new-session").click();
        currentSession();
        wait(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("[data-testid=planning-summary]"),
                "Plan first: no plan yet"));
        assertThat(byTestId("new-plan-first").isSelected()).as("the option is for one new session").isFalse();
        send("write notes.txt");

        WebElement plan = wait(ExpectedConditions.presenceOfElementLocated(
                By.cssSelector("[data-testid=plan][data-status=proposed]")));
        assertThat(plan.findElements(By.cssSelector("[data-testid=plan-step]"))).extracting(WebElement::getText)
                .hasSize(2).anySatisfy(t -> assertThat(t).contains("write notes.txt"));
        assertThat(byTestId("planning-summary").getText()).contains("waits for your approval");
        wait(ExpectedConditions.presenceOfElementLocated(By.cssSelector("[data-testid=todo][data-status=pending]")));
        java.nio.file.Path docs = java.nio.file.Path.of("..", "docs", "ui");
        shot(docs, "plan", "light", "desktop");
        chrome.executeCdpCommand("Emulation.setEmulatedMedia", Map.of("features",
                List.of(Map.of("name", "prefers-color-scheme", "value", "dark"))));
        shot(docs, "plan", "dark", "desktop");
        chrome.executeCdpCommand("Emulation.setEmulatedMedia", Map.of("features", List.of()));
        visible("plan-note").sendKeys("go ahead");
        byTestId("plan-approve").click();

        waitForAnswer("Step one is done.");
        wait(ExpectedConditions.presenceOfElementLocated(By.cssSelector("[data-testid=plan][data-status=active]")));
        wait(ExpectedConditions.presenceOfElementLocated(
                By.cssSelector("[data-testid=plan-step][data-status=done]")));
        assertThat(chrome.findElements(By.cssSelector("[data-testid=plan-step]"))).extracting(
                s -> s.getAttribute("data-status")).containsExactly("done", "pending");
        wait(ExpectedConditions.presenceOfElementLocated(
                By.cssSelector("[data-testid=todo][data-status=in_progress]")));
        assertThat(byTestId("planning-summary").getText()).contains("active, 1/2 steps");
        assertThat(chrome.findElements(By.cssSelector("[data-testid=plan-approve]"))).as("nothing to decide").isEmpty();
        WebElement card = chrome.findElements(By.cssSelector("[data-testid=tool-call]")).stream()
                .filter(c -> c.getText().contains("plan_create")).findFirst().orElseThrow();
        assertThat(card.getText()).contains("go ahead");
    }

    @Test
    void the_context_gauge_shows_after_a_turn_and_compact_during_one_says_why_not() {
        logIn();
        model.replyText("first answer").reply(ScriptedReply.text("slow answer").withDelay(Duration.ofSeconds(4)));
        byTestId("new-session").click();
        send("hello");
        waitForAnswer("first answer");
        WebElement gauge = wait(ExpectedConditions.visibilityOfElementLocated(
                By.cssSelector("[data-testid=context-gauge]")));
        assertThat(Long.parseLong(gauge.getAttribute("data-tokens"))).isPositive();
        assertThat(gauge.getText()).startsWith("context ").contains("%");
        assertThat(gauge.getAttribute("data-window")).isEqualTo("32768");
        assertThat(gauge.findElement(By.tagName("meter")).getAttribute("max")).isEqualTo("32768");
        // The scripted server reports its usage: measured, not estimated.
        assertThat(gauge.getAttribute("data-estimated")).isEqualTo("false");
        assertThat(gauge.getText()).doesNotContain("estimated");

        send("and again");
        wait(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("[data-testid=stop]")));
        WebElement input = visible("composer-input");
        input.sendKeys("/compact");
        input.sendKeys(org.openqa.selenium.Keys.ENTER);
        wait(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".pane > .error"), "is running"));
        waitForAnswer("slow answer");
    }

    @Test
    void a_notification_comes_under_the_bell_when_a_turn_ends_and_is_marked_read() {
        logIn();
        model.replyText("all done here");
        byTestId("new-session").click();
        String session = currentSession();
        send("finish up");
        waitForAnswer("all done here");

        By mine = By.cssSelector("[data-testid=notification][data-kind=turn_ended] a[href='#/s/" + session + "']");
        WebElement badge = wait(ExpectedConditions.visibilityOfElementLocated(
                By.cssSelector("[data-testid=notifications-unread]")));
        assertThat(Integer.parseInt(badge.getText())).isPositive();
        byTestId("notifications-bell").click();
        assertThat(byTestId("notifications-bell").getAttribute("aria-expanded")).isEqualTo("true");
        WebElement item = wait(ExpectedConditions.visibilityOfElementLocated(mine));
        assertThat(item.findElement(By.xpath("..")).getAttribute("data-read")).isEqualTo("false");
        assertThat(item.getText()).contains("turn ended");

        byTestId("notifications-read-all").click();
        wait(ExpectedConditions.invisibilityOfElementLocated(By.cssSelector("[data-testid=notifications-unread]")));
        assertThat(chrome.findElement(mine).findElement(By.xpath("..")).getAttribute("data-read")).isEqualTo("true");
        // Read on the server, not only on this page.
        chrome.navigate().refresh();
        visible("me");
        wait(d -> d.findElements(mine).isEmpty() ? null : true);
        assertThat(chrome.findElement(mine).findElement(By.xpath("..")).getAttribute("data-read")).isEqualTo("true");
        assertThat(byTestId("notifications-unread").isDisplayed()).isFalse();
        chrome.findElement(By.cssSelector("[data-testid=notifications-bell]")).click();
        visible("notifications-list");
        chrome.findElement(mine).click();
        wait(ExpectedConditions.urlContains("#/s/" + session));
    }

    @Test
    void the_inbox_shows_the_gateways_refusal_queues_a_task_for_later_and_cancels_it() {
        logIn();
        visible("nav-inbox").click();
        visible("inbox-text").sendKeys("write the weekly report");
        chrome.executeScript("arguments[0].value = '2020-01-01T09:00'", byTestId("inbox-at"));
        byTestId("inbox-submit").click();
        wait(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("[data-testid=inbox-error]"), "past"));

        String later = java.time.LocalDateTime.now().plusHours(2).withSecond(0).withNano(0).toString();
        chrome.executeScript("arguments[0].value = arguments[1]", byTestId("inbox-at"), later.substring(0, 16));
        byTestId("inbox-title").sendKeys("Weekly");
        byTestId("inbox-submit").click();
        WebElement task = wait(d -> d.findElements(By.cssSelector("[data-testid=inbox-task][data-status=queued]"))
                .stream().filter(t -> t.getText().contains("Weekly")).findFirst().orElse(null));
        String id = task.getAttribute("data-id");
        task.findElement(By.cssSelector("[data-testid=inbox-cancel]")).click();
        wait(d -> d.findElements(By.cssSelector("[data-testid=inbox-task][data-id='" + id + "']")).isEmpty()
                ? true : null);
    }

    @Test
    void notification_settings_save_the_kinds_and_a_webhook_and_a_session_takes_a_preset() {
        logIn();
        visible("nav-settings").click();
        WebElement waitFired = wait(ExpectedConditions.elementToBeClickable(
                By.cssSelector("[data-testid=notification-kind][data-kind=wait_fired]")));
        assertThat(waitFired.isSelected()).as("off by default").isFalse();
        waitFired.click();
        byTestId("notification-webhook").sendKeys("ftp://example.com/hook");
        byTestId("notification-save").click();
        wait(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".settings"), "webhookUrl"));
        byTestId("notification-webhook").clear();
        byTestId("notification-save").click();
        wait(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".settings"), "Saved."));
        chrome.navigate().refresh();
        assertThat(wait(ExpectedConditions.elementToBeClickable(
                By.cssSelector("[data-testid=notification-kind][data-kind=wait_fired]"))).isSelected()).isTrue();
        chrome.findElement(By.cssSelector("[data-testid=notification-kind][data-kind=wait_fired]")).click();
        byTestId("notification-save").click();
        wait(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".settings"), "Saved."));

        byTestId("new-session").click();
        currentSession();
        chrome.findElement(By.cssSelector("[data-testid=prompt-panel] summary")).click();
        WebElement preset = visible("session-preset");
        wait(d -> new org.openqa.selenium.support.ui.Select(preset).getOptions().size() > 1 ? true : null);
        new org.openqa.selenium.support.ui.Select(preset).selectByValue("code");
        byTestId("session-system-prompt").sendKeys("Answer in haiku.");
        byTestId("session-system-prompt-save").click();
        wait(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("[data-testid=prompt-panel] summary"),
                "Prompt: code (own text)"));
        chrome.navigate().refresh();
        wait(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("[data-testid=prompt-panel] summary"),
                "Prompt: code (own text)"));
        chrome.findElement(By.cssSelector("[data-testid=prompt-panel] summary")).click();
        assertThat(visible("session-system-prompt").getAttribute("value")).isEqualTo("Answer in haiku.");
        assertThat(byTestId("context-files").getText()).contains("None");
    }

    @Test
    void a_session_takes_its_own_model_and_temperature_and_its_next_call_asks_for_them() {
        logIn();
        model.replyText("Asked as chosen.");
        byTestId("new-session").click();
        currentSession();
        chrome.findElement(By.cssSelector("[data-testid=prompt-panel] summary")).click();
        visible("session-model").sendKeys("tiny-model");
        byTestId("session-temperature").sendKeys("0.3");
        byTestId("session-model-save").click();
        wait(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("[data-testid=prompt-panel]"),
                "Saved."));

        send("which model answers?");
        waitForAnswer("Asked as chosen.");

        var asked = model.requests().getLast();
        assertThat(asked.path("model").asText()).isEqualTo("tiny-model");
        assertThat(asked.path("temperature").asDouble()).isEqualTo(0.3);
        chrome.navigate().refresh();
        wait(ExpectedConditions.elementToBeClickable(By.cssSelector("[data-testid=prompt-panel] summary"))).click();
        wait(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("[data-testid=session-last-call]"),
                "model tiny-model, temperature 0.3"));
        assertThat(visible("session-model").getAttribute("value")).isEqualTo("tiny-model");
        assertThat(byTestId("session-temperature").getAttribute("value")).isEqualTo("0.3");
    }

    @Test
    void the_search_box_finds_messages_by_meaning_or_by_words_as_chosen() {
        logIn();
        model.replyText("Roll back, then read the pod logs of the billing service.");
        byTestId("new-session").click();
        send("The kubernetes deployment of the billing service failed twice tonight");
        waitForAnswer("Roll back");
        visible("session-search").sendKeys("kubernetes rollout problems");
        new org.openqa.selenium.support.ui.Select(byTestId("search-mode")).selectByValue("semantic");

        // The message is embedded in the background: search again until its vector is there.
        try {
            wait(d -> {
                d.findElement(By.cssSelector("[data-testid=session-search]")).sendKeys(org.openqa.selenium.Keys.ENTER);
                return d.findElements(By.cssSelector("[data-testid=search-hit]")).stream()
                        .filter(h -> h.getText().contains("kubernetes deployment")).findFirst().orElse(null);
            });
        } catch (org.openqa.selenium.TimeoutException e) {
            throw new AssertionError("no hit by meaning; the sidebar shows: "
                    + chrome.findElement(By.cssSelector(".sidebar")).getText(), e);
        }
        assertThat(chrome.findElement(By.cssSelector(".search-results")).getAttribute("data-mode"))
                .isEqualTo("semantic");

        // By words, all three must be in a message, and "rollout" and "problems" are in none.
        new org.openqa.selenium.support.ui.Select(byTestId("search-mode")).selectByValue("text");
        wait(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".search-results .none"),
                "No message matches"));
        assertThat(chrome.findElement(By.cssSelector(".search-results")).getAttribute("data-mode"))
                .isEqualTo("text");
    }

    @Test
    void an_image_attached_in_the_composer_reaches_a_vision_model_as_an_image_part() throws Exception {
        // The scripted server says, as LM Studio does, that its model takes images (no other test sends images).
        model.tellCapabilities(dev.agentbus.testkit.model.WindowStyle.LM_STUDIO, true, true);
        logIn();
        model.replyText("ready").replyText("One transparent pixel.");
        byTestId("new-session").click();
        send("hello");
        waitForAnswer("ready");
        java.nio.file.Path png = dataDir.resolve("browser-image").resolve("dot.png");
        java.nio.file.Files.createDirectories(png.getParent());
        java.nio.file.Files.write(png, VisionAndReasoningIT.PNG);

        chrome.findElement(By.cssSelector("[data-testid=attach-image]")).sendKeys(png.toAbsolutePath().toString());
        wait(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("[data-testid=attached-images]"),
                "uploads/dot.png"));
        send("what is in this picture?");
        waitForAnswer("One transparent pixel.");

        var content = model.requests().getLast().path("messages");
        var user = content.get(content.size() - 1).path("content");
        assertThat(user.get(1).path("type").asText()).isEqualTo("image_url");
        assertThat(user.get(1).path("image_url").path("url").asText()).isEqualTo("data:image/png;base64,"
                + java.util.Base64.getEncoder().encodeToString(VisionAndReasoningIT.PNG));
        assertThat(visible("message-images").getText()).contains("uploads/dot.png");
        assertThat(byTestId("attached-images").getText()).as("sent with that message only").isEmpty();
    }

    @Test
    void insights_are_pinned_edited_protected_disabled_deleted_and_cleared_in_settings() throws Exception {
        // Distillation is off on this stack: the agent's manage_memory keeps the insights, as it would for anyone.
        model.replyToolCalls(List.of(
                        ScriptedToolCall.of("manage_memory", "{\"action\":\"add\",\"category\":\"preference\","
                                + "\"text\":\"prefers tabs\"}"),
                        ScriptedToolCall.of("manage_memory", "{\"action\":\"add\",\"category\":\"project\","
                                + "\"text\":\"works on the billing service\"}")))
                .replyText("Noted.");
        String session = vic.createSession("remember me");
        vic.postMessage(session, "Remember that I like tabs and that I work on billing.");
        dev.agentbus.testkit.Poll.until("the agent's insights", WAIT, () -> insightTexts().containsAll(
                List.of("prefers tabs", "works on the billing service")));

        logIn();
        visible("nav-settings").click();
        WebElement tabs = insightRow("prefers tabs");
        assertThat(tabs.getText()).contains("preference").contains("agent").containsPattern("score \\d\\.\\d\\d");
        assertThat(tabs.findElements(By.cssSelector("[data-testid=insight-mark]"))).isEmpty();

        tabs.findElement(By.cssSelector("[data-testid=insight-pin]")).click();
        wait(d -> insightRow("prefers tabs").getAttribute("data-pinned").equals("true") ? true : null);
        assertThat(insightJson("prefers tabs").get("pinned").asBoolean()).isTrue();
        assertThat(insightRow("prefers tabs").findElement(By.cssSelector("[data-testid=insight-pin]")).getText())
                .isEqualTo("Unpin");

        // A blank text is refused with the API's message, and the edit stays open to be corrected.
        insightRow("prefers tabs").findElement(By.cssSelector("[data-testid=insight-edit]")).click();
        WebElement text = visible("insight-edit-text");
        text.clear();
        byTestId("insight-edit-save").click();
        wait(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("[data-testid=insights-status]"),
                "text must not be blank"));
        text.sendKeys("prefers tabs, four wide");
        byTestId("insight-edit-save").click();
        String id = insightRow("prefers tabs, four wide").getAttribute("data-id");
        assertThat(insightTexts()).contains("prefers tabs, four wide").doesNotContain("prefers tabs");
        assertThat(insightJson("prefers tabs, four wide").get("id").asText()).isEqualTo(id);

        insightRow("prefers tabs, four wide").findElement(By.cssSelector("[data-testid=insight-protect]")).click();
        wait(d -> insightRow("prefers tabs, four wide").getAttribute("data-protected").equals("true") ? true : null);
        assertThat(insightJson("prefers tabs, four wide").get("protected").asBoolean()).isTrue();
        assertThat(insightRow("prefers tabs, four wide").findElements(By.cssSelector("[data-testid=insight-mark]")))
                .extracting(m -> m.getAttribute("data-mark")).containsExactly("pinned", "protected");

        insightRow("works on the billing service").findElement(By.cssSelector("[data-testid=insight-disable]")).click();
        wait(d -> insightRow("works on the billing service").getAttribute("data-disabled").equals("true")
                ? true : null);
        assertThat(insightJson("works on the billing service").get("disabled").asBoolean()).isTrue();
        insightRow("works on the billing service").findElement(By.cssSelector("[data-testid=insight-delete]")).click();
        wait(d -> d.findElements(By.cssSelector("[data-testid=insight-text]")).size() == 1 ? true : null);
        assertThat(insightTexts()).containsExactly("prefers tabs, four wide");

        // Clear all asks first: dismissed, nothing goes; accepted, everything goes and the empty state shows.
        byTestId("insights-clear").click();
        wait(ExpectedConditions.alertIsPresent()).dismiss();
        assertThat(insightTexts()).containsExactly("prefers tabs, four wide");
        byTestId("insights-clear").click();
        wait(ExpectedConditions.alertIsPresent()).accept();
        assertThat(visible("insights-empty").getText()).contains("distillation").contains("manage_memory");
        assertThat(insightTexts()).isEmpty();
    }

    @Test
    void your_mcp_servers_are_saved_shown_masked_refused_with_the_apis_message_and_removed() throws Exception {
        String config = "{\"mcpServers\":{\"mine\":{\"command\":\"node\",\"args\":[\"x.js\"],"
                + "\"env\":{\"TOKEN\":\"s3cret\"}}}}";
        logIn();
        visible("nav-settings").click();
        WebElement box = visible("mcp-servers");
        assertThat(Json.mapper().readTree(box.getAttribute("value")).get("mcpServers").isEmpty()).as("none yet")
                .isTrue();

        box.clear();
        box.sendKeys(config);
        byTestId("mcp-servers-save").click();
        wait(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("[data-testid=mcp-servers-status]"),
                "Saved."));
        var shown = Json.mapper().readTree(byTestId("mcp-servers").getAttribute("value"));
        assertThat(shown.at("/mcpServers/mine/command").asText()).isEqualTo("node");
        assertThat(shown.at("/mcpServers/mine/env/TOKEN").asText()).isEqualTo("***");
        assertThat(byTestId("mcp-servers").getAttribute("value")).doesNotContain("s3cret");
        assertThat(byTestId("mcp-servers-state").getText()).contains("Version 1");
        GatewayClient.Response saved = vic.get("/api/v1/me/mcp-servers");
        assertThat(saved.json().get("own").asBoolean()).as(saved.body()).isTrue();
        assertThat(saved.json().at("/mcpServers/mine/args/0").asText()).isEqualTo("x.js");

        // Saving what the box shows, *** and all, keeps the secret (the gateway's UserMcpServersIT opens it).
        byTestId("mcp-servers-save").click();
        wait(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("[data-testid=mcp-servers-state]"),
                "Version 2"));
        assertThat(vic.get("/api/v1/me/mcp-servers").json().at("/mcpServers/mine/env/TOKEN").asText())
                .isEqualTo("***");

        for (var bad : Map.of("{\"mcpServers\": {\"mine\": ", "is not valid JSON",
                "{\"mcpServers\":{\"mine\":{\"command\":\"node\",\"trusted\":true}}}",
                "only the team's configuration").entrySet()) {
            byTestId("mcp-servers").clear();
            byTestId("mcp-servers").sendKeys(bad.getKey());
            byTestId("mcp-servers-save").click();
            wait(ExpectedConditions.textToBePresentInElementLocated(
                    By.cssSelector("[data-testid=mcp-servers-status].error"), bad.getValue()));
        }
        assertThat(vic.get("/api/v1/me/mcp-servers").json().get("version").asLong()).as("unchanged").isEqualTo(2);

        byTestId("mcp-servers-remove").click();
        wait(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("[data-testid=mcp-servers-status]"),
                "Removed."));
        assertThat(Json.mapper().readTree(byTestId("mcp-servers").getAttribute("value")).get("mcpServers").isEmpty())
                .isTrue();
        assertThat(vic.get("/api/v1/me/mcp-servers").json().get("own").asBoolean()).isFalse();
    }

    /** The row of the insight with this text, once the settings page shows it. */
    private static WebElement insightRow(String text) {
        return wait(d -> d.findElements(By.cssSelector("[data-testid=insight]")).stream()
                .filter(r -> r.findElements(By.cssSelector("[data-testid=insight-text]")).stream()
                        .anyMatch(t -> t.getText().equals(text))).findFirst().orElse(null));
    }

    private static List<String> insightTexts() {
        GatewayClient.Response r = vic.get("/api/v1/memory/insights");
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return java.util.stream.StreamSupport.stream(r.json().get("insights").spliterator(), false)
                .map(i -> i.get("text").asText()).toList();
    }

    private static com.fasterxml.jackson.databind.JsonNode insightJson(String text) {
        GatewayClient.Response r = vic.get("/api/v1/memory/insights");
        return java.util.stream.StreamSupport.stream(r.json().get("insights").spliterator(), false)
                .filter(i -> i.get("text").asText().equals(text)).findFirst()
                .orElseThrow(() -> new AssertionError("no insight '" + text + "' in " + r.body()));
    }

    /** Logs in as vic, who has no second factor: a TOTP code works once, and the tests log in many times. */
    /** The open session's id, from the address ({@code #/s/<id>} or {@code #/s/<id>/<tab>}). */
    private static String currentSession() {
        var pattern = java.util.regex.Pattern.compile("#/s/([^/]+)");
        wait(d -> pattern.matcher(d.getCurrentUrl()).find() ? true : null);
        var m = pattern.matcher(chrome.getCurrentUrl());
        assertThat(m.find()).as(chrome.getCurrentUrl()).isTrue();
        return m.group(1);
    }

    private void logInAsAdmin() throws java.io.IOException {
        visible("login-username").sendKeys("admin");
        byTestId("login-password").sendKeys(java.nio.file.Files.readString(dataDir.resolve("admin-password")).trim());
        byTestId("login-submit").click();
        visible("me");
    }

    private void logIn() {
        visible("login-username").sendKeys("vic");
        byTestId("login-password").sendKeys("vic-password-123");
        byTestId("login-submit").click();
        visible("me");
    }

    private void send(String text) {
        WebElement input = visible("composer-input");
        input.sendKeys(text);
        byTestId("composer-send").click();
    }

    private WebElement waitForAnswer(String text) {
        return wait(d -> d.findElements(By.cssSelector("[data-testid=message-assistant]:not(.streaming)")).stream()
                .filter(m -> m.getText().contains(text)).findFirst().orElse(null));
    }

    private static WebElement visible(String id) {
        return wait(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("[data-testid='" + id + "']")));
    }

    private static WebElement byTestId(String id) {
        return chrome.findElement(By.cssSelector("[data-testid='" + id + "']"));
    }

    private static <T> T wait(java.util.function.Function<? super org.openqa.selenium.WebDriver, T> until) {
        // The chat redraws a streaming item every frame: an element found a moment ago may be gone; look again.
        return new WebDriverWait(chrome, WAIT).ignoring(org.openqa.selenium.StaleElementReferenceException.class)
                .until(until);
    }

    /** A user made through the API with two-factor login on; returns the TOTP secret. */
    private static String userWithTwoFactor(String username) throws Exception {
        String base = stack.stack.gatewayUrl();
        String code = stack.gateway.post("/api/v1/admin/invites", "{}").json().get("code").asText();
        stack.gateway.send(json(base + "/api/v1/auth/register",
                Map.of("invite", code, "username", username, "password", PASSWORD)).build());
        GatewayClient.Response login = stack.gateway.send(json(base + "/api/v1/auth/login",
                Map.of("username", username, "password", PASSWORD)).build());
        String cookie = login.headers().entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase("set-cookie"))
                .flatMap(e -> e.getValue().stream()).filter(v -> v.startsWith("agentbus_login=")).findFirst()
                .orElseThrow().split(";")[0];
        String csrf = login.json().get("csrfToken").asText();
        String secret = stack.gateway.send(json(base + "/api/v1/me/totp", Map.of("currentPassword", PASSWORD))
                .header("Cookie", cookie).header("X-CSRF-Token", csrf).build()).json().get("secret").asText();
        GatewayClient.Response confirmed = stack.gateway.send(json(base + "/api/v1/me/totp/confirm",
                Map.of("code", totp(secret, Instant.now().getEpochSecond() / 30)))
                .header("Cookie", cookie).header("X-CSRF-Token", csrf).build());
        assertThat(confirmed.status()).as(confirmed.body()).isEqualTo(204);
        return secret;
    }

    private static HttpRequest.Builder json(String url, Object body) throws Exception {
        return HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Json.mapper().writeValueAsString(body)));
    }

    /** What an authenticator app shows (RFC 6238: HMAC-SHA1, 6 digits), written here from the RFC. */
    static String totp(String base32Secret, long step) {
        try {
            Mac mac = Mac.getInstance("HmacSHA1");
            mac.init(new SecretKeySpec(base32(base32Secret), "HmacSHA1"));
            byte[] h = mac.doFinal(ByteBuffer.allocate(8).putLong(step).array());
            int offset = h[h.length - 1] & 0xf;
            int binary = ((h[offset] & 0x7f) << 24) | ((h[offset + 1] & 0xff) << 16) | ((h[offset + 2] & 0xff) << 8)
                    | (h[offset + 3] & 0xff);
            return String.format("%06d", binary % 1_000_000);
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] base32(String text) {
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int buffer = 0;
        int bits = 0;
        for (char c : text.toUpperCase().replace("=", "").toCharArray()) {
            buffer = (buffer << 5) | alphabet.indexOf(c);
            bits += 5;
            if (bits >= 8) {
                out.write((buffer >> (bits - 8)) & 0xff);
                bits -= 8;
            }
        }
        return out.toByteArray();
    }

}
