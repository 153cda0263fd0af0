package dev.agentbus.systemtests;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent.InsightsInjected;
import dev.agentbus.events.session.SessionEvent.MemoryManaged;
import dev.agentbus.events.session.SessionEvent.ModelCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.testkit.Poll;
import dev.agentbus.testkit.model.ScriptedModelServer;
import dev.agentbus.testkit.model.ScriptedToolCall;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Memory insights end to end, through the broker, with distillation on and the scripted model server answering both
 * the agent and the extraction: a completed turn's insights appear; the next turn's system prompt carries them and
 * the log records which; their score decays as it is read; a thumbs up on the answer they shaped raises it; an
 * incognito session neither gets them nor counts; and a rebuild replaces the distilled ones at once with what
 * today's extraction finds, keeping a protected one; the agent's {@code manage_memory} adds and deletes insights
 * but cannot rewrite the protected one.
 */
class MemoryIT {
    static final Duration WAIT = Duration.ofSeconds(60);
    static final String TABS = "{\"insights\":[{\"category\":\"preference\",\"text\":\"prefers tabs over spaces\","
            + "\"confidence\":0.6},{\"category\":\"session_detail\",\"text\":\"is formatting a Makefile\","
            + "\"confidence\":0.9}]}";

    @TempDir
    static Path dataDir;
    static ScriptedModelServer model;
    static StandaloneStack stack;

    @BeforeAll
    static void startStack() {
        model = ScriptedModelServer.start();
        // One extraction call at a time in a rebuild: the scripted server answers requests in the order they come.
        stack = new StandaloneStack(dataDir, model, Map.of("agentbus.memory.distill.enabled", "true",
                "agentbus.memory.distill.rebuild-concurrency", "1"));
    }

    @AfterAll
    static void stopStack() {
        if (stack != null) {
            stack.close();
        }
        if (model != null) {
            model.close();
        }
    }

    @Test
    void insights_are_distilled_injected_decay_follow_votes_skip_incognito_are_rebuilt_and_changed_by_the_agent()
            throws Exception {
        GatewayClient gw = stack.gateway;

        // Turn 1: the agent answers, then the distiller asks about the turn and gets the extraction JSON.
        model.replyText("Tabs it is.").replyText(TABS);
        String session = gw.createSession("memory");
        gw.postMessage(session, "I always indent with tabs; I'm fixing our Makefile.");
        gw.awaitLog(session, e -> e.event() instanceof TurnEnded, WAIT);
        Poll.until("the distilled insights", WAIT, () -> texts(insights(gw)).contains("prefers tabs over spaces"));
        JsonNode tabs = insight(insights(gw), "prefers tabs over spaces");
        assertThat(tabs.get("category").asText()).isEqualTo("preference");
        assertThat(tabs.get("sources").get(0).get("sessionId").asText()).isEqualTo(session);
        assertThat(tabs.get("sources").get(0).get("seqs")).isNotEmpty();
        // Decay is computed when read: a fresh insight already scores a hair below its confidence.
        JsonNode detail = insight(insights(gw), "is formatting a Makefile");
        assertThat(detail.get("score").asDouble()).isLessThan(0.9).isGreaterThan(0.89);
        Poll.until("the first extraction answered", WAIT, () -> model.requestCount() >= 2);

        // Turn 2: the agent's system prompt carries the insights; the log names them.
        model.replyText("Here is the Makefile, with tabs.").replyText("{\"insights\": []}");
        int before = model.requestCount();
        gw.postMessage(session, "Format it for me.");
        List<EventEnvelope> log = gw.awaitLog(session, e -> e.event() instanceof TurnEnded t
                && "Here is the Makefile, with tabs.".equals(t.answer()), WAIT);
        String system = model.requests().get(before).get("messages").get(0).get("content").asText();
        assertThat(system).contains("- prefers tabs over spaces (preference)");
        InsightsInjected injected = log.stream().map(EventEnvelope::event)
                .filter(InsightsInjected.class::isInstance).map(InsightsInjected.class::cast).reduce((a, b) -> b)
                .orElseThrow();
        assertThat(injected.insights()).anySatisfy(i -> assertThat(i.id()).isEqualTo(tabs.get("id").asText()));
        Poll.until("the use counted", WAIT, () -> insight(insights(gw), "prefers tabs over spaces")
                .get("uses").asLong() == 1);

        // A thumbs up on turn 2's answer raises the insights that shaped it; a vote on a question is refused.
        long answerSeq = log.stream().filter(e -> e.event() instanceof ModelCallCompleted c
                && "Here is the Makefile, with tabs.".equals(c.content())).findFirst().orElseThrow().seq();
        double scoreBefore = insight(insights(gw), "prefers tabs over spaces").get("score").asDouble();
        GatewayClient.Response voted = gw.post("/api/v1/sessions/" + session + "/feedback",
                "{\"seq\":" + answerSeq + ",\"vote\":\"up\"}");
        assertThat(voted.status()).as(voted.body()).isEqualTo(202);
        assertThat(gw.post("/api/v1/sessions/" + session + "/feedback", "{\"seq\":2,\"vote\":\"up\"}").status())
                .isEqualTo(400);
        assertThat(gw.post("/api/v1/sessions/" + session + "/feedback",
                "{\"seq\":" + answerSeq + ",\"vote\":\"sideways\"}").status()).isEqualTo(400);
        Poll.until("the vote counted", WAIT, () -> insight(insights(gw), "prefers tabs over spaces")
                .get("upVotes").asLong() == 1);
        assertThat(insight(insights(gw), "prefers tabs over spaces").get("score").asDouble())
                .isGreaterThan(scoreBefore);
        Poll.until("the second extraction answered", WAIT, () -> model.requestCount() >= before + 2);

        // An incognito session: no insight in its prompt, none recorded.
        model.replyText("Private answer.");
        int incognitoCall = model.requestCount();
        GatewayClient.Response created = gw.post("/api/v1/sessions", "{\"title\":\"secret\",\"incognito\":true}");
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        String secret = created.json().get("id").asText();
        gw.postMessage(secret, "Something private.");
        List<EventEnvelope> secretLog = gw.awaitLog(secret, e -> e.event() instanceof TurnEnded, WAIT);
        assertThat(secretLog).noneMatch(e -> e.event() instanceof InsightsInjected);
        assertThat(model.requests().get(incognitoCall).get("messages").get(0).get("content").asText())
                .doesNotContain("prefers tabs");

        // Protect one, then rebuild with a new extraction: the distilled ones are replaced at once, the protected
        // one stays. The rebuild asks about the two completed turns of the normal session, oldest first.
        String tabsId = insight(insights(gw), "prefers tabs over spaces").get("id").asText();
        GatewayClient.Response protectedOne = gw.send(gw.request("/api/v1/memory/insights/" + tabsId)
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"protected\":true}")).build());
        assertThat(protectedOne.status()).as(protectedOne.body()).isEqualTo(200);
        model.replyText("{\"insights\":[{\"category\":\"skill\",\"text\":\"writes Makefiles\",\"confidence\":0.7},"
                        + "{\"category\":\"skill\",\"text\":\"knows make well\",\"confidence\":0.5}]}")
                .replyText("{\"insights\":[]}");
        String user = insights(gw).get("userId").asText();
        GatewayClient.Response rebuild = gw.post("/api/v1/admin/rebuild-memory", "{\"user\":\"" + user + "\"}");
        assertThat(rebuild.status()).as(rebuild.body()).isEqualTo(202);
        String rebuildId = rebuild.json().get("rebuildId").asText();
        Poll.until("the rebuild swapped in", WAIT, () -> gw.get("/api/v1/admin/rebuild-memory/" + rebuildId).json()
                .get("users").has(user));
        JsonNode after = insights(gw);
        assertThat(texts(after)).containsExactlyInAnyOrder("prefers tabs over spaces", "writes Makefiles",
                "knows make well");
        assertThat(insight(after, "prefers tabs over spaces").get("protected").asBoolean()).isTrue();
        assertThat(insight(after, "writes Makefiles").get("sources").get(0).get("sessionId").asText())
                .isEqualTo(session);

        // Refine: the model is offered the two unprotected insights (never the protected one) and merges them.
        String makefiles = insight(after, "writes Makefiles").get("id").asText();
        String make = insight(after, "knows make well").get("id").asText();
        int refineCall = model.requestCount();
        model.replyText("{\"merges\":[{\"replaces\":[\"" + makefiles + "\",\"" + make + "\"],\"category\":\"skill\","
                + "\"text\":\"writes Makefiles and knows make well\",\"confidence\":0.8}]}");
        GatewayClient.Response refined = gw.post("/api/v1/memory/insights/refine", "{\"waitSeconds\":60}");
        assertThat(refined.status()).as(refined.body()).isEqualTo(200);
        assertThat(texts(refined.json())).containsExactlyInAnyOrder("prefers tabs over spaces",
                "writes Makefiles and knows make well");
        assertThat(model.requests().get(refineCall).toString()).contains(makefiles).doesNotContain(tabsId);

        // The agent's manage_memory, in one reply: it adds a fact, may not rewrite the protected one, deletes the
        // merged one. The orchestrator records the changes, the memory-service applies them.
        String merged = insight(refined.json(), "writes Makefiles and knows make well").get("id").asText();
        // The orchestrator's view of the insights must have the merged one before the agent may delete it: a turn
        // whose injection names it proves that (each probe has a script of its own, its extraction included).
        boolean seen = false;
        for (int n = 1; !seen; n++) {
            assertThat(n).as("probe turns before the orchestrator saw the merged insight").isLessThanOrEqualTo(20);
            String mark = "probe-" + n;
            ScriptedModelServer.Conversation probe = model.conversation(mark).replyText("ok")
                    .replyText("{\"insights\":[]}");
            String id = gw.createSession(mark);
            gw.postMessage(id, "Anything new? " + mark);
            seen = gw.awaitLog(id, e -> e.event() instanceof TurnEnded, WAIT).stream()
                    .anyMatch(e -> e.event() instanceof InsightsInjected in
                            && in.insights().stream().anyMatch(x -> x.id().equals(merged)));
            Poll.until("the probe's extraction answered", WAIT, () -> probe.remaining() == 0);
        }
        model.replyToolCalls(List.of(
                        ScriptedToolCall.of("manage_memory", "{\"action\":\"add\",\"category\":\"project\","
                                + "\"text\":\"deploys on Fridays\"}"),
                        ScriptedToolCall.of("manage_memory", "{\"action\":\"update\",\"id\":\"" + tabsId
                                + "\",\"text\":\"prefers spaces\"}"),
                        ScriptedToolCall.of("manage_memory", "{\"action\":\"delete\",\"id\":\"" + merged + "\"}")))
                .replyText("Noted.").replyText("{\"insights\":[]}");
        gw.postMessage(session, "Remember that I deploy on Fridays, and forget the Makefile things.");
        List<EventEnvelope> managedLog = gw.awaitLog(session, e -> e.event() instanceof TurnEnded t
                && "Noted.".equals(t.answer()), WAIT);
        List<ToolCallCompleted> results = managedLog.stream().map(EventEnvelope::event)
                .filter(ToolCallCompleted.class::isInstance).map(ToolCallCompleted.class::cast).toList();
        assertThat(results.subList(results.size() - 3, results.size())).extracting(ToolCallCompleted::ok)
                .containsExactly(true, false, true);
        assertThat(results.getLast().output()).startsWith("Deleted insight " + merged);
        assertThat(managedLog).filteredOn(e -> e.event() instanceof MemoryManaged).hasSize(2);
        Poll.until("the agent's changes applied", WAIT, () -> texts(insights(gw)).contains("deploys on Fridays")
                && !texts(insights(gw)).contains("writes Makefiles and knows make well"));
        JsonNode last = insights(gw);
        assertThat(insight(last, "deploys on Fridays").get("origin").asText()).isEqualTo("agent");
        assertThat(insight(last, "deploys on Fridays").get("sources").get(0).get("sessionId").asText())
                .isEqualTo(session);
        assertThat(insight(last, "prefers tabs over spaces").get("protected").asBoolean()).isTrue();
        assertThat(texts(last)).doesNotContain("prefers spaces");
    }

    private static JsonNode insights(GatewayClient gw) {
        GatewayClient.Response r = gw.get("/api/v1/memory/insights");
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json();
    }

    private static List<String> texts(JsonNode list) {
        return StreamSupport.stream(list.get("insights").spliterator(), false).map(i -> i.get("text").asText())
                .toList();
    }

    private static JsonNode insight(JsonNode list, String text) {
        return StreamSupport.stream(list.get("insights").spliterator(), false)
                .filter(i -> i.get("text").asText().equals(text)).findFirst()
                .orElseThrow(() -> new AssertionError("no insight '" + text + "' in " + list));
    }
}
