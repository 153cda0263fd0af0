package dev.agentbus.gateway.sessions;

import dev.agentbus.events.Json;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.insights.InsightCategory;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.InjectedInsight;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.ToolCallSpec;
import dev.agentbus.events.state.SessionFold;
import dev.agentbus.events.state.SessionState;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Given a session with its owner's memory in it, when someone else looks, then none of that memory shows. */
class SessionViewerTest {
    static final String SECRET = "owner-memory-marker";

    private final List<EventEnvelope> log = new ArrayList<>();

    private void given(String sessionId, SessionEvent event) {
        log.add(new EventEnvelope("e" + log.size(), sessionId, log.size() + 1, Instant.EPOCH, null, "alice", event));
    }

    private void aSessionWithMemory(String sessionId) {
        given(sessionId, new SessionEvent.SessionCreated("work"));
        given(sessionId, new SessionEvent.MemoryAttached(SECRET + " document", 2));
        given(sessionId, new SessionEvent.InsightsInjected(List.of(
                new InjectedInsight("i1", InsightCategory.PREFERENCE, SECRET + " insight"))));
        given(sessionId, new SessionEvent.UserMessagePosted("the conversation"));
        given(sessionId, new SessionEvent.ModelCallCompleted("r1", "m", "the answer", null,
                List.of(new ToolCallSpec("m1", "manage_memory", "{\"text\":\"" + SECRET + " added\"}"),
                        new ToolCallSpec("s1", "shell", "{\"command\":\"ls\"}")), TokenUsage.ZERO, "tool_calls"));
        given(sessionId, new SessionEvent.ToolCallCompleted("m1", true, SECRET + " listed", null, null, false, 1,
                false));
        given(sessionId, new SessionEvent.ToolCallCompleted("s1", true, "README.md", null, null, false, 1, false));
    }

    private static String json(SessionState s) throws Exception {
        return Json.mapper().writeValueAsString(s);
    }

    private static String json(List<EventEnvelope> events) {
        return events.stream().map(EventCodec::eventToJson).reduce("", String::concat);
    }

    @Test
    void the_owner_sees_everything() throws Exception {
        aSessionWithMemory("s");
        SessionState state = SessionFold.fold("s", log);
        SessionViewer owner = SessionViewer.of(state, "alice");

        assertThat(owner.state(state)).isSameAs(state);
        assertThat(json(owner.events(log))).contains(SECRET + " document", SECRET + " insight", SECRET + " added",
                SECRET + " listed");
    }

    @Test
    void anyone_else_sees_the_conversation_without_the_owners_memory_in_state_and_log_alike() throws Exception {
        aSessionWithMemory("s");
        SessionState state = SessionFold.fold("s", log);
        SessionViewer carol = SessionViewer.of(state, "carol");

        SessionState shown = carol.state(state);
        List<EventEnvelope> events = carol.events(log);

        assertThat(json(shown)).contains("the conversation", "the answer", "README.md").doesNotContain(SECRET);
        assertThat(json(events)).contains("the conversation", "the answer", "README.md").doesNotContain(SECRET);
        assertThat(events).extracting(EventEnvelope::seq).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L);
        assertThat(SessionFold.fold("s", events)).as("the viewer's log folds into the viewer's state")
                .isEqualTo(shown);
    }

    @Test
    void a_stream_that_starts_after_a_memory_call_was_asked_still_hides_its_result() {
        aSessionWithMemory("s");
        SessionState before = SessionFold.fold("s", log.subList(0, 5));
        SessionViewer stream = SessionViewer.of(before, "carol");

        assertThat(EventCodec.eventToJson(stream.event(log.get(5)))).doesNotContain(SECRET)
                .contains(SessionViewer.HIDDEN);
    }

    @Test
    void a_memory_call_waiting_for_approval_shows_its_arguments_to_the_owner_only() throws Exception {
        given("s", new SessionEvent.SessionCreated("careful", dev.agentbus.events.session.PermissionMode.MANUAL));
        given("s", new SessionEvent.ModelCallCompleted("r1", "m", null, null,
                List.of(new ToolCallSpec("m1", "manage_memory", "{\"text\":\"" + SECRET + "\"}")), TokenUsage.ZERO,
                "tool_calls"));
        given("s", new SessionEvent.ApprovalRequested("m1", "manage_memory", "{\"text\":\"" + SECRET + "\"}",
                dev.agentbus.events.tools.Risk.LOW, "manual mode", Instant.EPOCH.plusSeconds(3600)));
        SessionState state = SessionFold.fold("s", log);
        var pending = state.pendingApprovals().getFirst();

        assertThat(SessionViewer.of(state, "alice").approval(pending).arguments()).contains(SECRET);
        assertThat(SessionViewer.of(state, "carol").approval(pending).arguments()).isEqualTo("{}");
        assertThat(json(SessionViewer.of(state, "carol").state(state))).doesNotContain(SECRET);
        assertThat(json(SessionViewer.of(state, "carol").events(log))).doesNotContain(SECRET);
    }

    @Test
    void a_fork_carries_no_memory_in_the_state_it_starts_from() throws Exception {
        aSessionWithMemory("s");
        SessionState source = SessionFold.fold("s", log);
        log.clear();
        given("f", new SessionEvent.SessionForked("s", 7, null, "fork", source));
        SessionState fork = SessionFold.fold("f", log);

        assertThat(json(SessionViewer.anonymous(fork).events(log))).doesNotContain(SECRET).contains("README.md");
        assertThat(json(SessionViewer.anonymous(fork).state(fork))).doesNotContain(SECRET);
    }
}
