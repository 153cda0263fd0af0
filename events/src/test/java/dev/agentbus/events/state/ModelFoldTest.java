package dev.agentbus.events.state;

import dev.agentbus.events.Json;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.models.ModelChoice;
import dev.agentbus.events.models.Sampling;
import dev.agentbus.events.models.UserModelSettings;
import dev.agentbus.events.session.SessionEvent.ModelCallStarted;
import dev.agentbus.events.session.SessionEvent.ModelSettingsChanged;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.SessionForked;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static dev.agentbus.events.state.FoldScenario.given;
import static org.assertj.core.api.Assertions.assertThat;

/** How a session's model choice and each call's recorded ask fold, and how they read and write as JSON. */
class ModelFoldTest {
    private static final ModelChoice ASKED = new ModelChoice("big", new Sampling(0.7, null, 4096));

    @Test
    void a_choice_becomes_the_sessions_with_who_made_it() {
        given(new SessionCreated("t"))
                .when(new ModelSettingsChanged("big", new Sampling(0.7, 0.9, null), "bob"))
                .then(s -> {
                    assertThat(s.models().chosen()).isEqualTo(new ModelChoice("big", new Sampling(0.7, 0.9, null)));
                    assertThat(s.models().changedBy()).isEqualTo("bob");
                    assertThat(s.models().asked()).isNull();
                });
    }

    @Test
    void an_empty_choice_goes_back_to_none() {
        given(new SessionCreated("t"), new ModelSettingsChanged("big", null, "bob"))
                .when(new ModelSettingsChanged(null, null, "bob"))
                .then(s -> assertThat(s.models()).isEqualTo(ModelState.NONE));
    }

    @Test
    void a_model_call_keeps_what_it_asked_for_and_an_older_call_that_asked_nothing_clears_it() {
        given(new SessionCreated("t"), new UserMessagePosted("hi"))
                .when(new ModelCallStarted("r1", 1, ASKED))
                .then(s -> assertThat(s.models().asked()).isEqualTo(ASKED));
        given(new SessionCreated("t"), new UserMessagePosted("hi"), new ModelCallStarted("r1", 1, ASKED))
                .when(new ModelCallStarted("r2", 2))
                .then(s -> assertThat(s.models().asked()).isNull());
    }

    @Test
    void a_fork_keeps_the_sources_choice_but_not_what_its_calls_asked_for() {
        SessionState source = SessionFold.fold("src", List.of(
                FoldScenario.envelope(1, new SessionCreated("t")),
                FoldScenario.envelope(2, new ModelSettingsChanged("big", null, "bob")),
                FoldScenario.envelope(3, new UserMessagePosted("hi")),
                FoldScenario.envelope(4, new ModelCallStarted("r1", 1, ASKED))));

        given().when(new SessionForked("src", 4, null, "fork", source)).then(s -> {
            assertThat(s.models().chosen().model()).isEqualTo("big");
            assertThat(s.models().asked()).isNull();
        });
    }

    @Test
    void a_state_without_a_choice_writes_no_models_and_one_with_a_choice_reads_back_equal() throws Exception {
        SessionState plain = SessionFold.fold("s", List.of(FoldScenario.envelope(1, new SessionCreated("t"))));
        SessionState chosen = SessionFold.evolve(plain,
                FoldScenario.envelope(2, new ModelSettingsChanged("big", new Sampling(null, 0.5, 100), "bob")));

        assertThat(Json.mapper().writeValueAsString(plain)).doesNotContain("\"models\"");
        String json = Json.mapper().writeValueAsString(chosen);
        assertThat(Json.mapper().readValue(json, SessionState.class)).isEqualTo(chosen);
    }

    @Test
    void a_users_settings_written_before_sampling_existed_read_as_the_installations() {
        String old = "{\"userId\":\"ada\",\"baseUrl\":\"https://ada.example/v1\",\"model\":\"m\","
                + "\"sealedApiKey\":null,\"version\":3,\"updatedAt\":\"2026-01-01T00:00:00Z\"}";

        UserModelSettings read = EventCodec.decodeValue(old.getBytes(StandardCharsets.UTF_8), UserModelSettings.class);

        assertThat(read.sampling()).isEqualTo(Sampling.NONE);
        assertThat(read.model()).isEqualTo("m");
    }

    @Test
    void sampling_stacks_field_by_field_and_explains_what_is_out_of_bounds() {
        assertThat(new Sampling(0.1, null, null).over(new Sampling(0.5, 0.9, 10)))
                .isEqualTo(new Sampling(0.1, 0.9, 10));
        assertThat(new Sampling(2.0, 1.0, 1_000_000).problem()).isNull();
        assertThat(new Sampling(-0.1, null, null).problem()).isEqualTo("temperature must be from 0 to 2, not -0.1");
        assertThat(new Sampling(null, 1.5, null).problem()).isEqualTo("topP must be more than 0 and at most 1, not 1.5");
        assertThat(new Sampling(null, null, 1_000_001).problem())
                .isEqualTo("maxTokens must be from 1 to 1000000, not 1000001");
    }
}
