package dev.agentbus.cli.commands;

import dev.agentbus.cli.Events;
import dev.agentbus.cli.ExitCodes;
import dev.agentbus.cli.FakeGateway;
import dev.agentbus.cli.OnFakeGateway;
import dev.agentbus.cli.FakeGateway.SseScript;
import dev.agentbus.cli.TestCli;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.TurnOutcome;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static dev.agentbus.cli.Events.at;
import static org.assertj.core.api.Assertions.assertThat;

/** The REPL, driven through piped stdin as a script (or a test) would drive it. */
class ChatCommandTest extends OnFakeGateway {
    private static final String SESSIONS = "/api/v1/sessions";
    private static final String S1 = "/api/v1/sessions/s1";
    private static final String EVENTS = S1 + "/events";

    @BeforeEach
    void routes() {
        gateway.json("POST", SESSIONS, 201, "{\"id\":\"s1\"}")
                .json("POST", S1 + "/messages", 202, "{\"inputId\":\"in-1\"}")
                .json("POST", S1 + "/cancel", 202, "{\"inputId\":\"in-c\"}")
                .json("GET", S1, 200, "{\"sessionId\":\"s1\",\"title\":\"count files\",\"status\":\"IDLE\",\"lastSeq\":10}");
    }

    /** The first turn of a session, seq 1..10, answering "There are 2 files.". */
    private static String[] firstTurn() {
        return Events.sse(Events.turn(TurnOutcome.COMPLETED, "There are 2 files.", null), 1, 10);
    }

    /** A later turn, seq from..from+3, whose answer is streamed as deltas. */
    private static String[] laterTurn(long from, String question, String answer) {
        List<String> chunks = new ArrayList<>();
        chunks.add(FakeGateway.event(at(from, new SessionEvent.UserMessagePosted(question))));
        chunks.add(FakeGateway.event(at(from + 1, new SessionEvent.ModelCallStarted("r" + from, 1))));
        chunks.add(FakeGateway.delta("TOKEN", "r" + from, answer));
        chunks.add(FakeGateway.event(at(from + 2, new SessionEvent.ModelCallCompleted("r" + from, "m", answer, null,
                List.of(), new TokenUsage(10, 2, 12), "stop"))));
        chunks.add(FakeGateway.event(at(from + 3, new SessionEvent.TurnEnded(TurnOutcome.COMPLETED, answer, null))));
        return chunks.toArray(String[]::new);
    }

    @Test
    void a_two_turn_conversation_goes_to_one_session_and_shows_both_answers() {
        gateway.sse(EVENTS, SseScript.thenHold(firstTurn()),
                SseScript.thenHold(laterTurn(11, "And the biggest?", "b.txt is the biggest.")));
        cli.input("How many files?", "And the biggest?");

        assertThat(cli.run("chat", "--title", "count files")).isZero();

        String out = cli.out();
        assertThat(out).contains("you> How many files?", "session s1", "There are 2 files.",
                "you> And the biggest?", "b.txt is the biggest.");
        assertThat(out.indexOf("There are 2 files.")).isLessThan(out.indexOf("you> And the biggest?"));
        assertThat(RunCommandTest.count(out, "b.txt is the biggest.")).isEqualTo(1);
        assertThat(cli.err()).isEmpty();

        assertThat(gateway.requests("POST", SESSIONS)).hasSize(1);
        assertThat(gateway.requests("POST", SESSIONS).get(0).body()).contains("\"title\":\"count files\"");
        List<FakeGateway.Request> messages = gateway.requests("POST", S1 + "/messages");
        assertThat(messages).extracting(FakeGateway.Request::body)
                .containsExactly("{\"text\":\"How many files?\"}", "{\"text\":\"And the biggest?\"}");
        // the first turn streams a new session from the start, the second from the seq the session was at
        assertThat(gateway.requests("GET", EVENTS)).extracting(FakeGateway.Request::query)
                .containsExactly("after=0", "after=10");
    }

    @Test
    void new_starts_a_second_session_with_the_next_message() {
        gateway.jsonSequence("POST", SESSIONS, 201, "{\"id\":\"s1\"}", "{\"id\":\"s2\"}")
                .json("POST", "/api/v1/sessions/s2/messages", 202, "{\"inputId\":\"in-2\"}")
                .sse(EVENTS, SseScript.thenHold(firstTurn()))
                .sse("/api/v1/sessions/s2/events", SseScript.thenHold(Events.sse(
                        Events.turn(TurnOutcome.COMPLETED, "Fresh answer.", null), 1, 10)));
        cli.input("How many files?", "/new  second try ", "/show", "Hello again");

        assertThat(cli.run("chat")).isZero();

        assertThat(gateway.requests("POST", SESSIONS)).extracting(FakeGateway.Request::body)
                .containsExactly("{\"title\":\"How many files?\"}", "{\"title\":\"second try\"}");
        assertThat(gateway.requests("POST", S1 + "/messages")).hasSize(1);
        assertThat(gateway.requests("POST", "/api/v1/sessions/s2/messages")).extracting(FakeGateway.Request::body)
                .containsExactly("{\"text\":\"Hello again\"}");
        assertThat(cli.out()).contains("new session: it starts with your next message (title: second try)",
                "no session yet; type a message to start one", "session s2", "Fresh answer.");
    }

    @Test
    void switch_accepts_a_unique_prefix_and_says_when_a_prefix_is_ambiguous_or_unknown() {
        String abc = "abc12345-0000-4000-8000-000000000001";
        gateway.json("GET", SESSIONS, 200, """
                [{"id":"%s","title":"older work","status":"IDLE","lastSeq":10},
                 {"id":"abd00000-0000-4000-8000-000000000002","title":"other","status":"IDLE","lastSeq":3}]"""
                        .formatted(abc))
                .json("GET", "/api/v1/sessions/" + abc, 200, "{\"sessionId\":\"" + abc + "\",\"lastSeq\":10}")
                .json("POST", "/api/v1/sessions/" + abc + "/messages", 202, "{\"inputId\":\"in-1\"}")
                .sse("/api/v1/sessions/" + abc + "/events",
                        SseScript.thenHold(laterTurn(11, "go on", "Continuing the older work.")));
        cli.input("/switch ab", "/switch zzz", "/switch", "/switch abc1", "/sessions", "go on");

        assertThat(cli.run("chat")).isZero();

        assertThat(cli.err()).contains("ab is the start of 2 session ids", "no session zzz", "usage: /switch ID");
        assertThat(cli.out()).contains("switched to session " + abc + " · older work · IDLE",
                "* " + abc, "Continuing the older work.");
        assertThat(gateway.requests("POST", SESSIONS)).isEmpty();
        assertThat(gateway.requests("POST", "/api/v1/sessions/" + abc + "/messages")).hasSize(1);
        assertThat(gateway.requests("GET", "/api/v1/sessions/" + abc + "/events").get(0).query())
                .isEqualTo("after=10");
    }

    @Test
    void session_option_continues_a_session_by_prefix_and_an_unknown_one_exits_1() {
        gateway.json("GET", SESSIONS, 200, "[{\"id\":\"s1\",\"title\":\"count files\",\"status\":\"IDLE\"}]")
                .sse(EVENTS, SseScript.thenHold(laterTurn(11, "more", "More.")));
        cli.input("more");

        assertThat(cli.run("chat", "--session", "s")).isZero();
        assertThat(cli.out()).contains("session s1", "More.");
        assertThat(gateway.requests("POST", SESSIONS)).isEmpty();

        assertThat(cli.run("chat", "--session", "nope")).isEqualTo(ExitCodes.ERROR);
        assertThat(cli.err()).contains("no session nope");
    }

    @Test
    void memory_set_then_memory_shows_it_and_reset_empties_it() {
        gateway.json("PUT", "/api/v1/memory", 200,
                        "{\"userId\":\"local\",\"content\":\"Prefers answers in French.\",\"version\":1,"
                                + "\"updatedAt\":\"2025-06-02T09:20:11Z\"}")
                .json("GET", "/api/v1/memory", 200,
                        "{\"userId\":\"local\",\"content\":\"Prefers answers in French.\",\"version\":1}")
                .json("DELETE", "/api/v1/memory", 200, "{\"userId\":\"local\",\"content\":\"\",\"version\":2}");
        cli.input("/memory set Prefers answers in French.", "/memory", "/memory reset", "/memory set", "/memory x");

        assertThat(cli.run("chat")).isZero();

        assertThat(gateway.requests("PUT", "/api/v1/memory")).extracting(FakeGateway.Request::body)
                .containsExactly("{\"content\":\"Prefers answers in French.\"}");
        assertThat(gateway.requests("DELETE", "/api/v1/memory")).hasSize(1);
        String out = cli.out();
        assertThat(out).contains("memory updated; it applies from the next turn (version 1 · updated ",
                "memory reset (version 2)");
        assertThat(out.substring(out.indexOf("you> /memory\n"))).contains("Prefers answers in French.\nversion 1");
        assertThat(cli.err()).contains("usage: /memory set TEXT", "usage: /memory, /memory set TEXT, or /memory reset");
        assertThat(gateway.requests("POST", SESSIONS)).isEmpty();
    }

    @Test
    void an_unknown_slash_command_says_so_and_the_repl_goes_on() {
        gateway.sse(EVENTS, SseScript.thenHold(firstTurn()));
        cli.input("/frobnicate now", "/help", "//etc is a folder?");

        assertThat(cli.run("chat")).isZero();

        assertThat(cli.err()).contains("unknown command /frobnicate; type /help for the list");
        assertThat(cli.out()).contains("/switch ID", "/memory set TEXT", "/quit");
        // `//` sends a message that starts with a slash
        assertThat(gateway.requests("POST", S1 + "/messages")).extracting(FakeGateway.Request::body)
                .containsExactly("{\"text\":\"/etc is a folder?\"}");
    }

    @Test
    void a_busy_session_409_is_reported_and_the_repl_stays_alive() {
        gateway.answers("POST", S1 + "/messages",
                        409, "{\"error\":\"conflict\",\"message\":\"session s1 is running; cancel the turn or wait for it to end\"}",
                        202, "{\"inputId\":\"in-2\"}")
                .json("GET", SESSIONS, 200, "[{\"id\":\"s1\",\"status\":\"RUNNING\"}]")
                // The stream opened ahead of the refused message may or may not reach the fake before it is
                // abandoned; whichever connection comes next gets the turn.
                .sse(EVENTS, SseScript.thenHold(laterTurn(11, "second try", "Done now.")),
                        SseScript.thenHold(laterTurn(11, "second try", "Done now.")));
        cli.input("first try", "second try");

        assertThat(cli.run("chat", "--session", "s1")).isZero();

        assertThat(cli.err()).contains("session s1 is running; cancel the turn or wait for it to end (/cancel stops it)");
        assertThat(cli.out()).contains("you> second try", "Done now.");
        assertThat(gateway.requests("POST", S1 + "/messages")).hasSize(2);
    }

    @Test
    void an_unreachable_gateway_or_a_vanished_session_is_reported_and_the_repl_stays_alive() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        cli.env.put("AGENTBUS_URL", "http://127.0.0.1:" + port);
        cli.input("hello", "/sessions", "/quit", "never read");

        assertThat(cli.run("chat")).isZero();
        assertThat(cli.err()).contains("cannot reach the gateway at http://127.0.0.1:" + port);
        assertThat(RunCommandTest.count(cli.err(), "cannot reach the gateway")).isEqualTo(2);
        assertThat(cli.out()).doesNotContain("never read");
    }

    @Test
    void end_of_input_exits_0_without_a_request() {
        cli.input();
        assertThat(cli.run("chat")).isZero();
        assertThat(gateway.requests()).isEmpty();
        assertThat(cli.err()).isEmpty();
    }

    @Test
    void ctrl_c_at_the_prompt_exits_0() throws Exception {
        try (PipedOutputStream typing = new PipedOutputStream()) {
            cli.stdin = new PipedInputStream(typing); // a terminal nobody types on
            cli.interactive = true;
            CompletableFuture<Integer> chat = cli.runAsync("chat");
            TestCli.await(() -> cli.out().contains("you> ") && cli.interrupts.isArmed(), "the prompt");
            cli.interrupts.fire();

            assertThat(chat.get(10, TimeUnit.SECONDS)).isZero();
            // Only the look at the unread notifications a terminal chat starts with (this fake has none: 404).
            assertThat(gateway.requests()).extracting(FakeGateway.Request::path)
                    .containsExactly("/api/v1/me/notifications");
            assertThat(cli.err()).isEmpty();
        }
    }

    @Test
    void ctrl_c_during_a_turn_cancels_it_and_the_next_message_goes_to_the_same_session() throws Exception {
        List<String> untilTheToolCall = Arrays.asList(Events.sse(
                Events.turn(TurnOutcome.COMPLETED, "never", null), 1, 5));
        // The turn only ends once the CLI has posted the cancel, as the orchestrator would record it.
        gateway.sse(EVENTS,
                SseScript.untilRequest("POST " + S1 + "/cancel", untilTheToolCall,
                        FakeGateway.event(at(6, new SessionEvent.TurnEnded(TurnOutcome.CANCELLED, null,
                                "cancelled by the user")))),
                SseScript.thenHold(laterTurn(11, "something else", "Something else, then.")));
        cli.input("How many files?", "something else");

        CompletableFuture<Integer> chat = cli.runAsync("chat");
        TestCli.await(() -> cli.out().contains("→ shell"), "the tool call to be shown");
        cli.interrupts.fire();

        assertThat(chat.get(10, TimeUnit.SECONDS)).isZero();
        assertThat(gateway.requests("POST", S1 + "/cancel")).hasSize(1);
        assertThat(cli.err()).contains("interrupted; asked the gateway to cancel the turn of session s1");
        String out = cli.out();
        assertThat(out).contains("⊘ cancelled: cancelled by the user", "you> something else", "Something else, then.");
        assertThat(out.indexOf("⊘ cancelled")).isLessThan(out.indexOf("you> something else"));
        assertThat(gateway.requests("POST", SESSIONS)).hasSize(1);
        assertThat(gateway.requests("POST", S1 + "/messages")).hasSize(2);
        assertThat(cli.interrupts.isArmed()).isFalse();
    }

    @Test
    void plain_agentbus_starts_chat_on_a_terminal_and_prints_the_usage_otherwise() {
        gateway.sse(EVENTS, SseScript.thenHold(firstTurn()));
        cli.interactive = true;
        cli.input("How many files?");

        assertThat(cli.run()).isZero();
        assertThat(cli.out()).contains("agentbus chat · " + gateway.url(), "you> ", "There are 2 files.");
        assertThat(cli.out()).doesNotContain("you> How many files?"); // a terminal echoes what you type itself

        cli.interactive = false;
        assertThat(cli.run()).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err()).contains("missing command", "chat");
    }
}
