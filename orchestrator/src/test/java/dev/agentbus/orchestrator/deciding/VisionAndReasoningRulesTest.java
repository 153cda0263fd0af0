package dev.agentbus.orchestrator.deciding;

import dev.agentbus.events.input.SessionInput.PostUserMessage;
import dev.agentbus.events.input.SessionInput.RecordModelRefusal;
import dev.agentbus.events.input.SessionInput.RecordToolResult;
import dev.agentbus.events.models.ModelChoice;
import dev.agentbus.events.models.Sampling;
import dev.agentbus.events.session.SessionEvent.InputRejected;
import dev.agentbus.events.session.SessionEvent.ModelCallCompleted;
import dev.agentbus.events.session.SessionEvent.ModelCallRefused;
import dev.agentbus.events.session.SessionEvent.ModelCallStarted;
import dev.agentbus.events.session.SessionEvent.ModelSettingsChanged;
import dev.agentbus.events.session.SessionEvent.ModelWarned;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.ToolCallSpec;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.state.Message;
import org.junit.jupiter.api.Test;

import java.util.Collections;
import java.util.List;

import static dev.agentbus.orchestrator.deciding.DeciderFixture.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Images attached to a message, a model call refused for them, reasoning controls and the warning for a thinking
 * model at a high temperature: given events, when an input, then the events.
 */
class VisionAndReasoningRulesTest {

    @Test
    void a_message_with_images_records_their_paths_and_calls_the_model() {
        Decision d = given(new SessionCreated("t")).when(new PostUserMessage("what is this?", List.of("a.png")));

        assertThat(d.events()).contains(new UserMessagePosted("what is this?", List.of("a.png")));
        assertThat(d.events()).hasAtLeastOneElementOfType(ModelCallStarted.class);
        assertThat(d.state().messages()).singleElement().isInstanceOfSatisfying(Message.User.class,
                u -> assertThat(u.imagePaths()).containsExactly("a.png"));
    }

    @Test
    void too_many_images_or_an_empty_path_are_refused() {
        assertThat(given(new SessionCreated("t")).when(new PostUserMessage("x", Collections.nCopies(9, "a.png")))
                .events()).singleElement().isInstanceOfSatisfying(InputRejected.class,
                        r -> assertThat(r.reason()).isEqualTo("a message takes at most 8 images, not 9"));
        assertThat(given(new SessionCreated("t")).when(new PostUserMessage("x", List.of(" ")))
                .events()).singleElement().isInstanceOfSatisfying(InputRejected.class,
                        r -> assertThat(r.reason()).isEqualTo("an image path is empty"));
    }

    @Test
    void a_refused_model_call_is_recorded_and_ends_the_turn_with_its_reason() {
        Decision d = given(new SessionCreated("t"), new UserMessagePosted("see", List.of("a.png")),
                new ModelCallStarted("r1", 1)).when(new RecordModelRefusal("r1", "text-model",
                "the model text-model does not take images"));

        assertThat(d.events()).containsExactly(
                new ModelCallRefused("r1", "text-model", "the model text-model does not take images"),
                new TurnEnded(TurnOutcome.ERROR, null, "the model text-model does not take images"));
        assertThat(d.state().turn()).isNull();
        assertThat(d.effects()).isEmpty();
    }

    @Test
    void a_refusal_for_a_call_no_longer_awaited_is_ignored() {
        Decision d = given(new SessionCreated("t"), new UserMessagePosted("see", List.of("a.png")),
                new ModelCallStarted("r1", 1)).when(new RecordModelRefusal("r0", "m", "no"));

        assertThat(d.events()).isEmpty();
    }

    @Test
    void reasoning_controls_are_asked_for_and_a_hot_thinking_model_is_warned_once_per_temperature() {
        Sampling hot = new Sampling(1.5, null, null, "high", 4096);
        DeciderFixture session = given(new SessionCreated("t"), new ModelSettingsChanged("r1-model", hot, "alice"));

        Decision first = session.when(new PostUserMessage("think"));
        assertThat(first.events()).contains(new ModelCallStarted("id-1", 1, new ModelChoice("r1-model", hot)));
        ModelWarned warned = first.events().stream().filter(ModelWarned.class::isInstance)
                .map(ModelWarned.class::cast).findFirst().orElseThrow();
        assertThat(warned.model()).isEqualTo("r1-model");
        assertThat(warned.temperature()).isEqualTo(1.5);
        assertThat(warned.reason()).contains("temperature 1.5");

        Decision second = session.and(new UserMessagePosted("think"),
                        new ModelCallStarted("id-1", 1, new ModelChoice("r1-model", hot)), warned,
                        new ModelCallCompleted("id-1", "r1-model", "", "hmm", List.of(new ToolCallSpec("c1", "read",
                                "{\"path\":\"a\"}")), TokenUsage.ZERO, "tool_calls"),
                        new ToolCallRequested("c1", "read", "{\"path\":\"a\"}"))
                .when(new RecordToolResult("c1", true, "x", null, null, false, 1, false));
        assertThat(second.events()).hasAtLeastOneElementOfType(ModelCallStarted.class)
                .doesNotHaveAnyElementsOfTypes(ModelWarned.class);
    }

    @Test
    void a_model_that_answered_with_reasoning_is_warned_at_a_high_temperature_without_reasoning_controls() {
        Sampling hot = new Sampling(1.3, null, null);
        Decision d = given(new SessionCreated("t"), new ModelSettingsChanged(null, hot, "alice"),
                new UserMessagePosted("a"), new ModelCallStarted("r1", 1, new ModelChoice(null, hot)),
                new ModelCallCompleted("r1", "m", "done", "let me think", List.of(), TokenUsage.ZERO, "stop"),
                new TurnEnded(TurnOutcome.COMPLETED, "done", null))
                .when(new PostUserMessage("again"));

        assertThat(d.events()).hasAtLeastOneElementOfType(ModelWarned.class);
    }

    @Test
    void a_model_not_known_to_think_or_a_moderate_temperature_is_not_warned() {
        Decision plain = given(new SessionCreated("t"),
                new ModelSettingsChanged(null, new Sampling(1.8, null, null), "alice")).when(new PostUserMessage("a"));
        Decision cool = given(new SessionCreated("t"),
                new ModelSettingsChanged(null, new Sampling(0.6, null, null, "high", null), "alice"))
                .when(new PostUserMessage("a"));

        assertThat(plain.events()).doesNotHaveAnyElementsOfTypes(ModelWarned.class);
        assertThat(cool.events()).doesNotHaveAnyElementsOfTypes(ModelWarned.class);
    }

    @Test
    void a_reasoning_effort_out_of_the_three_is_refused() {
        Decision d = given(new SessionCreated("t")).when(new dev.agentbus.events.input.SessionInput.SetSessionModel(
                null, new Sampling(null, null, null, "extreme", null)));

        assertThat(d.events()).singleElement().isInstanceOfSatisfying(InputRejected.class,
                r -> assertThat(r.reason()).isEqualTo("reasoningEffort must be low, medium or high, not extreme"));
    }
}
