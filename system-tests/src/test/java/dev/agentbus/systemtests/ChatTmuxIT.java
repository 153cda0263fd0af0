package dev.agentbus.systemtests;

import dev.agentbus.cli.AgentbusCli;
import dev.agentbus.testkit.model.ScriptedReply;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code agentbus chat} in a real terminal (tmux) against the standalone stack with the scripted model server: a
 * person's keys go in with send-keys, and the assertions are on what the pane shows. It covers the line editor
 * (history recall with the up arrow, tab completion, Ctrl+L, Ctrl-D), Ctrl-C during a streaming turn, a turn
 * that waits for approval until {@code /approve}, {@code /soul}, and a plan-first session ({@code /new --plan}) whose
 * plan waits until {@code /plan approve}.
 *
 * <p>Skipped only where tmux is missing on a developer's machine; under CI ({@code CI} set) tmux must be there
 * ({@code .ci/run} installs it), so its absence fails instead.
 */
class ChatTmuxIT extends OnStandaloneStack {
    private static final String PROMPT = "you>";

    @BeforeEach
    void needsTmux() {
        if (!Tmux.available()) {
            if (System.getenv("CI") != null && !System.getenv("CI").isEmpty()) {
                throw new AssertionError("tmux is not installed, but CI must run this test (.ci/run installs tmux)");
            }
            Assumptions.abort("tmux is not installed: the terminal test of chat cannot run here");
        }
        model.reset();
    }

    /** The pane ends with an empty prompt: chat waits for the next line. */
    private static boolean atPrompt(String screen) {
        return Tmux.lastLine(screen).equals(PROMPT);
    }

    @Test
    void a_person_at_the_terminal_chats_recalls_a_line_stops_a_turn_approves_a_call_and_a_plan_and_leaves()
            throws Exception {
        Path home = Files.createDirectories(dataDir.resolve("tmux-chat"));
        try (Tmux tmux = new Tmux().start(chatCommand(home), 160, 50)) {
            tmux.await("the banner and the prompt",
                    s -> s.contains("agentbus chat · " + stack.stack.gatewayUrl()) && atPrompt(s));

            // A message and its answer.
            model.replyText("Hello from the scripted model.");
            tmux.type("say hello");
            tmux.press("Enter");
            tmux.await("the answer", s -> s.contains("Hello from the scripted model.") && atPrompt(s));
            assertThat(tmux.screen()).contains("you> say hello", "session ");

            // The up arrow recalls the line; Enter sends it again.
            model.replyText("Hello again.");
            tmux.press("Up");
            tmux.await("the recalled line", s -> Tmux.lastLine(s).equals("you> say hello"));
            tmux.press("Enter");
            tmux.await("the second answer", s -> s.contains("Hello again.") && atPrompt(s));
            assertThat(Files.readString(home.resolve("history"))).contains("say hello");

            // Ctrl-C while the answer streams stops the turn, and the prompt comes back.
            model.streamChunkSize(1).reply(ScriptedReply.text("y".repeat(300)).withChunkDelay(Duration.ofMillis(100)));
            try {
                tmux.type("write a long story");
                tmux.press("Enter");
                tmux.await("the answer streaming", s -> s.contains("yyyyy"));
                tmux.press("C-c");
                String stopped = tmux.await("the cancelled turn",
                        s -> s.contains("⊘ cancelled") && atPrompt(s));
                assertThat(stopped).contains("interrupted; asked the gateway to cancel the turn of session")
                        .doesNotContain("y".repeat(300));
            } finally {
                model.streamChunkSize(4);
            }

            // In manual mode a tool call waits for approval; the prompt comes back for /approve (typed with Tab).
            tmux.type("/mode manual");
            tmux.press("Enter");
            tmux.await("the mode", s -> s.contains("permission mode: manual, for this session") && atPrompt(s));
            model.replyToolCall("ls", "{\"path\":\".\"}").replyText("The workspace is listed.");
            tmux.type("list the files");
            tmux.press("Enter");
            tmux.await("the approval request", s -> s.contains("⏸ approval needed: ls") && atPrompt(s));
            tmux.type("/appr");
            tmux.press("Tab");
            tmux.await("the completed command", s -> Tmux.lastLine(s).equals("you> /approve"));
            tmux.press("Enter");
            tmux.await("the rest of the turn", s -> s.contains("✓ approved: ls") && s.contains("The workspace is listed.")
                    && atPrompt(s));

            // /status, completed from /sta.
            tmux.type("/sta");
            tmux.press("Tab", "Enter");
            String status = tmux.await("the status", s -> s.contains("status   IDLE") && atPrompt(s));
            assertThat(status).contains("mode     manual", "last turn COMPLETED");

            // /soul shows what the system prompt is made of.
            tmux.type("/soul");
            tmux.press("Enter");
            String soul = tmux.await("the context", s -> s.contains("system prompt  the installation's")
                    && s.contains("context        ") && atPrompt(s));
            assertThat(soul).contains("preset         none", "context files  ");

            // A plan-first session: the plan gives the prompt back, /plan shows it, /plan approve lets the turn go on.
            tmux.type("/new --plan");
            tmux.press("Enter");
            tmux.await("the plan-first session to come", s -> s.contains("with your next message, plan-first")
                    && atPrompt(s));
            model.replyToolCall("plan_create", "{\"title\":\"tidy\",\"steps\":[\"list the files\",\"report\"]}")
                    .replyText("The plan is done.");
            tmux.type("tidy up");
            tmux.press("Enter");
            tmux.await("the plan waiting", s -> s.contains("⏸ the plan waits for approval — /plan approve")
                    && atPrompt(s));
            tmux.type("/plan");
            tmux.press("Enter");
            tmux.await("the plan shown", s -> s.contains("Plan #1 tidy · proposed") && s.contains("2. report")
                    && atPrompt(s));
            tmux.type("/plan approve");
            tmux.press("Enter");
            tmux.await("the rest of the turn", s -> s.contains("The plan is done.") && atPrompt(s));

            // An unknown command is explained and chat goes on.
            tmux.type("/frobnicate");
            tmux.press("Enter");
            tmux.await("the unknown command", s -> s.contains("unknown command /frobnicate") && atPrompt(s));

            // Ctrl+L starts a new session; Ctrl-D leaves with exit 0.
            tmux.press("C-l");
            tmux.await("the new session", s -> s.contains("new session: it starts with your next message")
                    && s.contains("back to the last one: /switch ") && atPrompt(s));
            tmux.press("C-d");
            tmux.await("chat to end", s -> s.contains("[chat exited 0]"));
        }
        assertThat(model.requestCount()).isEqualTo(7);
    }

    @Test
    void chat_ended_by_sigterm_at_its_prompt_gives_the_terminal_back_in_its_normal_mode() throws Exception {
        Path home = Files.createDirectories(dataDir.resolve("tmux-sigterm"));
        // After chat: the terminal's line discipline as stty reports it, one flag a line.
        String after = "; echo \"[chat exited $?]\"; stty -a | tr ' ;' '\\n\\n' | grep -x -e icanon -e -icanon -e echo"
                + " -e -echo | sed 's/^/flag:/'; sleep 600";
        try (Tmux tmux = new Tmux().start(chatCommand(home, after), 160, 50)) {
            // Only that the line editor reads: what else the pane shows is not this test's business.
            tmux.await("the prompt", screen -> screen.contains(PROMPT));
            tmux.type("half a line");
            tmux.await("the typed text", screen -> screen.contains("half a line"));
            // The line editor holds the terminal in raw mode while it reads; a SIGTERM (what `kill` and a closing
            // window manager send) must not leave it that way for the shell that gets the terminal back.
            ProcessHandle chat = ProcessHandle.allProcesses()
                    .filter(p -> p.info().command().orElse("").endsWith("java")) // not the sh around it
                    .filter(p -> p.info().commandLine().orElse("").contains(home.resolve("cli.args").toString()))
                    .findFirst().orElseThrow(() -> new AssertionError("the chat process is not found"));
            assertThat(chat.destroy()).as("SIGTERM sent").isTrue();
            String screen = tmux.await("stty's report", s -> s.contains("flag:") && s.lines()
                    .filter(l -> l.startsWith("flag:")).count() == 2);
            assertThat(screen.lines().filter(l -> l.startsWith("flag:")))
                    .as("canonical mode and echo are back on; the pane:%n%s", screen)
                    .containsExactlyInAnyOrder("flag:icanon", "flag:echo");
        }
    }

    private static String chatCommand(Path home) throws java.io.IOException {
        return chatCommand(home, "; echo \"[chat exited $?]\"; sleep 600");
    }

    /**
     * sh command line: the CLI with this JVM's class path, pointed at the stack, then {@code after} (which sees its
     * exit code as {@code $?}). The class path goes in a java argument file: written out, it is longer than a tmux
     * command may be.
     */
    private static String chatCommand(Path home, String after) throws java.io.IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        Files.createDirectories(home);
        Path classPath = home.resolve("cli.args");
        Files.writeString(classPath, "-cp \"" + System.getProperty("java.class.path") + "\"\n");
        List<String> words = new ArrayList<>(List.of("env",
                "AGENTBUS_URL=" + stack.stack.gatewayUrl(), "AGENTBUS_TOKEN=" + StandaloneStack.TOKEN,
                "AGENTBUS_DATA_DIR=" + home, "NO_COLOR=1", "TERM=xterm-256color",
                java, "@" + classPath, AgentbusCli.class.getName(), "chat"));
        return words.stream().map(Tmux::quote).collect(Collectors.joining(" ")) + after;
    }
}
