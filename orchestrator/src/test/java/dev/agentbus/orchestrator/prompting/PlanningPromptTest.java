package dev.agentbus.orchestrator.prompting;

import dev.agentbus.events.planning.TodoStatus;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.PlanCreated;
import dev.agentbus.events.session.SessionEvent.PlanFirstChanged;
import dev.agentbus.events.session.SessionEvent.PlanStepCompleted;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.TaskStateUpdated;
import dev.agentbus.events.session.SessionEvent.TodoAdded;
import dev.agentbus.events.session.SessionEvent.TodoUpdated;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.state.SessionFold;
import dev.agentbus.modelclient.ChatMessage;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The planning part of the system prompt: the model sees its plan, open todos and task state on every call. */
class PlanningPromptTest {
    private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");

    private static String systemPromptAfter(SessionEvent... events) {
        List<EventEnvelope> log = new ArrayList<>();
        for (SessionEvent e : events) {
            log.add(new EventEnvelope("e" + (log.size() + 1), "s-1", log.size() + 1, NOW, "in", "alice", e));
        }
        List<ChatMessage> prompt = new PromptBuilder(null).build(SessionFold.fold("s-1", log), NOW);
        return ((ChatMessage.System) prompt.getFirst()).content();
    }

    @Test
    void a_session_that_never_planned_has_no_planning_part() {
        String system = systemPromptAfter(new SessionCreated("t"), new UserMessagePosted("hi"));

        assertThat(system).doesNotContain("plan-first", "Plan #", "todos", "Task state");
    }

    @Test
    void plan_first_mode_the_plan_the_open_todos_and_a_summary_of_the_task_state_are_in_the_system_prompt() {
        String system = systemPromptAfter(new SessionCreated("t"), new PlanFirstChanged(true, "alice"),
                new PlanCreated(1, "fix it", List.of("read", "edit"), "c1", false),
                new PlanStepCompleted(1, 1, "read a.txt"), new TodoAdded(1, "done already"),
                new TodoUpdated(1, TodoStatus.DONE, null, null), new TodoAdded(2, "write the test"),
                new TaskStateUpdated("resize", 10, List.of("a.png"), List.of(), "half way"));

        assertThat(system).contains("This session is in plan-first mode: before any other tool, propose a plan")
                .contains("Plan #1: fix it (active)\n  1. [done] read — evidence: read a.txt\n→ 2. [pending] edit")
                .contains("Open todos:\n#2 [pending] write the test").doesNotContain("done already")
                .contains("Task state: resize\nDone: 1 of 10, failed: 0\nNotes: half way")
                .doesNotContain("a.png");
    }
}
