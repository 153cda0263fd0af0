package dev.agentbus.sandbox.runningtools;

import dev.agentbus.eventbus.CompactedTopicView;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.ServiceLoop;
import dev.agentbus.eventbus.Transactions;
import dev.agentbus.eventbus.TraceHeaders;
import dev.agentbus.events.Json;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.codec.MalformedRecordException;
import dev.agentbus.events.input.InputEnvelope;
import dev.agentbus.events.input.SessionInput;
import dev.agentbus.events.ledger.ToolLedgerEntry;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.stream.StreamChunk;
import dev.agentbus.events.topics.Topics;
import dev.agentbus.sandbox.tools.ToolExecutor;
import dev.agentbus.sandbox.tools.ToolOutcome;
import io.opentelemetry.api.trace.SpanContext;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Runs each requested tool call at most once, and reports its result exactly once (invariant 4).
 *
 * <p>Per call, two Kafka transactions:
 * <ol>
 *   <li>the ledger entry STARTED and {@code mark_tool_call_started.v1}, committing the consumed offsets only up to
 *       (not including) the request, so a crash while the call runs makes us read the request again;</li>
 *   <li>after running it: {@code record_tool_result.v1}, the ledger entry FINISHED, and the offset past the
 *       request.</li>
 * </ol>
 * A request read again whose ledger entry is STARTED ran (or began to run) before a crash: it is reported
 * "interrupted, not re-run" instead of being run twice. One whose entry is FINISHED is skipped.
 */
public final class ToolRunner implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ToolRunner.class);
    private static final String GROUP = "agentbus-sandbox-worker";

    private final KafkaSettings kafka;
    private final ToolExecutor executor;
    private final Workspaces workspaces;
    private final Clock clock;
    private final String workerId;
    private final Map<String, ToolLedgerEntry.State> ledger = new HashMap<>();
    private final ServiceLoop loop;
    private final KafkaProducer<String, byte[]> liveOutput;

    public ToolRunner(KafkaSettings kafka, ToolExecutor executor, Workspaces workspaces, Clock clock) {
        this.kafka = kafka;
        this.executor = executor;
        this.workspaces = workspaces;
        this.clock = clock;
        this.workerId = "sandbox-worker-" + kafka.instanceId();
        // Live output is ephemeral and must show while the command runs, so it is not part of any transaction.
        this.liveOutput = new KafkaProducer<>(kafka.producer("sandbox-output"));
        this.loop = new ServiceLoop("sandbox-runner", this::run);
    }

    public void start() {
        loop.start();
    }

    private void run(ServiceLoop loop) {
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(kafka.transactionalProducer("sandbox-worker"));
             KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(kafka.consumer(GROUP, "sandbox-worker"))) {
            producer.initTransactions();
            loadLedger();
            loop.wakeOnClose(c);
            c.subscribe(List.of(Topics.SESSION_EVENTS.name()));
            while (loop.running()) {
                ConsumerRecords<String, byte[]> records = c.poll(Duration.ofMillis(250));
                Map<TopicPartition, OffsetAndMetadata> pending = new HashMap<>();
                for (ConsumerRecord<String, byte[]> r : records) {
                    TopicPartition tp = new TopicPartition(r.topic(), r.partition());
                    EventEnvelope envelope = decode(r);
                    if (envelope != null && envelope.event() instanceof ToolCallRequested call
                            && ToolExecutor.TOOL_NAMES.contains(call.name())) {
                        handle(producer, c, r, envelope, call, pending);
                        pending.clear();
                    } else {
                        pending.put(tp, new OffsetAndMetadata(r.offset() + 1));
                    }
                }
                if (!pending.isEmpty()) {
                    transaction(producer, c, pending, List.of());
                }
            }
        }
    }

    /** The event in this record, or null if it cannot be read (another service's concern; skipped here). */
    private static EventEnvelope decode(ConsumerRecord<String, byte[]> r) {
        try {
            return EventCodec.decodeEvent(r.value());
        } catch (MalformedRecordException e) {
            LOG.warn("unreadable event at {}-{}@{} skipped: {}", r.topic(), r.partition(), r.offset(), e.getMessage());
            return null;
        }
    }

    private void handle(KafkaProducer<String, byte[]> producer, KafkaConsumer<String, byte[]> c,
                        ConsumerRecord<String, byte[]> r, EventEnvelope envelope, ToolCallRequested call,
                        Map<TopicPartition, OffsetAndMetadata> before) {
        TopicPartition tp = new TopicPartition(r.topic(), r.partition());
        Map<TopicPartition, OffsetAndMetadata> past = new HashMap<>(before);
        past.put(tp, new OffsetAndMetadata(r.offset() + 1));
        SpanContext trace = TraceHeaders.continueFrom(r.headers());
        ToolLedgerEntry.State noted = ledger.get(call.callId());
        if (noted == ToolLedgerEntry.State.FINISHED) {
            transaction(producer, c, past, List.of());
            return;
        }
        if (noted == ToolLedgerEntry.State.STARTED) {
            LOG.warn("tool call {} was started before a crash; reporting it interrupted, not running it again",
                    call.callId());
            var result = new SessionInput.RecordToolResult(call.callId(), false, null,
                    "interrupted: the sandbox-worker stopped while this call was running; it was not run again, "
                            + "so check the workspace before retrying", null, false, 0, true);
            transaction(producer, c, past, List.of(input(envelope, result, trace), ledgerEntry(envelope, call,
                    ToolLedgerEntry.State.FINISHED)));
            ledger.put(call.callId(), ToolLedgerEntry.State.FINISHED);
            return;
        }
        // 1. Durably note that we start, without moving past the request.
        Map<TopicPartition, OffsetAndMetadata> upTo = new HashMap<>(before);
        upTo.put(tp, new OffsetAndMetadata(r.offset()));
        transaction(producer, c, upTo, List.of(ledgerEntry(envelope, call, ToolLedgerEntry.State.STARTED),
                input(envelope, new SessionInput.MarkToolCallStarted(call.callId(), workerId), trace)));
        ledger.put(call.callId(), ToolLedgerEntry.State.STARTED);
        // 2. Run it.
        long started = System.nanoTime();
        ToolOutcome outcome = run(envelope, call, trace);
        long ms = (System.nanoTime() - started) / 1_000_000;
        // 3. Report once, note FINISHED, move past the request: all or nothing.
        var result = new SessionInput.RecordToolResult(call.callId(), outcome.ok(), outcome.output(), outcome.error(),
                outcome.diff(), outcome.truncated(), ms, false);
        transaction(producer, c, past, List.of(input(envelope, result, trace),
                ledgerEntry(envelope, call, ToolLedgerEntry.State.FINISHED)));
        ledger.put(call.callId(), ToolLedgerEntry.State.FINISHED);
        LOG.info("session {}: {} {} in {} ms", envelope.sessionId(), call.name(), outcome.ok() ? "ok" : "failed", ms);
    }

    private ToolOutcome run(EventEnvelope envelope, ToolCallRequested call, SpanContext trace) {
        try {
            var workspace = workspaces.forSession(envelope.userId(), envelope.sessionId());
            var args = Json.mapper().readTree(call.arguments());
            return executor.execute(call.name(), args, workspace, chunk -> {
                var out = new ProducerRecord<>(Topics.SESSION_STREAM.name(), envelope.sessionId(),
                        EventCodec.encodeValue(new StreamChunk(envelope.sessionId(), StreamChunk.Kind.OUTPUT,
                                call.callId(), chunk, clock.instant())));
                TraceHeaders.inject(trace, out.headers());
                liveOutput.send(out);
            });
        } catch (IOException e) {
            return new ToolOutcome(false, "", "cannot prepare the workspace: " + e.getMessage(), null, false);
        } catch (RuntimeException e) {
            LOG.error("tool {} failed unexpectedly", call.name(), e);
            return new ToolOutcome(false, "", "the tool failed unexpectedly: " + e, null, false);
        }
    }

    private static void transaction(KafkaProducer<String, byte[]> producer, KafkaConsumer<String, byte[]> c,
                                    Map<TopicPartition, OffsetAndMetadata> offsets,
                                    List<ProducerRecord<String, byte[]>> records) {
        Transactions.commit(producer, c, consumed -> {
            records.forEach(producer::send);
            consumed.putAll(offsets);
        });
    }

    private ProducerRecord<String, byte[]> input(EventEnvelope cause, SessionInput input, SpanContext trace) {
        InputEnvelope envelope = new InputEnvelope(UUID.randomUUID().toString(), cause.sessionId(), clock.instant(),
                cause.id(), cause.userId(), input);
        var record = new ProducerRecord<>(Topics.SESSION_INPUTS.name(), cause.sessionId(),
                EventCodec.encodeInput(envelope));
        TraceHeaders.inject(trace, record.headers());
        return record;
    }

    private ProducerRecord<String, byte[]> ledgerEntry(EventEnvelope cause, ToolCallRequested call,
                                                       ToolLedgerEntry.State state) {
        return new ProducerRecord<>(Topics.TOOL_LEDGER.name(), call.callId(), EventCodec.encodeValue(
                new ToolLedgerEntry(call.callId(), cause.sessionId(), state, workerId, clock.instant())));
    }

    private void loadLedger() {
        ledger.clear();
        CompactedTopicView.readToEnd(kafka, Topics.TOOL_LEDGER.name(), "sandbox-ledger",
                bytes -> EventCodec.decodeValue(bytes, ToolLedgerEntry.class))
                .forEach((callId, entry) -> ledger.put(callId, entry.state()));
    }

    @Override
    public void close() {
        loop.close();
        liveOutput.close(Duration.ofSeconds(2));
    }
}
