package dev.agentbus.orchestrator.deciding;

import dev.agentbus.events.input.SessionInput.GiveFeedback;
import dev.agentbus.events.input.SessionInput.PostUserMessage;
import dev.agentbus.events.insights.Insight;
import dev.agentbus.events.insights.InsightCategory;
import dev.agentbus.events.insights.InsightSet;
import dev.agentbus.events.session.InjectedInsight;
import dev.agentbus.events.session.PermissionMode;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.FeedbackGiven;
import dev.agentbus.events.session.SessionEvent.InputRejected;
import dev.agentbus.events.session.SessionEvent.InsightsInjected;
import dev.agentbus.events.session.SessionEvent.ModelCallCompleted;
import dev.agentbus.events.session.SessionEvent.ModelCallStarted;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.session.Vote;
import dev.agentbus.orchestrator.deciding.remembering.InjectionLimits;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.agentbus.orchestrator.deciding.DeciderFixture.NOW;
import static dev.agentbus.orchestrator.deciding.DeciderFixture.USER;
import static dev.agentbus.orchestrator.deciding.DeciderFixture.given;
import static org.assertj.core.api.Assertions.assertThat;

/** Which insights go into a turn's prompt, recorded at its start; and a person's thumbs on an answer. */
class InsightInjectionTest {
    private static final Insight TABS = new Insight("i-tabs", InsightCategory.PREFERENCE, "prefers tabs", 0.9,
            List.of(), NOW, NOW, 0, 0, 0, false, false, false, Insight.Origin.DISTILLED);
    private static final Insight OFF = new Insight("i-off", InsightCategory.SKILL, "knows Go", 0.9, List.of(), NOW,
            NOW, 0, 0, 0, true, false, false, Insight.Origin.DISTILLED);
    private static final InsightSet SET = new InsightSet(USER, 3, List.of(TABS, OFF), Map.of(), NOW, "c");
    private static final TokenUsage USAGE = new TokenUsage(10, 2, 12);

    @Test
    void given_an_idle_session_when_a_message_starts_a_turn_then_the_chosen_insights_are_recorded_before_the_call() {
        var decision = given(new SessionCreated("t")).withInsights(SET, InjectionLimits.DEFAULTS)
                .when(new PostUserMessage("hi"));

        assertThat(decision.events()).hasExactlyElementsOfTypes(UserMessagePosted.class, InsightsInjected.class,
                ModelCallStarted.class);
        assertThat(((InsightsInjected) decision.events().get(1)).insights())
                .containsExactly(new InjectedInsight("i-tabs", InsightCategory.PREFERENCE, "prefers tabs"));
        assertThat(decision.state().context().insights()).extracting(InjectedInsight::id).containsExactly("i-tabs");
    }

    @Test
    void given_an_incognito_session_when_a_turn_starts_then_no_insight_is_injected() {
        var decision = given(new SessionCreated("t", PermissionMode.AUTO, null, true))
                .withInsights(SET, InjectionLimits.DEFAULTS).when(new PostUserMessage("hi"));

        assertThat(decision.events()).noneMatch(e -> e instanceof InsightsInjected);
    }

    @Test
    void given_a_turn_that_used_insights_when_the_next_chooses_none_then_an_empty_choice_is_recorded() {
        var decision = given(new SessionCreated("t"), new UserMessagePosted("hi"),
                new InsightsInjected(List.of(new InjectedInsight("i-tabs", InsightCategory.PREFERENCE, "prefers tabs"))),
                new ModelCallStarted("r1", 1), completed("r1", "hello"), new TurnEnded(TurnOutcome.COMPLETED, "hello", null))
                .withInsights(InsightSet.empty(USER), InjectionLimits.DEFAULTS).when(new PostUserMessage("again"));

        assertThat(decision.events()).contains(new InsightsInjected(List.of()));
        assertThat(decision.state().context().insights()).isEmpty();
    }

    @Test
    void given_no_insights_ever_when_a_turn_starts_then_nothing_about_insights_is_recorded() {
        var decision = given(new SessionCreated("t")).withInsights(InsightSet.empty(USER), InjectionLimits.DEFAULTS)
                .when(new PostUserMessage("hi"));

        assertThat(decision.events()).hasExactlyElementsOfTypes(UserMessagePosted.class, ModelCallStarted.class);
    }

    @Test
    void given_an_answer_when_a_person_votes_on_it_then_the_vote_is_recorded_with_who_gave_it() {
        var decision = answered().when(new GiveFeedback(4, Vote.UP));

        assertThat(decision.events()).containsExactly(new FeedbackGiven(4, Vote.UP, USER));
    }

    @Test
    void given_an_answer_when_a_vote_names_the_users_message_instead_then_it_is_rejected_with_the_reason() {
        var decision = answered().when(new GiveFeedback(2, Vote.DOWN));

        assertThat(decision.events()).singleElement().isInstanceOfSatisfying(InputRejected.class,
                r -> assertThat(r.reason()).contains("seq 2 is not an answer"));
    }

    private static DeciderFixture answered() {
        return given(new SessionCreated("t"), new UserMessagePosted("hi"), new ModelCallStarted("r1", 1),
                completed("r1", "hello"), new TurnEnded(TurnOutcome.COMPLETED, "hello", null));
    }

    private static SessionEvent completed(String requestId, String content) {
        return new ModelCallCompleted(requestId, "m", content, null, List.of(), USAGE, "stop");
    }
}
