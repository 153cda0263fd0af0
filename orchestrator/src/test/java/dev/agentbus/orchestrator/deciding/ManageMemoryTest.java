package dev.agentbus.orchestrator.deciding;

import dev.agentbus.events.insights.Insight;
import dev.agentbus.events.insights.InsightCategory;
import dev.agentbus.events.insights.InsightSet;
import dev.agentbus.events.insights.MemoryAction;
import dev.agentbus.events.session.PermissionMode;
import dev.agentbus.events.session.SessionEvent.MemoryManaged;
import dev.agentbus.events.session.SessionEvent.ModelCallStarted;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.tools.Risk;
import dev.agentbus.events.tools.ToolCatalog;
import dev.agentbus.events.tools.ToolSpec;
import dev.agentbus.orchestrator.deciding.remembering.InjectionLimits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.agentbus.orchestrator.deciding.DeciderFixture.NOW;
import static dev.agentbus.orchestrator.deciding.DeciderFixture.USER;
import static dev.agentbus.orchestrator.deciding.DeciderFixture.given;
import static dev.agentbus.orchestrator.deciding.PlanningToolsTest.call;
import static dev.agentbus.orchestrator.deciding.PlanningToolsTest.calls;
import static dev.agentbus.orchestrator.deciding.PlanningToolsTest.changes;
import static dev.agentbus.orchestrator.deciding.PlanningToolsTest.resultOf;
import static dev.agentbus.orchestrator.deciding.PlanningToolsTest.turnAwaiting;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The agent's {@code manage_memory} in the decider: given the user's insights as the orchestrator last read them,
 * when the model calls the tool, then a change is recorded as {@code memory.managed.v1} with the call's result, or
 * refused with a result that says why, and the model goes on.
 */
class ManageMemoryTest {
    private static final Insight TABS = insight("i-tabs", InsightCategory.PREFERENCE, "prefers tabs", false, 0.9);
    private static final Insight NAME = insight("i-name", InsightCategory.IDENTITY, "is called Alice", true, 1.0);
    private static final Insight OLD = insight("i-old", InsightCategory.PROJECT, "works on the billing service",
            false, 0.3);
    private static final InsightSet SET = new InsightSet(USER, 7, List.of(OLD, TABS, NAME), Map.of(), NOW, "c");

    @Test
    void the_catalogue_offers_it_to_the_model_as_a_low_risk_tool_the_orchestrator_answers() {
        ToolSpec spec = ToolCatalog.find("manage_memory").orElseThrow();
        assertThat(spec.executor()).isEqualTo(ToolSpec.Executor.ORCHESTRATOR);
        assertThat(spec.risk()).isEqualTo(Risk.LOW);
        assertThat(ToolCatalog.TOOLS).contains(spec);
        assertThat(ToolCatalog.workerToolNames()).doesNotContain("manage_memory");
    }

    @Test
    void given_insights_when_the_agent_lists_them_then_it_reads_them_best_first_with_ids_and_marks_and_nothing_is_recorded() {
        var d = withSet().when(calls("r1", call("c1", "manage_memory", "{\"action\":\"list\"}")));

        ToolCallCompleted result = resultOf(d, "c1");
        assertThat(result.ok()).isTrue();
        assertThat(result.output()).isEqualTo("""
                3 insights remembered about the user, best first (id, category, text):
                - i-name (identity) is called Alice [protected: only the user changes it]
                - i-tabs (preference) prefers tabs
                - i-old (project) works on the billing service""");
        assertThat(changes(d)).isEmpty();
        assertThat(d.effects()).singleElement().isInstanceOf(Effect.CallModel.class);
    }

    @Test
    void given_no_insights_known_when_the_agent_lists_then_it_is_told_there_are_none() {
        var d = turnAwaiting().when(calls("r1", call("c1", "manage_memory", "{\"action\":\"list\"}")));

        assertThat(resultOf(d, "c1").output()).isEqualTo("No insights are remembered about the user yet.");
    }

    @Test
    void given_a_long_set_when_listed_then_only_the_best_fifty_are_shown_and_the_rest_counted() {
        List<Insight> many = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            many.add(insight("i-%02d".formatted(i), InsightCategory.SKILL, "knows tool " + i, false, 0.5));
        }
        var d = turnAwaiting().withInsights(new InsightSet(USER, 1, many, Map.of(), NOW, "c"), InjectionLimits.DEFAULTS)
                .when(calls("r1", call("c1", "manage_memory", "{\"action\":\"list\"}")));

        String out = resultOf(d, "c1").output();
        assertThat(out.lines().filter(l -> l.startsWith("- "))).hasSize(50);
        assertThat(out).endsWith("… and 10 more that score lower.");
    }

    @Test
    void when_the_agent_adds_a_fact_then_it_is_recorded_with_a_new_id_before_the_result_that_names_it() {
        var d = withSet().when(calls("r1", call("c1", "manage_memory",
                "{\"action\":\"add\",\"category\":\"Preference\",\"text\":\"  deploys   on Fridays \"}")));

        assertThat(changes(d)).containsExactly(
                new MemoryManaged("c1", MemoryAction.ADD, "id-1", InsightCategory.PREFERENCE, "deploys on Fridays"));
        ToolCallCompleted result = resultOf(d, "c1");
        assertThat(result.ok()).isTrue();
        assertThat(result.output()).startsWith("Remembered as insight id-1 (preference): deploys on Fridays.");
        assertThat(d.events().indexOf(changes(d).getFirst())).isLessThan(d.events().indexOf(result));
        assertThat(d.events()).noneMatch(e -> e instanceof ToolCallRequested);
    }

    @Test
    void given_the_same_fact_remembered_when_the_agent_adds_it_again_then_nothing_is_recorded_and_it_is_told_where_it_is() {
        var d = withSet().when(calls("r1", call("c1", "manage_memory",
                "{\"action\":\"add\",\"category\":\"preference\",\"text\":\"Prefers  TABS.\"}")));

        assertThat(changes(d)).isEmpty();
        assertThat(resultOf(d, "c1").output()).isEqualTo("Already remembered as insight i-tabs: prefers tabs");
    }

    @Test
    void when_the_agent_updates_an_unprotected_insight_then_the_new_words_and_category_are_recorded() {
        var d = withSet().when(calls("r1", call("c1", "manage_memory",
                "{\"action\":\"update\",\"id\":\"i-old\",\"text\":\"works on the platform team\","
                        + "\"category\":\"identity\"}")));

        assertThat(changes(d)).containsExactly(new MemoryManaged("c1", MemoryAction.UPDATE, "i-old",
                InsightCategory.IDENTITY, "works on the platform team"));
        assertThat(resultOf(d, "c1").output()).isEqualTo("Insight i-old now says (identity): works on the platform team");
    }

    @Test
    void when_the_agent_updates_only_the_words_then_the_category_is_left_out_of_the_event() {
        var d = withSet().when(calls("r1", call("c1", "manage_memory",
                "{\"action\":\"update\",\"id\":\"i-tabs\",\"text\":\"prefers tabs, width 4\",\"category\":\"preference\"}")));

        assertThat(changes(d)).containsExactly(
                new MemoryManaged("c1", MemoryAction.UPDATE, "i-tabs", null, "prefers tabs, width 4"));
    }

    @Test
    void when_the_agent_deletes_an_unprotected_insight_then_the_deletion_is_recorded() {
        var d = withSet().when(calls("r1", call("c1", "manage_memory", "{\"action\":\"delete\",\"id\":\"i-old\"}")));

        assertThat(changes(d)).containsExactly(new MemoryManaged("c1", MemoryAction.DELETE, "i-old", null, null));
        assertThat(resultOf(d, "c1").output()).isEqualTo("Deleted insight i-old: works on the billing service");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"action\":\"update\",\"id\":\"i-name\",\"text\":\"is called Bob\"} | insight i-name is protected: only the user can change or delete it",
            "{\"action\":\"delete\",\"id\":\"i-name\"} | insight i-name is protected: only the user can change or delete it",
            "{\"action\":\"delete\",\"id\":\"i-nope\"} | no insight has id 'i-nope'; list shows the ids (one added moments ago may take a second to appear)",
            "{\"action\":\"delete\"} | delete needs id: the insight's id, as list shows it",
            "{\"action\":\"update\",\"id\":\"i-tabs\"} | update needs text: the fact, in one short sentence",
            "{\"action\":\"update\",\"id\":\"i-tabs\",\"text\":\"x\",\"category\":\"mood\"} | category must be identity, skill, preference, project, opinion or session_detail (or left out to keep preference)",
            "{\"action\":\"add\",\"text\":\"likes tea\"} | add needs category: identity, skill, preference, project, opinion or session_detail",
            "{\"action\":\"add\",\"category\":\"opinion\",\"text\":\"   \"} | add needs text: the fact, in one short sentence",
            "{\"action\":\"forget\"} | action must be list, add, update or delete",
            "{\"action\":3} | action must be list, add, update or delete",
            "{} | action must be list, add, update or delete"})
    void a_call_that_breaks_a_rule_is_a_failed_result_that_says_why_and_changes_nothing(String args, String error) {
        var d = withSet().when(calls("r1", call("c1", "manage_memory", args)));

        assertThat(changes(d)).isEmpty();
        assertThat(resultOf(d, "c1").ok()).isFalse();
        assertThat(resultOf(d, "c1").error()).isEqualTo(error);
        assertThat(d.effects()).as("the model is told at once").singleElement().isInstanceOf(Effect.CallModel.class);
    }

    @Test
    void a_text_longer_than_an_insight_may_be_is_refused() {
        String longText = "a".repeat(Insight.MAX_TEXT_CHARS + 1);
        var d = withSet().when(calls("r1", call("c1", "manage_memory",
                "{\"action\":\"add\",\"category\":\"skill\",\"text\":\"" + longText + "\"}")));

        assertThat(changes(d)).isEmpty();
        assertThat(resultOf(d, "c1").error()).isEqualTo("add text has 501 characters; an insight has at most 500, so "
                + "keep to one short fact");
    }

    @Test
    void given_an_incognito_session_when_the_agent_calls_it_then_it_is_refused_and_nothing_is_read_or_recorded() {
        var d = given(new SessionCreated("t", PermissionMode.AUTO, null, true))
                .and(new UserMessagePosted("remember I like tea"), new ModelCallStarted("r1", 1))
                .withInsights(SET, InjectionLimits.DEFAULTS)
                .when(calls("r1", call("c1", "manage_memory", "{\"action\":\"list\"}")));

        assertThat(changes(d)).isEmpty();
        assertThat(resultOf(d, "c1").error()).startsWith("memory is off in this incognito session");
    }

    private static DeciderFixture withSet() {
        return turnAwaiting().withInsights(SET, InjectionLimits.DEFAULTS);
    }

    private static Insight insight(String id, InsightCategory category, String text, boolean isProtected,
                                   double confidence) {
        return new Insight(id, category, text, confidence, List.of(), NOW, NOW, 0, 0, 0, false, false, isProtected,
                Insight.Origin.DISTILLED);
    }
}
