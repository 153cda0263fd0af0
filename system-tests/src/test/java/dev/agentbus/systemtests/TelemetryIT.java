package dev.agentbus.systemtests;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentbus.broker.EmbeddedKafkaBroker;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.gateway.GatewayApplication;
import dev.agentbus.memory.MemoryServiceApplication;
import dev.agentbus.orchestrator.OrchestratorApplication;
import dev.agentbus.sandbox.SandboxWorkerApplication;
import dev.agentbus.scheduler.SchedulerApplication;
import dev.agentbus.testkit.Poll;
import dev.agentbus.testkit.model.ScriptedModelServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Telemetry of the five services as separate processes: one user turn (a tool call in the sandbox, a wait the
 * scheduler ends, distillation in the memory-service) is one trace holding spans of all five, each linked to its
 * parent, read from the OTLP JSON lines the services write ({@code agentbus.telemetry.otlp-file}, the Collector's
 * file-exporter format); the metrics each serves at {@code /metrics}; and the JSON log lines carry the session and
 * trace ids.
 */
class TelemetryIT {
    static final String TOKEN = "telemetry-token";
    static final Duration WAIT = Duration.ofSeconds(90);
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;
    static EmbeddedKafkaBroker broker;
    static ScriptedModelServer model;
    static final List<ServiceProcess> services = new ArrayList<>();
    static final Map<String, Integer> managementPorts = new HashMap<>();
    static GatewayClient gateway;
    static Path spansFile;
    static Path logs = Path.of("target", "service-logs", "telemetry");

    @BeforeAll
    static void start() throws Exception {
        broker = EmbeddedKafkaBroker.builder().dataDir(dir.resolve("kafka")).build();
        broker.start();
        model = ScriptedModelServer.start();
        int port = freePort();
        spansFile = dir.resolve("otlp").resolve("spans.jsonl");
        Map<String, String> env = Map.of(
                "AGENTBUS_KAFKA_BOOTSTRAP_SERVERS", broker.bootstrapServers(),
                "AGENTBUS_KAFKA_PARTITIONS", "2",
                "AGENTBUS_DATA_DIR", dir.toString(),
                "AGENTBUS_TOKEN", TOKEN,
                "AGENTBUS_GATEWAY_PORT", Integer.toString(port),
                "LLM_URL", model.baseUrl(),
                "AGENTBUS_MEMORY_DISTILL_ENABLED", "true",
                "AGENTBUS_TELEMETRY_OTLP_FILE", spansFile.toString(),
                "AGENTBUS_LOG_FORMAT", "json",
                // The services' own logging set-up, not this module's logback-test.xml (which the class path holds).
                "JAVA_TOOL_OPTIONS", "-Dlogback.configurationFile=logback.xml");
        Map<String, String> mains = Map.of(
                "orchestrator", OrchestratorApplication.class.getName(),
                "sandbox-worker", SandboxWorkerApplication.class.getName(),
                "scheduler", SchedulerApplication.class.getName(),
                "memory-service", MemoryServiceApplication.class.getName(),
                "gateway", GatewayApplication.class.getName());
        for (var service : mains.entrySet()) {
            Map<String, String> own = new HashMap<>(env);
            if (!service.getKey().equals("gateway")) {
                int management = freePort();
                managementPorts.put(service.getKey(), management);
                own.put("AGENTBUS_MANAGEMENT_PORT", Integer.toString(management));
            }
            services.add(new ServiceProcess(service.getKey(), service.getValue(), own, logs).start());
        }
        gateway = new GatewayClient("http://127.0.0.1:" + port, TOKEN);
        Poll.until("the gateway and the management ports answer /health", Duration.ofSeconds(180), () -> healthy(gateway, port));
    }

    @AfterAll
    static void stop() throws Exception {
        for (ServiceProcess p : services) {
            p.close();
        }
        if (model != null) {
            model.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void one_turn_is_one_trace_across_the_five_services_and_each_service_serves_its_metrics() throws Exception {
        model.replyToolCall("shell", "{\"command\":\"echo traced > note.txt\"}")
                .replyToolCall("wait", "{\"seconds\":1}")
                .replyText("Wrote note.txt and waited.")
                .replyText("{\"insights\":[]}"); // the memory-service's distillation of the turn
        String id = gateway.createSession("traced");
        gateway.postMessage(id, "write note.txt with a command, then wait a second");
        List<EventEnvelope> log = gateway.awaitLog(id, e -> e.event() instanceof TurnEnded, WAIT);
        assertThat(log).anySatisfy(e -> assertThat(e.event()).isInstanceOf(TurnEnded.class));

        // The spans of the turn: the trace the gateway's span for this session's message started.
        // The last span of the turn is the memory-service's record of the distillation; spans leave in batches.
        // Each service exports on its own schedule, so a child can be in the file before its parent: wait until
        // every parent named is there too (the assertions below then say which link is missing, if one is).
        Poll.until("spans of all five services in the turn's trace, up to its distillation, with their parents",
                WAIT, () -> {
                    List<Span> spans = turnTrace(id);
                    java.util.Set<String> ids = spans.stream().map(Span::spanId).collect(Collectors.toSet());
                    return servicesOf(spans).size() == 5
                            && spans.stream().anyMatch(s -> s.name().equals("memory-service RecordDistillation"))
                            && spans.stream().allMatch(s -> s.parentSpanId().isEmpty()
                            || ids.contains(s.parentSpanId()));
                });
        List<Span> trace = turnTrace(id);
        assertThat(servicesOf(trace)).containsExactlyInAnyOrder("gateway", "orchestrator", "sandbox-worker",
                "scheduler", "memory-service");
        Map<String, Span> byId = trace.stream().collect(Collectors.toMap(Span::spanId, s -> s));
        List<Span> roots = trace.stream().filter(s -> s.parentSpanId().isEmpty()).toList();
        assertThat(roots).singleElement().satisfies(root -> {
            assertThat(root.service()).isEqualTo("gateway");
            assertThat(root.name()).isEqualTo("gateway send PostUserMessage");
        });
        // Every other span's parent is a span of the same trace: no link dangles.
        assertThat(trace).filteredOn(s -> !s.parentSpanId().isEmpty())
                .allSatisfy(s -> assertThat(byId).as("parent of " + s).containsKey(s.parentSpanId()));
        // Who is whose child, across the services.
        assertThat(trace).filteredOn(s -> s.name().equals("orchestrator step PostUserMessage"))
                .singleElement().satisfies(s -> assertThat(byId.get(s.parentSpanId()).service()).isEqualTo("gateway"));
        assertThat(trace).filteredOn(s -> s.name().equals("orchestrator model call")).hasSize(3)
                .allSatisfy(s -> assertThat(byId.get(s.parentSpanId()).name()).startsWith("orchestrator step"));
        assertThat(trace).filteredOn(s -> s.name().equals("sandbox-worker tool shell")).singleElement()
                .satisfies(s -> assertThat(byId.get(s.parentSpanId()).name()).startsWith("orchestrator step"));
        assertThat(trace).filteredOn(s -> s.service().equals("scheduler")).singleElement().satisfies(s -> {
            assertThat(s.name()).isEqualTo("scheduler WakeUp");
            assertThat(byId.get(s.parentSpanId()).service()).isEqualTo("orchestrator");
        });
        assertThat(trace).filteredOn(s -> s.name().equals("orchestrator step WakeUp")).singleElement()
                .satisfies(s -> assertThat(byId.get(s.parentSpanId()).service()).isEqualTo("scheduler"));
        assertThat(trace).filteredOn(s -> s.name().equals("memory-service distil turn")).singleElement()
                .satisfies(s -> assertThat(byId.get(s.parentSpanId()).name()).startsWith("orchestrator step"));
        assertThat(trace).filteredOn(s -> s.name().equals("memory-service RecordDistillation")).singleElement()
                .satisfies(s -> assertThat(byId.get(s.parentSpanId()).name()).isEqualTo("memory-service distil turn"));
        // A span lasts: the tool span covers the tool's run, the model call its answer.
        assertThat(trace).allSatisfy(s -> assertThat(s.endNanos()).isGreaterThanOrEqualTo(s.startNanos()));

        // Metrics, with the values of this turn.
        Map<String, Double> orchestrator = metrics(managementPorts.get("orchestrator"));
        assertThat(sum(orchestrator, "agentbus_step_duration_seconds_count")).isGreaterThanOrEqualTo(5);
        assertThat(sum(orchestrator, "agentbus_model_call_duration_seconds_count{outcome=\"ok\"")).isEqualTo(3);
        assertThat(sum(orchestrator, "agentbus_model_tokens_total{kind=\"prompt\"")).isPositive();
        assertThat(orchestrator.keySet()).anySatisfy(k -> assertThat(k)
                .startsWith("agentbus_kafka_consumer_lag{").contains("topic=\"agentbus.session-inputs\""));
        assertThat(orchestrator.entrySet()).filteredOn(e -> e.getKey().startsWith("agentbus_kafka_consumer_lag{"))
                .allSatisfy(e -> assertThat(e.getValue()).isGreaterThanOrEqualTo(0));
        Map<String, Double> worker = metrics(managementPorts.get("sandbox-worker"));
        assertThat(sum(worker, "agentbus_tool_duration_seconds_count{outcome=\"ok\",")).isEqualTo(1);
        assertThat(worker.keySet()).anySatisfy(k -> assertThat(k).startsWith("agentbus_tool_duration_seconds_count")
                .contains("tool=\"shell\""));
        assertThat(sum(worker, "agentbus_sandbox_pool_total")).isEqualTo(1); // one sandbox, hit or miss
        assertThat(sum(worker, "agentbus_tool_duration_seconds_sum")).isPositive();
        Map<String, Double> scheduler = metrics(managementPorts.get("scheduler"));
        assertThat(sum(scheduler, "agentbus_approvals_pending")).isZero();
        assertThat(scheduler).containsKey("agentbus_approvals_pending{service=\"scheduler\"}");
        Map<String, Double> memory = metrics(managementPorts.get("memory-service"));
        assertThat(memory.keySet()).anySatisfy(k -> assertThat(k).startsWith("jvm_memory_used_bytes{"));
        GatewayClient.Response gatewayMetrics = gateway.get("/metrics");
        assertThat(gatewayMetrics.status()).isEqualTo(200);
        assertThat(gatewayMetrics.body()).contains("service=\"gateway\"");

        // JSON logs: the worker's line about the tool call carries the session and the turn's trace.
        String traceId = trace.getFirst().traceId();
        List<JsonNode> lines = jsonLines(logs.resolve("sandbox-worker-1.log"));
        assertThat(lines).anySatisfy(l -> {
            assertThat(l.path("formattedMessage").asText()).contains("shell ok");
            assertThat(l.path("mdc").path("session_id").asText()).isEqualTo(id);
            assertThat(l.path("mdc").path("trace_id").asText()).isEqualTo(traceId);
        });
    }

    /** One span from the OTLP JSON file. */
    record Span(String service, String traceId, String spanId, String parentSpanId, String name, long startNanos,
                long endNanos, Map<String, String> attributes) {
    }

    private static List<Span> turnTrace(String sessionId) {
        List<Span> all = spans();
        String traceId = all.stream().filter(s -> s.name().equals("gateway send PostUserMessage")
                        && sessionId.equals(s.attributes().get("agentbus.session_id")))
                .map(Span::traceId).findFirst().orElse(null);
        return traceId == null ? List.of() : all.stream().filter(s -> s.traceId().equals(traceId)).toList();
    }

    private static Set<String> servicesOf(List<Span> spans) {
        return spans.stream().map(Span::service).collect(Collectors.toSet());
    }

    private static List<Span> spans() {
        List<Span> spans = new ArrayList<>();
        if (!Files.exists(spansFile)) {
            return spans;
        }
        try {
            for (String line : Files.readAllLines(spansFile)) {
                if (line.isBlank()) {
                    continue;
                }
                for (JsonNode rs : JSON.readTree(line).path("resourceSpans")) {
                    String service = "";
                    for (JsonNode a : rs.path("resource").path("attributes")) {
                        if (a.path("key").asText().equals("service.name")) {
                            service = a.path("value").path("stringValue").asText();
                        }
                    }
                    for (JsonNode ss : rs.path("scopeSpans")) {
                        for (JsonNode s : ss.path("spans")) {
                            Map<String, String> attributes = new HashMap<>();
                            s.path("attributes").forEach(a -> attributes.put(a.path("key").asText(),
                                    a.path("value").path("stringValue").asText()));
                            spans.add(new Span(service, s.path("traceId").asText(), s.path("spanId").asText(),
                                    s.path("parentSpanId").asText(""), s.path("name").asText(),
                                    Long.parseLong(s.path("startTimeUnixNano").asText()),
                                    Long.parseLong(s.path("endTimeUnixNano").asText()), attributes));
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new AssertionError("unreadable span file " + spansFile, e);
        }
        return spans;
    }

    private static final Pattern SAMPLE = Pattern.compile("^(\\S+(?:\\{.*})?)\\s+(\\S+)$");

    /** The samples of a /metrics page: series (name and labels) to value. */
    private static Map<String, Double> metrics(int port) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        Map<String, Double> samples = new HashMap<>();
        for (String line : r.body().split("\n")) {
            Matcher m = SAMPLE.matcher(line);
            if (!line.startsWith("#") && m.matches()) {
                samples.put(m.group(1), Double.parseDouble(m.group(2)));
            }
        }
        return samples;
    }

    private static double sum(Map<String, Double> samples, String prefix) {
        return samples.entrySet().stream().filter(e -> e.getKey().startsWith(prefix))
                .mapToDouble(Map.Entry::getValue).sum();
    }

    private static List<JsonNode> jsonLines(Path file) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            if (line.startsWith("{")) {
                out.add(JSON.readTree(line));
            }
        }
        return out;
    }

    private static boolean healthy(GatewayClient gateway, int port) {
        try {
            if (gateway.get("/health").status() != 200) {
                return false;
            }
            for (int management : managementPorts.values()) {
                HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + management + "/health")).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() != 200) {
                    return false;
                }
            }
            return true;
        } catch (AssertionError | IOException notYet) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
