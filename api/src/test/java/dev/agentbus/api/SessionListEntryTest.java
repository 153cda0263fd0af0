package dev.agentbus.api;

import dev.agentbus.events.state.SessionState;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code GET /api/v1/sessions}: given folded sessions, when listed, then one documented row each. */
class SessionListEntryTest {

    @Test
    void each_row_has_every_field_and_a_null_outcome_before_the_first_turn_ended() throws Exception {
        List<SessionListEntry> rows = List.of(Histories.waiting(), Histories.finished()).stream()
                .map(SessionListEntry::of).toList();

        String wire = ApiJson.write(rows);

        assertThat(GoldenAnswers.pretty(wire)).isEqualTo(GoldenAnswers.load("session-list.json"));
    }

    @Test
    void a_client_reads_the_list_back() throws Exception {
        SessionState finished = Histories.finished();
        List<SessionListEntry> sent = List.of(SessionListEntry.of(finished));

        List<SessionListEntry> read = ApiJson.readList(ApiJson.write(sent), SessionListEntry.class);

        assertThat(read).isEqualTo(sent);
        assertThat(read.getFirst().usage().totalTokens()).isEqualTo(5765);
        assertThat(read.getFirst().createdAt()).isEqualTo(finished.createdAt());
    }
}
