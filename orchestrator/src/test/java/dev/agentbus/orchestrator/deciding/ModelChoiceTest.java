package dev.agentbus.orchestrator.deciding;

import dev.agentbus.events.input.SessionInput.CreateSession;
import dev.agentbus.events.input.SessionInput.PostUserMessage;
import dev.agentbus.events.input.SessionInput.RecordToolResult;
import dev.agentbus.events.input.SessionInput.SetSessionModel;
import dev.agentbus.events.models.ModelChoice;
import dev.agentbus.events.models.Sampling;
import dev.agentbus.events.session.SessionEvent.InputRejected;
import dev.agentbus.events.session.SessionEvent.ModelCallCompleted;
import dev.agentbus.events.session.SessionEvent.ModelCallStarted;
import dev.agentbus.events.session.SessionEvent.ModelSettingsChanged;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.SystemPromptChanged;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.session.PermissionMode;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.ToolCallSpec;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.agentbus.orchestrator.deciding.DeciderFixture.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A session's own model and sampling: chosen at creation or later (also mid-turn), checked, and stacked over the
 * preset's temperature, the user's and the installation's settings into what each model call asks for, recorded on
 * {@code model_call.started.v1}.
 */
class ModelChoiceTest {
    /** What the engine passes for a user with their own temperature on the team's defaults. */
    private static final ModelChoice DEFAULTS = new ModelChoice("team-model", new Sampling(0.3, null, 4096));

    private static ModelCallStarted started(Decision d) {
        return d.events().stream().filter(ModelCallStarted.class::isInstance).map(ModelCallStarted.class::cast)
                .reduce((a, b) -> b).orElseThrow();
    }

    @Test
    void a_session_created_with_a_model_and_sampling_records_the_choice_after_its_creation() {
        Decision d = given().when(new CreateSession("t", null, null, null, false, " big-model ",
                new Sampling(0.7, 0.9, 2000)));

        assertThat(d.events()).containsExactly(new SessionCreated("t", PermissionMode.AUTO),
                new ModelSettingsChanged("big-model", new Sampling(0.7, 0.9, 2000), "alice"));
        assertThat(d.state().models().chosen()).isEqualTo(new ModelChoice("big-model", new Sampling(0.7, 0.9, 2000)));
        assertThat(d.state().models().changedBy()).isEqualTo("alice");
    }

    @Test
    void a_session_created_without_a_choice_records_none() {
        Decision d = given().when(new CreateSession("t", null, null, null, false, "  ", Sampling.NONE));

        assertThat(d.events()).containsExactly(new SessionCreated("t", PermissionMode.AUTO));
    }

    @Test
    void a_choice_out_of_bounds_at_creation_is_refused_on_its_own_and_the_session_is_created() {
        Decision d = given().when(new CreateSession("t", null, null, null, false, null, new Sampling(2.5, null, null)));

        assertThat(d.events()).hasSize(2);
        assertThat(d.events().get(0)).isInstanceOf(SessionCreated.class);
        assertThat(d.events().get(1)).isInstanceOfSatisfying(InputRejected.class,
                r -> assertThat(r.reason()).isEqualTo("temperature must be from 0 to 2, not 2.5"));
        assertThat(d.state().models().chosen()).isEqualTo(ModelChoice.NONE);
    }

    @Test
    void a_top_p_of_zero_a_token_limit_of_zero_and_a_too_long_name_are_refused() {
        assertThat(given(new SessionCreated("t")).when(new SetSessionModel(null, new Sampling(null, 0.0, null)))
                .events()).singleElement().isInstanceOfSatisfying(InputRejected.class, r -> assertThat(r.reason())
                        .isEqualTo("topP must be more than 0 and at most 1, not 0.0"));
        assertThat(given(new SessionCreated("t")).when(new SetSessionModel(null, new Sampling(null, null, 0)))
                .events()).singleElement().isInstanceOfSatisfying(InputRejected.class, r -> assertThat(r.reason())
                        .isEqualTo("maxTokens must be from 1 to 1000000, not 0"));
        assertThat(given(new SessionCreated("t")).when(new SetSessionModel("m".repeat(201), null))
                .events()).singleElement().isInstanceOfSatisfying(InputRejected.class, r -> assertThat(r.reason())
                        .isEqualTo("model must be at most 200 characters"));
    }

    @Test
    void without_a_choice_of_the_session_a_call_asks_for_the_users_and_installations_settings() {
        Decision d = given(new SessionCreated("t")).withModelDefaults(DEFAULTS).when(new PostUserMessage("hi"));

        assertThat(started(d).asked()).isEqualTo(DEFAULTS);
        assertThat(d.state().models().asked()).isEqualTo(DEFAULTS);
    }

    @Test
    void the_sessions_choice_wins_field_by_field_over_the_defaults() {
        Decision d = given(new SessionCreated("t"),
                new ModelSettingsChanged("big-model", new Sampling(null, 0.8, null), "alice"))
                .withModelDefaults(DEFAULTS).when(new PostUserMessage("hi"));

        assertThat(started(d).asked()).isEqualTo(new ModelChoice("big-model", new Sampling(0.3, 0.8, 4096)));
    }

    @Test
    void a_presets_temperature_wins_over_the_users_and_the_sessions_own_over_the_presets() {
        Decision withPreset = given(new SessionCreated("t"), new SystemPromptChanged("write", null, "alice"))
                .withModelDefaults(DEFAULTS).when(new PostUserMessage("hi"));
        Decision withOwn = given(new SessionCreated("t"), new SystemPromptChanged("write", null, "alice"),
                new ModelSettingsChanged(null, new Sampling(0.1, null, null), "alice"))
                .withModelDefaults(DEFAULTS).when(new PostUserMessage("hi"));

        assertThat(started(withPreset).asked().sampling().temperature()).isEqualTo(0.8);
        assertThat(started(withOwn).asked().sampling().temperature()).isEqualTo(0.1);
    }

    @Test
    void a_change_while_a_turn_runs_is_recorded_at_once_and_asked_for_from_the_next_model_call() {
        DeciderFixture running = given(new SessionCreated("t"), new UserMessagePosted("do it"),
                new ModelCallStarted("r1", 1, DEFAULTS)).withModelDefaults(DEFAULTS);

        Decision change = running.when(new SetSessionModel("fast-model", new Sampling(1.2, null, null)));
        assertThat(change.events()).containsExactly(
                new ModelSettingsChanged("fast-model", new Sampling(1.2, null, null), "alice"));
        assertThat(change.effects()).as("the call under way is not touched").isEmpty();
        assertThat(change.state().models().asked()).as("still what r1 asked for").isEqualTo(DEFAULTS);

        Decision next = running.and(
                        new ModelCallCompleted("r1", "team-model", "", null,
                                List.of(new ToolCallSpec("c1", "read", "{\"path\":\"a.txt\"}")),
                                new TokenUsage(10, 2, 12), "tool_calls"),
                        new ToolCallRequested("c1", "read", "{\"path\":\"a.txt\"}"),
                        new ModelSettingsChanged("fast-model", new Sampling(1.2, null, null), "alice"))
                .when(new RecordToolResult("c1", true, "text", null, null, false, 5, false));
        assertThat(started(next)).isEqualTo(new ModelCallStarted("id-1", 2,
                new ModelChoice("fast-model", new Sampling(1.2, null, 4096))));
    }

    @Test
    void choosing_nothing_goes_back_to_the_defaults() {
        Decision d = given(new SessionCreated("t"),
                new ModelSettingsChanged("big-model", new Sampling(0.9, null, null), "alice"))
                .withModelDefaults(DEFAULTS).when(new SetSessionModel(null, null));

        assertThat(d.events()).containsExactly(new ModelSettingsChanged(null, null, "alice"));
        assertThat(d.state().models().chosen()).isEqualTo(ModelChoice.NONE);
        assertThat(d.state().models().changedBy()).isNull();
    }
}
