package dev.agentbus.systemtests;

import dev.agentbus.events.Json;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.topics.TopicSpec;
import dev.agentbus.events.topics.Topics;
import dev.agentbus.testkit.Poll;
import dev.agentbus.testkit.model.ScriptedModelServer;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The symlink race of issue 28, end to end, on both sandbox backends: bob, an ordinary user, starts a loop in each
 * of his sessions' sandboxes that swaps {@code race} between a file and a link to {@code <data dir>/gateway-token},
 * and {@code d} between a directory and a link to a host directory, while every file route of the gateway and every
 * file tool of the agent works on {@code race} and {@code d/…} as fast as it can. A worker that checks a path and
 * then opens it by name follows the link now and then. Nothing outside the workspace may be read (the secrets
 * appear in no answer, log, state, Kafka record, backup or checkpoint) or written, created or deleted (the outside
 * directories and the token file are as they were).
 *
 * <p>The lanes (one session each: a session runs one call at a time) run side by side for
 * {@code -DsymlinkRace.seconds} (default 60) and until every probe ran {@code -DsymlinkRace.minAttempts} times
 * (default 20); there is no timing assertion, only a generous cap after which too few attempts fail the test.
 */
class SymlinkRaceIT {
    private static final Duration RUN = Duration.ofSeconds(Long.getLong("symlinkRace.seconds", 60));
    private static final int MIN_ATTEMPTS = Integer.getInteger("symlinkRace.minAttempts", 20);
    /** The swapping loops' rest between two bursts of swaps: what keeps ten of them from taking the machine. */
    private static final int PAUSE_MICROS = Integer.getInteger("symlinkRace.pauseMicros", 4000);
    /** After this, a lane stops even with too few attempts, and the test says so. */
    private static final Duration CAP = RUN.plusMinutes(10);

    @TempDir
    Path base;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"bubblewrap", "docker"})
    void no_route_or_tool_reads_or_writes_outside_the_workspace_while_a_sandbox_swaps_paths_for_links(String backend)
            throws Exception {
        Path dataDir = base.resolve("data");
        Map<String, Object> settings = new HashMap<>(Map.of(
                "agentbus.gateway.token", "", // the gateway makes <data dir>/gateway-token: the target
                "agentbus.sandbox.backend", backend,
                "agentbus.agent.max-iterations", "1000",
                "agentbus.loop-guard.repeated-calls", "0",
                "agentbus.loop-guard.no-progress", "0",
                "agentbus.loop-guard.tool-errors", "0",
                "agentbus.context.compact-at", "0",
                "agentbus.auth.api-requests-per-minute", "1000000"));
        try (ScriptedModelServer model = ScriptedModelServer.start().keepOnlyTheLastRequest();
             StandaloneStack stack = new StandaloneStack(dataDir, model, settings);
             ExecutorService lanes = Executors.newVirtualThreadPerTaskExecutor()) {
            GatewayClient bob = new GatewayClient(stack.stack.gatewayUrl(), TeamsIT.newUserKey(stack, "bob"));
            RaceTargets targets = new RaceTargets(dataDir, base.resolve("outside"), RaceLanes.NAMES);
            String runId = RaceTargets.random().substring(0, 8);
            RaceTally tally = new RaceTally();

            // Every lane's session, its files and its swapping loop, side by side (a Docker sandbox takes seconds).
            Map<String, String> sessions = new LinkedHashMap<>();
            for (String lane : RaceLanes.NAMES) {
                sessions.put(lane, bob.createSession("symlink race " + lane));
            }
            List<ToolLane> toolLanes = RaceLanes.toolLanes(sessions, model);
            Map<String, Future<String>> setups = new LinkedHashMap<>();
            Map<String, String> scripts = new LinkedHashMap<>();
            for (String lane : RaceLanes.NAMES) {
                String script = "race-" + lane + "-" + runId + ".pl";
                scripts.put(lane, script);
                setups.put(lane, lanes.submit(() -> {
                    for (ToolLane t : toolLanes) {
                        if (t.lane.equals(lane)) {
                            t.greet(bob);
                        }
                    }
                    return RaceLanes.prepare(bob, sessions.get(lane), lane, targets.loopScript(lane, PAUSE_MICROS),
                            script, backend);
                }));
            }
            for (Future<String> s : setups.values()) {
                s.get();
            }
            String rewindTo = setups.get("rewind").get();
            Map<String, Map<String, String>> snapshotsBefore = new LinkedHashMap<>();
            targets.outside.forEach((lane, o) -> snapshotsBefore.put(lane, RaceTargets.snapshot(o.dir())));
            Map<String, String> tokenBefore = RaceTargets.snapshot(targets.gatewayToken);

            // The hammering: every lane at once, each until the time is up and its probes ran often enough.
            long start = System.nanoTime();
            // A lane that failed stops the others (or closing the executor would wait for them until the cap).
            AtomicBoolean failed = new AtomicBoolean();
            BooleanSupplier capped = () -> failed.get() || System.nanoTime() - start > CAP.toNanos();
            BooleanSupplier timeUp = () -> System.nanoTime() - start > RUN.toNanos();
            List<Future<Object>> running = new ArrayList<>();
            for (RouteLane lane : RaceLanes.routeLanes(sessions, rewindTo)) {
                running.add(lanes.submit(() -> {
                    lane.hammer(bob, targets, tally, () -> capped.getAsBoolean() || (timeUp.getAsBoolean()
                            && lane.probes.stream().allMatch(p -> tally.attempts(p.name()) >= MIN_ATTEMPTS)));
                    return null;
                }));
            }
            for (ToolLane lane : toolLanes) {
                lane.probes.forEach(p -> tally.expect(ToolLane.probeName(p.tool(), p.argumentsTemplate()
                        .formatted(0))));
                running.add(lanes.submit(() -> {
                    lane.hammer(bob, () -> capped.getAsBoolean()
                            || (timeUp.getAsBoolean() && lane.fewestRuns() >= MIN_ATTEMPTS));
                    return null;
                }));
            }
            try {
                for (Future<Object> r : running) {
                    r.get();
                }
            } finally {
                failed.set(true);
            }
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            List<String> deadLoops = scripts.entrySet().stream().filter(e -> loops(e.getValue()).isEmpty())
                    .map(Map.Entry::getKey).toList();
            // The loops end before anything is read here: this test's own look into the workspaces would race too.
            for (String script : scripts.values()) {
                loops(script).forEach(ProcessHandle::destroyForcibly);
                Poll.until("the swapping loop " + script + " to end", Duration.ofSeconds(30),
                        () -> loops(script).isEmpty());
            }

            lookForSecrets(stack, bob, sessions, toolLanes, targets, tally);
            // ... and what changed outside: each lane's directory, and the token file.
            snapshotsBefore.forEach((lane, before) -> RaceTargets.changes(before,
                    RaceTargets.snapshot(targets.outside.get(lane).dir())).forEach(c ->
                    tally.leak("lane " + lane + " (" + RaceLanes.describe(lane) + ") changed its outside directory "
                            + targets.outside.get(lane).dir(), c)));
            RaceTargets.changes(tokenBefore, RaceTargets.snapshot(targets.gatewayToken)).forEach(c ->
                    tally.leak("a lane changed " + targets.gatewayToken, c));

            String report = "backend " + backend + ", " + took.toSeconds() + " s of hammering:\n"
                    + tally.attemptReport();
            System.out.println(report);
            assertThat(tally.leaked()).as("something outside the workspace was read or written on " + backend
                    + ":\n" + tally.leakReport() + "\n" + report).isFalse();
            assertThat(tally.underExercised(MIN_ATTEMPTS)).as("probes tried fewer than " + MIN_ATTEMPTS
                    + " times (the run proves nothing for them):\n" + report).isEmpty();
            assertThat(deadLoops).as("lanes whose swapping loop died (nothing raced them)").isEmpty();
        }
    }

    /**
     * Everything a secret could have reached: what bob sees of each lane's session (its log, where each tool's
     * answer is its probe's, its state and exports), every Kafka record, and the worker's own files (backups,
     * checkpoints, workspaces). The agent's tool calls are counted from the logs here: the log is what really ran.
     */
    private static void lookForSecrets(StandaloneStack stack, GatewayClient bob, Map<String, String> sessions,
                                       List<ToolLane> toolLanes, RaceTargets targets, RaceTally tally)
            throws IOException {
        Path dataDir = stack.dataDir;
        Map<String, String> laneOfSession = new HashMap<>();
        sessions.forEach((lane, id) -> laneOfSession.put(id, lane));
        for (String lane : RaceLanes.NAMES) {
            String id = sessions.get(lane);
            checkLog(lane, bob.log(id), targets, tally, toolLanes.stream().anyMatch(t -> t.lane.equals(lane)));
            for (String view : List.of("", "/export", "/export.md")) {
                List<String> secrets = targets.secretsIn(bob.get(RouteLane.base(id) + view).body());
                if (!secrets.isEmpty()) {
                    tally.leak("lane " + lane + ": GET …/sessions/{id}" + view, "holds " + secrets);
                }
            }
        }
        for (TopicSpec topic : Topics.ALL) {
            for (String value : TeamsIT.topicBytesOn(stack, topic.name())) {
                List<String> secrets = targets.secretsIn(value);
                if (!secrets.isEmpty()) {
                    tally.leak("Kafka topic " + topic.name() + " (lane " + laneIn(value, laneOfSession) + ")",
                            "a record holds " + secrets + ": " + RouteLane.abbreviate(value));
                }
            }
        }
        for (String stored : targets.secretsStoredUnder(dataDir, List.of(dataDir.resolve("kafka"),
                dataDir.resolve("postgres"), targets.gatewayToken))) {
            tally.leak("the worker's files (lane " + laneIn(stored, laneOfSession) + ")", stored);
        }
    }

    /**
     * Reads a lane's log: the agent's tool calls are counted here (the log is what really ran), and every event is
     * searched for the secrets, a tool's answer under its probe's name.
     */
    private static void checkLog(String lane, List<EventEnvelope> log, RaceTargets targets, RaceTally tally,
                                 boolean countTools) {
        Map<String, ToolCallRequested> requested = new HashMap<>();
        for (EventEnvelope e : log) {
            if (e.event() instanceof ToolCallRequested r) {
                requested.put(r.callId(), r);
            }
        }
        for (EventEnvelope e : log) {
            String json = EventCodec.eventToJson(e);
            List<String> secrets = targets.secretsIn(json);
            if (e.event() instanceof ToolCallCompleted c && requested.containsKey(c.callId())) {
                ToolCallRequested r = requested.get(c.callId());
                String probe = r.byUser() ? "lane " + lane + " log: the person's " + r.name() + " of "
                        + pathOf(r.arguments()).replaceAll("[0-9]+", "N") : ToolLane.probeName(r.name(), r.arguments());
                if (countTools && !r.byUser()) {
                    tally.attempt(probe, c.ok() ? "ok" : c.refusal() != null ? "refused" : "failed");
                }
                if (!secrets.isEmpty()) {
                    tally.leak(probe, "seq " + e.seq() + " answered with " + String.join(" and ", secrets) + ": "
                            + RouteLane.abbreviate(json));
                }
            } else if (!secrets.isEmpty()) {
                tally.leak("lane " + lane + " log: " + EventCodec.typeOf(e.event()), "seq " + e.seq() + " holds "
                        + secrets + ": " + RouteLane.abbreviate(json));
            }
        }
    }

    /** The processes running a lane's loop script (visible from the host), by the script's unique name. */
    private static List<ProcessHandle> loops(String script) {
        return ProcessHandle.allProcesses().filter(p -> p.info().commandLine().orElse("").contains(script)).toList();
    }

    private static String pathOf(String arguments) {
        try {
            return Json.mapper().readTree(arguments).path("path").asText("?");
        } catch (java.io.IOException e) {
            return "?";
        }
    }

    private static String laneIn(String text, Map<String, String> laneOfSession) {
        return laneOfSession.entrySet().stream().filter(s -> text.contains(s.getKey())).map(Map.Entry::getValue)
                .findFirst().orElse("unknown");
    }
}
