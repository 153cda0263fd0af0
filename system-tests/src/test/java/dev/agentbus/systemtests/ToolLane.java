package dev.agentbus.systemtests;

import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.testkit.Poll;
import dev.agentbus.testkit.model.ScriptedModelServer;
import dev.agentbus.testkit.model.ScriptedReply;
import dev.agentbus.testkit.model.ScriptedToolCall;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

/**
 * One session of {@link SymlinkRaceIT} whose agent uses its file tools, as the scripted model tells it: each reply
 * asks for every probe once (the worker runs them one after the other), a few replies make a turn, and turns follow
 * each other until {@code done}. What the tools answered is read from the session's log afterwards (see
 * {@link SymlinkRaceIT}); here the replies the model handed out are counted, to know when each probe ran enough.
 */
final class ToolLane {
    /** One tool on one path; {@code %1$d} in the arguments becomes a number that is new for every attempt. */
    record Probe(String tool, String argumentsTemplate) {
    }

    /** Enough calls per turn that a turn's overhead stays small, few enough that the iteration cap never bites. */
    private static final int REPLIES_PER_TURN = 5;

    final String lane;
    final String sessionId;
    final String mark;
    final List<Probe> probes;
    private final ScriptedModelServer.Conversation conversation;
    private final Map<Probe, Integer> handedOut = new ConcurrentHashMap<>();
    private int turns;

    ToolLane(String lane, String sessionId, ScriptedModelServer model, List<Probe> probes) {
        this.lane = lane;
        this.sessionId = sessionId;
        this.mark = "symlink race lane " + lane + " " + RaceTargets.random();
        this.probes = probes;
        this.conversation = model.conversation(mark);
    }

    /** The fewest times any probe of this lane has been run so far. */
    int fewestRuns() {
        return probes.stream().mapToInt(p -> handedOut.getOrDefault(p, 0)).min().orElse(0);
    }

    /**
     * The session's first message, answered at once: it carries the mark that ties the session to this lane's
     * script, and must come before the person's own calls (the loop script's upload), which the model is told
     * about as user messages too.
     */
    void greet(GatewayClient bob) throws InterruptedException {
        conversation.replyText("ready");
        post(bob, mark + ": use your file tools as told");
        awaitTurnsEnded(bob);
    }

    void hammer(GatewayClient bob, BooleanSupplier done) throws InterruptedException {
        int n = 0;
        while (true) {
            for (int r = 0; r < REPLIES_PER_TURN; r++) {
                List<ScriptedToolCall> calls = new ArrayList<>();
                for (Probe p : probes) {
                    calls.add(ScriptedToolCall.of(p.tool(), p.argumentsTemplate().formatted(++n)));
                }
                conversation.reply(ScriptedReply.toolCalls(calls));
            }
            conversation.replyText("turn done");
            post(bob, "again");
            Poll.until("lane " + lane + " to use up its scripted replies", Duration.ofMinutes(5),
                    () -> conversation.remaining() == 0);
            probes.forEach(p -> handedOut.merge(p, REPLIES_PER_TURN, Integer::sum));
            if (done.getAsBoolean()) {
                break;
            }
        }
        awaitTurnsEnded(bob);
    }

    /** Posts once the previous turn has ended: a message to a running turn is answered 409. */
    private void post(GatewayClient bob, String text) throws InterruptedException {
        turns++;
        String body = dev.agentbus.events.Json.mapper().createObjectNode().put("text", text).toString();
        Poll.until("lane " + lane + " to take a message", Duration.ofMinutes(2), () -> {
            GatewayClient.Response r = bob.post(RouteLane.base(sessionId) + "/messages", body);
            if (r.status() != 202 && r.status() != 409) {
                throw new AssertionError("post message in lane " + lane + ": " + r.status() + " " + r.body());
            }
            return r.status() == 202;
        });
    }

    /**
     * Until the log shows every turn posted so far ended: the state's status can still say idle from before the
     * turn began, and the person's own calls are refused while a turn runs.
     */
    private void awaitTurnsEnded(GatewayClient bob) throws InterruptedException {
        Poll.until("lane " + lane + "'s " + turns + " turn(s) to end", Duration.ofMinutes(2),
                () -> bob.log(sessionId).stream().filter(e -> e.event() instanceof TurnEnded).count() >= turns);
    }

    /** A probe's name in the report: the tool and its arguments, with the attempt numbers taken out. */
    static String probeName(String tool, String arguments) {
        return "tool " + tool + " " + arguments.replaceAll("[0-9]+", "N");
    }
}
