package dev.agentbus.gateway.readmodels.auditing;

import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.ToolCallSpec;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The audit log's fold: given events, then the audit records; no database needed. */
class AuditTrailTest {
    private static final Instant T0 = Instant.parse("2026-11-20T09:00:00Z");

    private final Map<String, AuditRecord> records = new HashMap<>();
    private long seq;

    private void given(SessionEvent... events) {
        for (SessionEvent e : events) {
            EventEnvelope env = new EventEnvelope("e" + seq, "s1", ++seq, T0.plusSeconds(seq), null, "ada", e);
            for (AuditRecord r : AuditTrail.evolve(records::get, env)) {
                records.put(r.callId(), r);
            }
        }
    }

    private static SessionEvent.ModelCallCompleted modelAsks(String id, String tool, String arguments) {
        return new SessionEvent.ModelCallCompleted("r", "m", null, null, List.of(new ToolCallSpec(id, tool,
                arguments)), TokenUsage.ZERO, "tool_calls");
    }

    @Test
    void a_call_the_model_asks_for_is_requested_started_and_ok_with_worker_and_duration() {
        given(modelAsks("c1", "shell", "{\"command\":\"ls\"}"));
        assertThat(records.get("c1").status()).isEqualTo(AuditStatus.REQUESTED);

        given(new SessionEvent.ToolCallRequested("c1", "shell", "{\"command\":\"ls\"}"),
                new SessionEvent.ToolCallStarted("c1", "sandbox-worker-3"));
        assertThat(records.get("c1").status()).isEqualTo(AuditStatus.STARTED);

        given(new SessionEvent.ToolCallCompleted("c1", true, "a\nb", null, null, false, 42, false));
        AuditRecord done = records.get("c1");
        assertThat(done.status()).isEqualTo(AuditStatus.OK);
        assertThat(done.worker()).isEqualTo("sandbox-worker-3");
        assertThat(done.durationMs()).isEqualTo(42);
        assertThat(done.byUser()).isFalse();
        assertThat(done.userId()).isEqualTo("ada");
        assertThat(done.requestedAt()).isEqualTo(T0.plusSeconds(1));
        assertThat(done.startedAt()).isEqualTo(T0.plusSeconds(3));
        assertThat(done.completedAt()).isEqualTo(T0.plusSeconds(4));
        assertThat(done.requestedSeq()).isEqualTo(1);
        assertThat(done.completedSeq()).isEqualTo(4);
        assertThat(done.error()).isNull();
    }

    @Test
    void secrets_in_arguments_and_errors_are_masked() {
        given(modelAsks("c1", "shell", "{\"command\":\"curl -H 'Authorization: Bearer abcdefghijklmnopqrstuvwxyz123456'"
                        + " https://u:hunter22@example.com\"}"),
                new SessionEvent.ToolCallCompleted("c1", false, null, "PASSWORD=hunter22 rejected", null, false, 1,
                        false));

        AuditRecord r = records.get("c1");
        assertThat(r.arguments()).contains("[REDACTED]").doesNotContain("abcdefghijklmnopqrstuvwxyz123456")
                .doesNotContain("hunter22");
        assertThat(r.error()).contains("[REDACTED]").doesNotContain("hunter22");
        assertThat(r.status()).isEqualTo(AuditStatus.FAILED);
    }

    @Test
    void an_interrupted_call_and_a_refused_call_say_so() {
        given(modelAsks("c1", "shell", "{}"), modelAsks("c2", "shell", "{\"command\":\"rm -rf /\"}"),
                new SessionEvent.ToolCallCompleted("c1", false, null, "interrupted, not re-run", null, false, 0, true),
                new SessionEvent.ToolCallCompleted("c2", false, null, null, null, false, 0, false, null, null,
                        "deletes outside the workspace"));

        assertThat(records.get("c1").status()).isEqualTo(AuditStatus.INTERRUPTED);
        assertThat(records.get("c1").error()).isEqualTo("interrupted, not re-run");
        assertThat(records.get("c2").status()).isEqualTo(AuditStatus.REFUSED);
        assertThat(records.get("c2").error()).isEqualTo("deletes outside the workspace");
    }

    @Test
    void a_call_a_person_runs_is_audited_as_by_user() {
        given(new SessionEvent.ToolCallRequested("call_up", "write", "{\"path\":\"a\"}", null, true),
                new SessionEvent.ToolCallCompleted("call_up", true, "ok", null, null, false, 3, false));

        assertThat(records.get("call_up").byUser()).isTrue();
        assertThat(records.get("call_up").status()).isEqualTo(AuditStatus.OK);
        assertThat(records.get("call_up").tool()).isEqualTo("write");
    }

    @Test
    void a_call_the_orchestrator_answers_itself_is_audited_too() {
        given(modelAsks("c9", "no_such_tool", "{}"),
                new SessionEvent.ToolCallCompleted("c9", false, null, "unknown tool no_such_tool", null, false, 0,
                        false));

        assertThat(records.get("c9").status()).isEqualTo(AuditStatus.FAILED);
        assertThat(records.get("c9").worker()).isNull();
    }

    @Test
    void a_second_result_for_a_call_changes_nothing() {
        given(modelAsks("c1", "read", "{}"),
                new SessionEvent.ToolCallCompleted("c1", true, "x", null, null, false, 5, false),
                new SessionEvent.ToolCallCompleted("c1", false, null, "late", null, false, 9, false));

        assertThat(records.get("c1").status()).isEqualTo(AuditStatus.OK);
        assertThat(records.get("c1").durationMs()).isEqualTo(5);
    }

    @Test
    void events_that_are_not_about_tools_change_no_record() {
        given(new SessionEvent.SessionCreated("t"), new SessionEvent.UserMessagePosted("hi"));

        assertThat(records).isEmpty();
    }
}
