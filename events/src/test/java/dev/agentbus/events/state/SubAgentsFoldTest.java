package dev.agentbus.events.state;

import dev.agentbus.events.Json;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.PermissionMode;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.SessionForked;
import dev.agentbus.events.session.SessionEvent.SubAgentFinished;
import dev.agentbus.events.session.SessionEvent.SubAgentStarted;
import dev.agentbus.events.session.SubAgentOf;
import dev.agentbus.events.session.TurnOutcome;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.agentbus.events.state.FoldScenario.given;
import static org.assertj.core.api.Assertions.assertThat;

/** How a sub-agent's parent link and a parent's children fold, and how they read and write as JSON. */
class SubAgentsFoldTest {
    private static final SubAgentOf LINK = new SubAgentOf("parent-1", "t1", List.of("read", "grep"), 4);

    @Test
    void a_childs_first_event_links_it_to_its_parent() {
        given().when(new SessionCreated("Sub-agent: look", PermissionMode.NORMAL, LINK))
                .then(s -> {
                    assertThat(s.subAgents().parent()).isEqualTo(LINK);
                    assertThat(s.permissionMode()).isEqualTo(PermissionMode.NORMAL);
                    assertThat(s.subAgents().children()).isEmpty();
                });
    }

    @Test
    void a_started_child_runs_until_it_finished_with_its_outcome() {
        given(new SessionCreated("p"))
                .when(new SubAgentStarted("t1", "c1", "look", List.of("read"), 4))
                .then(s -> assertThat(s.subAgents().running()).extracting(SubAgents.Child::sessionId)
                        .containsExactly("c1"));
        given(new SessionCreated("p"), new SubAgentStarted("t1", "c1", "look", List.of("read"), 4),
                new SubAgentStarted("t2", "c2", "find", List.of("read"), 4))
                .when(new SubAgentFinished("t1", "c1", TurnOutcome.COMPLETED))
                .then(s -> {
                    assertThat(s.subAgents().byCall("t1").orElseThrow().outcome()).isEqualTo(TurnOutcome.COMPLETED);
                    assertThat(s.subAgents().running()).extracting(SubAgents.Child::callId).containsExactly("t2");
                });
    }

    @Test
    void a_fork_is_nobodys_child_and_keeps_only_the_finished_children() {
        SessionState source = SessionFold.fold("src", List.of(
                FoldScenario.envelope(1, new SessionCreated("t", PermissionMode.AUTO, LINK)),
                FoldScenario.envelope(2, new SubAgentStarted("t1", "c1", "look", List.of("read"), 4)),
                FoldScenario.envelope(3, new SubAgentStarted("t2", "c2", "find", List.of("read"), 4)),
                FoldScenario.envelope(4, new SubAgentFinished("t1", "c1", TurnOutcome.COMPLETED))));

        given().when(new SessionForked("src", 4, null, "fork", source)).then(s -> {
            assertThat(s.subAgents().parent()).isNull();
            assertThat(s.subAgents().children()).extracting(SubAgents.Child::callId).containsExactly("t1");
        });
    }

    @Test
    void a_session_without_sub_agents_writes_none_and_one_with_them_reads_back_equal() throws Exception {
        SessionState plain = SessionFold.fold("s", List.of(FoldScenario.envelope(1, new SessionCreated("t"))));
        SessionState child = SessionFold.fold("c", List.of(
                FoldScenario.envelope(1, new SessionCreated("t", PermissionMode.AUTO, LINK)),
                FoldScenario.envelope(2, new SubAgentStarted("t1", "c1", "look", List.of("read"), 4))));

        assertThat(Json.mapper().writeValueAsString(plain)).doesNotContain("subAgents");
        String json = Json.mapper().writeValueAsString(child);
        assertThat(Json.mapper().readValue(json, SessionState.class)).isEqualTo(child);
    }

    @Test
    void the_link_travels_in_the_creation_event_and_is_absent_for_other_sessions() {
        EventEnvelope created = FoldScenario.envelope(1, new SessionCreated("t", PermissionMode.AUTO, LINK));
        EventEnvelope plain = FoldScenario.envelope(1, new SessionCreated("t", PermissionMode.AUTO));

        assertThat(EventCodec.decodeEvent(EventCodec.encodeEvent(created))).isEqualTo(created);
        assertThat(EventCodec.eventToJson(created)).contains("\"subAgentOf\":{\"parentSessionId\":\"parent-1\"");
        assertThat(EventCodec.eventToJson(plain)).doesNotContain("subAgentOf");
    }
}
