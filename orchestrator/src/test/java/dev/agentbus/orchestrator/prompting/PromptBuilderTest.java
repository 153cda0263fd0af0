package dev.agentbus.orchestrator.prompting;

import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.insights.InsightCategory;
import dev.agentbus.events.session.InjectedInsight;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.MemoryAttached;
import dev.agentbus.events.session.SessionEvent.ModelCallCompleted;
import dev.agentbus.events.session.SessionEvent.ModelCallStarted;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.session.SessionEvent.ToolCallStarted;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.session.SessionEvent.WaitEnded;
import dev.agentbus.events.session.SessionEvent.WaitScheduled;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.ToolCallSpec;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.state.SessionFold;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.tools.ToolCatalog;
import dev.agentbus.events.tools.ToolSpec;
import dev.agentbus.modelclient.ChatMessage;
import dev.agentbus.modelclient.ToolCall;
import dev.agentbus.modelclient.ToolDefinition;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class PromptBuilderTest {
    private static final String SESSION = "s-1";
    private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");
    private static final PromptBuilder DEFAULT = new PromptBuilder(null);

    /** The session state after these events, folded exactly as the orchestrator folds its log. */
    private static SessionState given(SessionEvent... events) {
        List<EventEnvelope> log = new ArrayList<>();
        for (SessionEvent e : events) {
            log.add(new EventEnvelope("e" + (log.size() + 1), SESSION, log.size() + 1, NOW, "in", "alice", e));
        }
        return SessionFold.fold(SESSION, log);
    }

    private static ModelCallCompleted answer(String requestId, String content) {
        return new ModelCallCompleted(requestId, "m", content, null, List.of(), TokenUsage.ZERO, "stop");
    }

    private static ModelCallCompleted calls(String requestId, ToolCallSpec... calls) {
        return new ModelCallCompleted(requestId, "m", "", null, List.of(calls), TokenUsage.ZERO, "tool_calls");
    }

    private static ToolCallCompleted ok(String callId, String output) {
        return new ToolCallCompleted(callId, true, output, null, null, false, 5, false);
    }

    private static ToolCallSpec call(String id, String name) {
        return new ToolCallSpec(id, name, "{\"path\":\"" + id + ".txt\"}");
    }

    private static String system(List<ChatMessage> messages) {
        assertThat(messages).first().isInstanceOf(ChatMessage.System.class);
        return ((ChatMessage.System) messages.getFirst()).content();
    }

    private static List<String> toolResultIds(List<ChatMessage> messages) {
        return messages.stream().filter(ChatMessage.ToolResult.class::isInstance)
                .map(m -> ((ChatMessage.ToolResult) m).toolCallId()).toList();
    }

    @Nested
    class SystemPrompt {
        @Test
        void comes_first_and_tells_the_model_the_current_time() {
            List<ChatMessage> messages = DEFAULT.build(given(new SessionCreated("t"), new UserMessagePosted("hi")), NOW);

            assertThat(system(messages))
                    .startsWith(PromptBuilder.DEFAULT_SYSTEM_PROMPT)
                    .contains("The current time is 2026-11-22T10:00:00Z (UTC).");
            assertThat(messages.stream().filter(ChatMessage.System.class::isInstance)).hasSize(1);
        }

        @Test
        void has_no_memory_section_when_no_memory_is_attached() {
            List<ChatMessage> messages = DEFAULT.build(given(new SessionCreated("t"), new UserMessagePosted("hi")), NOW);

            assertThat(system(messages)).doesNotContain("What you remember about this user");
        }

        @Test
        void has_no_memory_section_when_the_attached_memory_is_blank() {
            SessionState state = given(new SessionCreated("t"), new UserMessagePosted("hi"),
                    new MemoryAttached("  \n ", 3));

            assertThat(system(DEFAULT.build(state, NOW))).doesNotContain("What you remember about this user");
        }

        @Test
        void includes_the_attached_memory_after_the_time() {
            SessionState state = given(new SessionCreated("t"), new UserMessagePosted("hi"),
                    new MemoryAttached("Alice prefers Kotlin.", 2));

            String system = system(DEFAULT.build(state, NOW));

            assertThat(system).endsWith("What you remember about this user:\nAlice prefers Kotlin.");
            assertThat(system.indexOf("The current time is")).isLessThan(system.indexOf("Alice prefers Kotlin."));
        }

        @Test
        void includes_the_insights_recorded_for_the_turn_after_the_memory_document() {
            SessionState state = given(new SessionCreated("t"), new UserMessagePosted("hi"),
                    new MemoryAttached("Alice prefers Kotlin.", 2),
                    new SessionEvent.InsightsInjected(List.of(new InjectedInsight("i1", InsightCategory.PREFERENCE,
                            "prefers tabs over spaces"))));

            assertThat(system(DEFAULT.build(state, NOW))).endsWith("What you remember about this user:\n"
                    + "Alice prefers Kotlin.\n\nWhat you have learned about the user in earlier conversations:\n"
                    + "- prefers tabs over spaces (preference)");
        }

        @Test
        void an_empty_choice_of_insights_drops_the_earlier_ones() {
            SessionState state = given(new SessionCreated("t"), new UserMessagePosted("hi"),
                    new SessionEvent.InsightsInjected(List.of(new InjectedInsight("i1", InsightCategory.SKILL,
                            "knows Rust"))),
                    new UserMessagePosted("again"), new SessionEvent.InsightsInjected(List.of()));

            assertThat(system(DEFAULT.build(state, NOW))).doesNotContain("knows Rust")
                    .doesNotContain("What you remember about this user");
        }

        @Test
        void uses_the_latest_memory_attached_to_the_session() {
            SessionState state = given(new SessionCreated("t"), new MemoryAttached("old fact", 1),
                    new UserMessagePosted("hi"), new MemoryAttached("new fact", 2));

            assertThat(system(DEFAULT.build(state, NOW))).contains("new fact").doesNotContain("old fact");
        }

        @Test
        void a_custom_system_prompt_replaces_the_default() {
            PromptBuilder custom = new PromptBuilder("You are a terse release bot.");

            String system = system(custom.build(given(new SessionCreated("t"), new UserMessagePosted("hi")), NOW));

            assertThat(system).startsWith("You are a terse release bot.")
                    .doesNotContain(PromptBuilder.DEFAULT_SYSTEM_PROMPT)
                    .contains("The current time is 2026-11-22T10:00:00Z (UTC).");
        }

        @Test
        void a_blank_custom_system_prompt_falls_back_to_the_default() {
            PromptBuilder blank = new PromptBuilder("   ");

            String system = system(blank.build(given(new SessionCreated("t"), new UserMessagePosted("hi")), NOW));

            assertThat(system).startsWith(PromptBuilder.DEFAULT_SYSTEM_PROMPT);
        }
    }

    @Nested
    class Conversation {
        @Test
        void keeps_user_and_assistant_messages_in_log_order() {
            SessionState state = given(new SessionCreated("t"),
                    new UserMessagePosted("first question"), new ModelCallStarted("r1", 1), answer("r1", "first answer"),
                    new TurnEnded(TurnOutcome.COMPLETED, "first answer", null),
                    new UserMessagePosted("second question"), new ModelCallStarted("r2", 1), answer("r2", "second answer"));

            List<ChatMessage> messages = DEFAULT.build(state, NOW);

            assertThat(messages.subList(1, messages.size())).containsExactly(
                    new ChatMessage.User("first question"),
                    ChatMessage.Assistant.text("first answer"),
                    new ChatMessage.User("second question"),
                    ChatMessage.Assistant.text("second answer"));
        }

        @Test
        void a_new_session_with_only_a_user_message_gives_system_then_user() {
            List<ChatMessage> messages = DEFAULT.build(given(new SessionCreated("t"), new UserMessagePosted("hi")), NOW);

            assertThat(messages).hasSize(2);
            assertThat(messages.get(1)).isEqualTo(new ChatMessage.User("hi"));
        }

        @Test
        void reasoning_is_never_sent_back_to_the_model() {
            String secret = "PRIVATE-CHAIN-OF-THOUGHT";
            SessionState state = given(new SessionCreated("t"), new UserMessagePosted("list files"),
                    new ModelCallStarted("r1", 1),
                    new ModelCallCompleted("r1", "m", "Let me look.", secret + " one", List.of(call("c1", "ls")),
                            TokenUsage.ZERO, "tool_calls"),
                    new ToolCallRequested("c1", "ls", "{}"), ok("c1", "a.txt"),
                    new ModelCallStarted("r2", 2),
                    new ModelCallCompleted("r2", "m", "There is a.txt.", secret + " two", List.of(),
                            TokenUsage.ZERO, "stop"));

            List<ChatMessage> messages = DEFAULT.build(state, NOW);

            assertThat(messages).isNotEmpty().allSatisfy(m -> assertThat(m.toString()).doesNotContain(secret));
            assertThat(messages).contains(ChatMessage.Assistant.text("There is a.txt."));
        }

        @Test
        void a_platform_notice_becomes_a_user_message_marked_as_from_agentbus() {
            SessionState state = given(new SessionCreated("t"), new UserMessagePosted("remind me"),
                    new ModelCallStarted("r1", 1), answer("r1", "WAIT: 2026-11-23T09:00:00Z: remind"),
                    new WaitScheduled("w1", Instant.parse("2026-11-23T09:00:00Z"), "remind", null),
                    new WaitEnded("w1"));

            List<ChatMessage> messages = DEFAULT.build(state, NOW);

            assertThat(messages.getLast()).isInstanceOfSatisfying(ChatMessage.User.class, u ->
                    assertThat(u.content())
                            .startsWith("[agentbus] ")
                            .contains("The time you waited for has come (2026-11-23T09:00:00Z: remind)"));
        }

        @Test
        void the_same_state_and_time_give_the_same_prompt() {
            SessionState state = given(new SessionCreated("t"), new MemoryAttached("fact", 1),
                    new UserMessagePosted("hi"), new ModelCallStarted("r1", 1), calls("r1", call("c1", "read")),
                    ok("c1", "text"));

            assertThat(DEFAULT.build(state, NOW)).isEqualTo(DEFAULT.build(state, NOW));
        }
    }

    @Nested
    class ToolResults {
        @Test
        void each_call_is_followed_by_its_result_in_the_order_the_model_asked() {
            SessionState state = given(new SessionCreated("t"), new UserMessagePosted("read both"),
                    new ModelCallStarted("r1", 1), calls("r1", call("c1", "read"), call("c2", "read")),
                    new ToolCallRequested("c1", "read", "{}"), new ToolCallRequested("c2", "read", "{}"),
                    ok("c2", "second file"), ok("c1", "first file"),
                    new ModelCallStarted("r2", 2), answer("r2", "done"));

            List<ChatMessage> messages = DEFAULT.build(state, NOW);

            assertThat(messages.subList(1, messages.size())).containsExactly(
                    new ChatMessage.User("read both"),
                    new ChatMessage.Assistant("", List.of(
                            new ToolCall("c1", "read", "{\"path\":\"c1.txt\"}"),
                            new ToolCall("c2", "read", "{\"path\":\"c2.txt\"}"))),
                    new ChatMessage.ToolResult("c1", "first file"),
                    new ChatMessage.ToolResult("c2", "second file"),
                    ChatMessage.Assistant.text("done"));
        }

        @Test
        void a_result_recorded_after_later_messages_is_still_placed_right_after_its_call() {
            SessionState state = given(new SessionCreated("t"), new UserMessagePosted("run it"),
                    new ModelCallStarted("r1", 1), calls("r1", call("c1", "shell")),
                    new ToolCallRequested("c1", "shell", "{}"),
                    new TurnEnded(TurnOutcome.CANCELLED, null, "cancelled"),
                    new UserMessagePosted("never mind"),
                    ok("c1", "late output"));

            List<ChatMessage> messages = DEFAULT.build(state, NOW);

            assertThat(messages.subList(1, messages.size())).containsExactly(
                    new ChatMessage.User("run it"),
                    new ChatMessage.Assistant("", List.of(new ToolCall("c1", "shell", "{\"path\":\"c1.txt\"}"))),
                    new ChatMessage.ToolResult("c1", "late output"),
                    new ChatMessage.User("never mind"));
        }

        @Test
        void a_call_whose_result_never_came_gets_a_placeholder() {
            SessionState state = given(new SessionCreated("t"), new UserMessagePosted("do two things"),
                    new ModelCallStarted("r1", 1), calls("r1", call("c1", "shell"), call("c2", "shell")),
                    new ToolCallRequested("c1", "shell", "{}"), new ToolCallRequested("c2", "shell", "{}"),
                    new ToolCallStarted("c2", "worker-1"), ok("c1", "one"),
                    new TurnEnded(TurnOutcome.CANCELLED, null, "cancelled"),
                    new UserMessagePosted("stop"));

            List<ChatMessage> messages = DEFAULT.build(state, NOW);

            assertThat(messages.subList(2, 5)).containsExactly(
                    new ChatMessage.Assistant("", List.of(
                            new ToolCall("c1", "shell", "{\"path\":\"c1.txt\"}"),
                            new ToolCall("c2", "shell", "{\"path\":\"c2.txt\"}"))),
                    new ChatMessage.ToolResult("c1", "one"),
                    new ChatMessage.ToolResult("c2", "No result: the turn ended before this call finished."));
            assertThat(messages.get(5)).isEqualTo(new ChatMessage.User("stop"));
        }

        @Test
        void every_call_gets_exactly_one_result() {
            SessionState state = given(new SessionCreated("t"), new UserMessagePosted("go"),
                    new ModelCallStarted("r1", 1), calls("r1", call("a", "read"), call("b", "ls")),
                    ok("b", "B"), ok("a", "A"),
                    new ModelCallStarted("r2", 2), calls("r2", call("c", "grep")),
                    new TurnEnded(TurnOutcome.CANCELLED, null, "cancelled"));

            List<ChatMessage> messages = DEFAULT.build(state, NOW);

            assertThat(toolResultIds(messages)).containsExactly("a", "b", "c");
            for (int i = 0; i < messages.size(); i++) {
                if (messages.get(i) instanceof ChatMessage.Assistant a) {
                    List<ChatMessage> following = messages.subList(i + 1, i + 1 + a.toolCalls().size());
                    assertThat(toolResultIds(following)).as("results right after assistant message %d", i)
                            .containsExactlyElementsOf(a.toolCalls().stream().map(ToolCall::id).toList());
                }
            }
        }

        @Test
        void a_failed_call_reports_its_error_to_the_model() {
            SessionState state = given(new SessionCreated("t"), new UserMessagePosted("read it"),
                    new ModelCallStarted("r1", 1), calls("r1", call("c1", "read")),
                    new ToolCallCompleted("c1", false, null, "no such file", null, false, 1, false));

            List<ChatMessage> messages = DEFAULT.build(state, NOW);

            assertThat(messages.getLast()).isEqualTo(new ChatMessage.ToolResult("c1", "ERROR: no such file"));
        }
    }

    @Nested
    class Tools {
        @Test
        void offers_every_catalog_tool_with_its_description_and_schema() {
            List<ToolDefinition> tools = PromptBuilder.tools();

            assertThat(tools).hasSize(ToolCatalog.TOOLS.size());
            for (ToolSpec spec : ToolCatalog.TOOLS) {
                assertThat(tools).contains(new ToolDefinition(spec.name(), spec.description(), spec.parametersSchema()));
            }
        }

        @Test
        void offers_both_sandbox_tools_and_the_orchestrators_own_wait_tool() {
            assertThat(PromptBuilder.tools()).extracting(ToolDefinition::name)
                    .containsAll(ToolCatalog.namesFor(ToolSpec.Executor.SANDBOX))
                    .contains("wait")
                    .doesNotHaveDuplicates();
        }
    }
}
