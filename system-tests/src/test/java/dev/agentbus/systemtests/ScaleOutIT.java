package dev.agentbus.systemtests;

import dev.agentbus.broker.EmbeddedKafkaBroker;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent.ModelCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.session.SessionEvent.ToolCallStarted;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.SessionEvent.WaitEnded;
import dev.agentbus.events.session.SessionEvent.WaitScheduled;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.topics.Topics;
import dev.agentbus.gateway.GatewayApplication;
import dev.agentbus.memory.MemoryServiceApplication;
import dev.agentbus.orchestrator.OrchestratorApplication;
import dev.agentbus.sandbox.SandboxWorkerApplication;
import dev.agentbus.scheduler.SchedulerApplication;
import dev.agentbus.testkit.Poll;
import dev.agentbus.testkit.model.ScriptedModelServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static dev.agentbus.systemtests.EndToEndIT.events;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scale-out, proven with replicas: two of each of the five services as separate OS processes on one broker whose
 * session topics have six partitions, and sessions running on all of them at once. One test kills a replica of the
 * orchestrator and of the sandbox-worker in the middle of the sessions and does not bring them back, so their
 * partitions must move to the survivors; the other adds a third replica while sessions run. Both then check what
 * the fault suite checks for one session, for every session: it completes, seq has no gap and no duplicate, no tool
 * call started twice, every call was answered once, and no recorded model decision was asked again.
 *
 * <p>The gateways and the schedulers have no consumer group (each reads every partition), so both replicas of them
 * serve every session: requests go to either gateway, and a wait is scheduled by both schedulers and must still
 * end once.
 */
class ScaleOutIT {
    static final String TOKEN = "scale-out-token";
    static final int PARTITIONS = 6;
    static final Duration TURN = Duration.ofSeconds(180);

    @TempDir
    static Path dir;
    static EmbeddedKafkaBroker broker;
    static ScriptedModelServer model;
    static Admin admin;
    static Map<String, String> env;
    /** Every replica by name, e.g. {@code orchestrator-1}. */
    static final Map<String, ServiceProcess> replicas = new LinkedHashMap<>();
    static final List<GatewayClient> gateways = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        broker = EmbeddedKafkaBroker.builder().dataDir(dir.resolve("kafka")).build();
        broker.start();
        model = ScriptedModelServer.start();
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
        env = Map.of(
                "AGENTBUS_KAFKA_BOOTSTRAP_SERVERS", broker.bootstrapServers(),
                "AGENTBUS_KAFKA_PARTITIONS", Integer.toString(PARTITIONS),
                "AGENTBUS_DATA_DIR", dir.toString(),
                "AGENTBUS_TOKEN", TOKEN,
                "LLM_URL", model.baseUrl());
        for (int instance = 0; instance < 2; instance++) {
            startReplica("orchestrator", OrchestratorApplication.class.getName(), instance, Map.of());
            startReplica("sandbox-worker", SandboxWorkerApplication.class.getName(), instance, Map.of());
            startReplica("scheduler", SchedulerApplication.class.getName(), instance, Map.of());
            startReplica("memory-service", MemoryServiceApplication.class.getName(), instance, Map.of());
            int port = freePort();
            startReplica("gateway", GatewayApplication.class.getName(), instance,
                    Map.of("AGENTBUS_GATEWAY_PORT", Integer.toString(port)));
            gateways.add(new GatewayClient("http://127.0.0.1:" + port, TOKEN));
        }
        for (GatewayClient gateway : gateways) {
            Poll.until("a gateway to answer /health", Duration.ofSeconds(120), () -> healthy(gateway));
        }
        awaitMembers(2);
    }

    @BeforeEach
    void freshScript() {
        model.reset();
    }

    /** Puts the stack back as it started: a killed replica restarted, an added one stopped. */
    @AfterEach
    void backToTwoReplicas() throws Exception {
        for (String name : List.copyOf(replicas.keySet())) {
            ServiceProcess replica = replicas.get(name);
            if (name.endsWith("-2")) {
                replica.close();
                replicas.remove(name);
            } else if (!replica.isAlive()) {
                replica.start();
            }
        }
        awaitMembers(2);
    }

    @AfterAll
    static void stop() throws Exception {
        for (ServiceProcess replica : replicas.values()) {
            replica.close();
        }
        replicas.clear();
        gateways.clear();
        if (admin != null) {
            admin.close();
        }
        if (model != null) {
            model.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void killing_one_orchestrator_and_one_worker_mid_session_moves_their_sessions_to_the_survivors() throws Exception {
        Map<Integer, String> sessions = onePerPartition("failover");
        Map<String, String> owners = partitionOwners("agentbus-orchestrator");
        assertThat(sessions.keySet().stream().map(p -> owners.get(Topics.SESSION_INPUTS.name() + "-" + p)).collect(Collectors.toSet()))
                .as("the sessions are spread over both orchestrators").containsExactlyInAnyOrder("0", "1");

        // Each session sets shell state, then runs a command slow enough to be cut short by the worker's death,
        // then reads the shell state back, which must have followed it to the other worker.
        Map<String, String> marks = new HashMap<>();
        sessions.forEach((partition, id) -> {
            String mark = "[p" + partition + "]";
            marks.put(id, mark);
            model.conversation(mark)
                    .replyToolCall("shell", json("mkdir -p sub && cd sub && export MARK=p" + partition))
                    .replyToolCall("shell", json("echo start >> /workspace/runs.txt; sleep 15; echo end >> /workspace/runs.txt"))
                    .replyToolCall("shell", json("pwd; echo mark=$MARK"))
                    .replyText("done " + mark);
        });
        int n = 0;
        for (String id : sessions.values()) {
            gateways.get(n++ % 2).postMessage(id, "run the three steps " + marks.get(id));
        }
        Map<String, String> slowCallWorker = new HashMap<>();
        for (String id : sessions.values()) {
            awaitEvents(id, ToolCallStarted.class, 2);
            slowCallWorker.put(id, events(gateways.getFirst().log(id), ToolCallStarted.class).get(1).worker());
        }
        assertThat(Set.copyOf(slowCallWorker.values())).as("the slow calls run on both workers")
                .containsExactlyInAnyOrder("sandbox-worker-0", "sandbox-worker-1");

        replicas.get("orchestrator-0").kill9();
        replicas.get("sandbox-worker-0").kill9();

        for (String id : sessions.values()) {
            String mark = marks.get(id);
            List<EventEnvelope> log = assertTurnSurvived(id, 1);
            assertThat(model.conversation(mark).requestCount()).as("no recorded decision of %s was asked again", mark)
                    .isEqualTo(4);
            List<ToolCallCompleted> results = events(log, ToolCallCompleted.class);
            List<ToolCallStarted> starts = events(log, ToolCallStarted.class);
            Path runs = workspace(id).resolve("runs.txt");
            if (slowCallWorker.get(id).equals("sandbox-worker-0")) {
                assertThat(results.get(1).interrupted()).as("%s: cut short with its worker, and said so", mark).isTrue();
                assertThat(Files.readAllLines(runs)).as("%s: and never run again", mark).containsExactly("start");
                assertThat(starts.get(2).worker()).as("%s: the next call ran on the survivor", mark)
                        .isEqualTo("sandbox-worker-1");
            } else {
                assertThat(results.get(1).ok()).isTrue();
                assertThat(Files.readAllLines(runs)).containsExactly("start", "end");
            }
            assertThat(results.get(2).output()).as("%s: cwd and exports followed the session", mark)
                    .contains("/workspace/sub").contains("mark=p");
            assertThat(events(log, TurnEnded.class).getFirst().answer()).isEqualTo("done " + mark);
            assertThat(gateways.get(1).log(id)).as("both gateways serve the same log")
                    .extracting(EventEnvelope::seq).containsExactlyElementsOf(log.stream().map(EventEnvelope::seq).toList());
        }
        assertThat(Set.copyOf(partitionOwners("agentbus-orchestrator").values()))
                .as("the survivor took over every partition").containsExactly("1");
    }

    @Test
    void a_third_replica_joining_while_sessions_run_takes_over_partitions_and_nothing_is_lost() throws Exception {
        Map<Integer, String> sessions = onePerPartition("join");
        Map<String, String> marks = new HashMap<>();
        sessions.forEach((partition, id) -> {
            String mark = "[j" + partition + "]";
            marks.put(id, mark);
            // A model call in flight when its partition moves is made again by the new owner (its answer was never
            // recorded, invariant 3): it must get the same answer, whichever owner asks.
            model.conversation(mark).sameAnswerWhenAskedAgain()
                    .replyToolCall("shell", json("echo one >> runs.txt"))
                    .replyToolCall("shell", json("sleep 6; echo two >> runs.txt"))
                    .replyText("first turn " + mark)
                    .replyToolCall("shell", json("echo three >> runs.txt"))
                    .replyText("second turn " + mark);
        });
        // A wait, with two schedulers each keeping a timer for it: the orchestrator must end it once.
        Instant until = Instant.now().plusSeconds(20).truncatedTo(ChronoUnit.SECONDS);
        model.conversation("[wait]").sameAnswerWhenAskedAgain().replyText("WAIT: " + until + ": later")
                .replyText("Woke up.");
        String waiting = gateways.getFirst().createSession("scale-out wait");
        gateways.get(1).postMessage(waiting, "wait a bit [wait]");

        for (String id : sessions.values()) {
            gateways.getFirst().postMessage(id, "run it " + marks.get(id));
        }
        for (String id : sessions.values()) {
            gateways.getFirst().awaitLog(id, e -> e.event() instanceof ToolCallStarted, TURN);
        }

        startReplica("orchestrator", OrchestratorApplication.class.getName(), 2, Map.of());
        startReplica("sandbox-worker", SandboxWorkerApplication.class.getName(), 2, Map.of());
        awaitMembers(3);

        for (String id : sessions.values()) {
            assertTurnSurvived(id, 1);
        }
        // Now a second turn in every session: the sessions on the partitions the newcomer took run their calls there.
        for (String id : sessions.values()) {
            gateways.get(1).postMessage(id, "once more");
        }
        Set<String> workers = new java.util.HashSet<>();
        for (String id : sessions.values()) {
            String mark = marks.get(id);
            List<EventEnvelope> log = assertTurnSurvived(id, 2);
            List<ToolCallCompleted> results = events(log, ToolCallCompleted.class);
            assertThat(results).as("%s: a rebalance between live workers interrupts nothing", mark)
                    .hasSize(3).allSatisfy(r -> assertThat(r.ok()).isTrue());
            assertThat(Files.readAllLines(workspace(id).resolve("runs.txt"))).as("%s: each command ran once", mark)
                    .containsExactly("one", "two", "three");
            assertThat(events(log, ModelCallCompleted.class)).as("%s: every answer recorded once", mark).hasSize(5);
            workers.add(events(log, ToolCallStarted.class).getLast().worker());
        }
        assertThat(workers).as("the new worker runs the calls of its partitions").contains("sandbox-worker-2");

        List<EventEnvelope> waited = gateways.getFirst().awaitLog(waiting, e -> e.event() instanceof TurnEnded, TURN);
        assertThat(events(waited, WaitScheduled.class)).hasSize(1);
        assertThat(events(waited, WaitEnded.class)).as("two schedulers, one wake-up").hasSize(1);
        assertThat(events(waited, TurnEnded.class).getFirst().answer()).isEqualTo("Woke up.");
        assertThat(events(waited, ModelCallCompleted.class)).as("each answer recorded once").hasSize(2);
    }

    // ---------------------------------------------------------------- checks

    /** The fault suite's promises for one session after {@code turns} turns. Returns the session's log. */
    private static List<EventEnvelope> assertTurnSurvived(String id, int turns) throws InterruptedException {
        awaitEvents(id, TurnEnded.class, turns);
        List<EventEnvelope> log = gateways.getFirst().log(id);
        assertThat(events(log, TurnEnded.class)).as("every turn completes").hasSize(turns)
                .allSatisfy(t -> assertThat(t.outcome()).isEqualTo(TurnOutcome.COMPLETED));
        assertThat(log).as("seq has no gap and no duplicate").extracting(EventEnvelope::seq)
                .containsExactlyElementsOf(LongStream.rangeClosed(1, log.size()).boxed().toList());
        assertThat(events(log, ToolCallStarted.class).stream().map(ToolCallStarted::callId).toList())
                .as("no tool call started twice").doesNotHaveDuplicates();
        assertThat(events(log, ToolCallCompleted.class).stream().map(ToolCallCompleted::callId).toList())
                .as("every call answered exactly once").doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(events(log, ToolCallRequested.class).stream()
                        .map(ToolCallRequested::callId).toList());
        return log;
    }

    /** Waits until the session's log holds {@code count} events of a type, read through the first gateway. */
    private static void awaitEvents(String id, Class<? extends dev.agentbus.events.session.SessionEvent> type,
                                    int count) throws InterruptedException {
        Poll.until(id + " to have " + count + " " + type.getSimpleName(), TURN, () -> {
            try {
                return events(gateways.getFirst().log(id), type).size() >= count;
            } catch (AssertionError notYet) {
                return false;
            }
        });
    }

    // ---------------------------------------------------------------- partitions

    /**
     * Creates sessions until every partition has one, and keeps one per partition: session ids are random, and a
     * test whose sessions all hashed to one replica's partitions would prove nothing about the other.
     */
    private static Map<Integer, String> onePerPartition(String title) {
        Map<Integer, String> byPartition = new TreeMap<>();
        for (int attempt = 0; attempt < 500 && byPartition.size() < PARTITIONS; attempt++) {
            String id = gateways.getFirst().createSession(title);
            byPartition.putIfAbsent(partitionOf(id), id);
        }
        assertThat(byPartition).as("a session on every partition").hasSize(PARTITIONS);
        return byPartition;
    }

    /** Kafka's default partitioner, which the services use: every session record is keyed by its session id. */
    private static int partitionOf(String sessionId) {
        return Utils.toPositive(Utils.murmur2(sessionId.getBytes(StandardCharsets.UTF_8))) % PARTITIONS;
    }

    /** For each partition of a consumer group's topics, the instance id of the replica that has it now. */
    private static Map<String, String> partitionOwners(String group) throws Exception {
        ConsumerGroupDescription description = admin.describeConsumerGroups(List.of(group))
                .all().get().get(group);
        Map<String, String> owners = new HashMap<>();
        for (MemberDescription member : description.members()) {
            String instance = member.groupInstanceId().orElse(member.clientId());
            String instanceId = instance.substring(instance.lastIndexOf('-') + 1);
            for (TopicPartition tp : member.assignment().topicPartitions()) {
                owners.put(tp.toString(), instanceId);
            }
        }
        return owners;
    }

    /** Waits until the orchestrators' and the workers' groups each have {@code count} members sharing all partitions. */
    private static void awaitMembers(int count) throws InterruptedException {
        for (String group : List.of("agentbus-orchestrator", "agentbus-sandbox-worker")) {
            Poll.until(group + " to have " + count + " members, each with partitions", Duration.ofSeconds(120), () -> {
                try {
                    ConsumerGroupDescription d = admin.describeConsumerGroups(List.of(group)).all().get().get(group);
                    return d.members().size() == count
                            && d.members().stream().allMatch(m -> !m.assignment().topicPartitions().isEmpty())
                            && d.groupState() == GroupState.STABLE;
                } catch (Exception notYet) {
                    return false;
                }
            });
        }
    }

    // ---------------------------------------------------------------- plumbing

    private static void startReplica(String role, String mainClass, int instance, Map<String, String> extra)
            throws Exception {
        Map<String, String> replicaEnv = new HashMap<>(env);
        replicaEnv.put("AGENTBUS_INSTANCE_ID", Integer.toString(instance));
        replicaEnv.putAll(extra);
        ServiceProcess process = new ServiceProcess(role + "-" + instance, mainClass, replicaEnv,
                Path.of("target", "service-logs", "scale-out"));
        replicas.put(role + "-" + instance, process.start());
    }

    private static boolean healthy(GatewayClient gateway) {
        try {
            return gateway.get("/health").status() == 200;
        } catch (AssertionError notListeningYet) {
            return false;
        }
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static Path workspace(String sessionId) {
        return dir.resolve("workspaces").resolve("local").resolve(sessionId);
    }

    private static String json(String command) {
        return "{\"command\":\"" + command.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}";
    }
}
