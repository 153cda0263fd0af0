package dev.agentbus.gateway.sharing;

import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.ModelCallCompleted;
import dev.agentbus.events.session.SessionEvent.ModelCallStarted;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.state.SessionFold;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.session.ToolCallSpec;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class MarkdownTranscriptTest {

    private static SessionState folded(SessionEvent... events) {
        List<EventEnvelope> log = new ArrayList<>();
        for (SessionEvent e : events) {
            log.add(new EventEnvelope("e" + log.size(), "s1", log.size() + 1, Instant.parse("2026-11-25T10:00:00Z"),
                    null, "ada", e));
        }
        return SessionFold.fold("s1", log);
    }

    @Test
    void a_turn_with_a_tool_call_reads_as_a_conversation() {
        SessionState session = folded(new SessionCreated("Shopping list"),
                new UserMessagePosted("write the list"),
                new ModelCallStarted("r1", 1),
                new ModelCallCompleted("r1", "m", null, "Use the write tool.",
                        List.of(new ToolCallSpec("c1", "write", "{\"path\":\"list.md\"}")), null, "tool_calls"),
                new ToolCallRequested("c1", "write", "{\"path\":\"list.md\"}"),
                new ToolCallCompleted("c1", true, "created list.md", null, "+milk\n", false, 12, false),
                new ModelCallStarted("r2", 2),
                new ModelCallCompleted("r2", "m", "Done: **list.md**.", null, List.of(), null, "stop"));

        String md = MarkdownTranscript.of(session);

        assertThat(md).startsWith("# Shopping list\n")
                .contains("## You\n\nwrite the list\n")
                .contains("<details><summary>Reasoning</summary>")
                .contains("**Tool `write`**\n\n```json\n{\"path\":\"list.md\"}\n```\n")
                .contains("_done in 12 ms_\n\n```\ncreated list.md\n```\n")
                .contains("```diff\n+milk\n```\n")
                .endsWith("## Agent\n\nDone: **list.md**.\n\n");
    }

    @Test
    void output_with_backticks_cannot_close_its_fence() {
        String fenced = MarkdownTranscript.fenced("a\n```\n<script>x</script>\n````", "");

        assertThat(fenced).startsWith("`````\n").endsWith("\n`````\n");
    }
}
