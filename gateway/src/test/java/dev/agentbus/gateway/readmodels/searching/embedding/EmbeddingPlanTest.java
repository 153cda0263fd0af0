package dev.agentbus.gateway.readmodels.searching.embedding;

import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.TokenUsage;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

class EmbeddingPlanTest {
    private final List<EmbeddingPlan.Positioned> log = new ArrayList<>();

    private void given(String session, long seq, SessionEvent event) {
        log.add(new EmbeddingPlan.Positioned(new EventEnvelope(UUID.randomUUID().toString(), session, seq,
                Instant.parse("2026-11-25T10:00:00Z"), null, "ann", event), 0, log.size()));
    }

    @Test
    void user_messages_and_answers_with_text_are_embedded_and_nothing_else() {
        given("s1", 1, new SessionEvent.SessionCreated("t"));
        given("s1", 2, new SessionEvent.UserMessagePosted("deploy the billing service"));
        given("s1", 3, new SessionEvent.ModelCallCompleted("r", "m", "Done.", null, List.of(),
                new TokenUsage(1, 1, 2), "stop"));
        given("s1", 4, new SessionEvent.ModelCallCompleted("r2", "m", " ", null, List.of(),
                new TokenUsage(1, 1, 2), "stop"));

        EmbeddingPlan plan = EmbeddingPlan.of(log, 100);

        assertThat(plan.messages()).extracting(m -> m.row().seq()).containsExactly(2L, 3L);
        assertThat(plan.messages()).extracting(m -> m.row().role()).containsExactly("user", "assistant");
        assertThat(plan.messages()).extracting(EmbeddingPlan.Message::offset).containsExactly(1L, 2L);
        assertThat(plan.deleted()).isEmpty();
    }

    @Test
    void a_session_deleted_in_the_same_batch_is_not_embedded_but_its_deletion_is_carried_out() {
        given("s1", 1, new SessionEvent.UserMessagePosted("keep me"));
        given("s2", 1, new SessionEvent.UserMessagePosted("forget me"));
        given("s2", 2, new SessionEvent.SessionDeleted("ann"));

        EmbeddingPlan plan = EmbeddingPlan.of(log, 100);

        assertThat(plan.messages()).extracting(m -> m.row().sessionId()).containsExactly("s1");
        assertThat(plan.deleted()).containsExactly("s2");
    }

    @Test
    void a_long_message_is_embedded_by_its_beginning() {
        given("s1", 1, new SessionEvent.UserMessagePosted("  " + "x".repeat(50) + "  "));

        EmbeddingPlan plan = EmbeddingPlan.of(log, 10);

        assertThat(plan.messages().getFirst().input()).isEqualTo("x".repeat(10));
        assertThat(plan.messages().getFirst().row().text()).hasSize(54);
    }
}
