package dev.agentbus.events.topics;

import dev.agentbus.events.images.SessionImage;
import dev.agentbus.events.inbox.InboxTask;
import dev.agentbus.events.input.InputEnvelope;
import dev.agentbus.events.ledger.ToolLedgerEntry;
import dev.agentbus.events.mcp.UserMcpServers;
import dev.agentbus.events.memory.MemoryCommand;
import dev.agentbus.events.memory.MemoryDocument;
import dev.agentbus.events.models.UserModelSettings;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.state.SessionSnapshot;
import dev.agentbus.events.stream.StreamChunk;

import java.time.Duration;
import java.util.List;

/**
 * The one registry of topics. Services name topics only through these constants, so a topic's key, value type
 * and retention are stated once. Session topics are co-partitioned (same partition count, keyed by session id):
 * the orchestrator that owns input partition p also owns event partition p.
 */
public final class Topics {
    public static final TopicSpec SESSION_INPUTS = new TopicSpec("agentbus.session-inputs", "session id",
            InputEnvelope.class, false, null, "requests to sessions from every service; read by the orchestrator");
    public static final TopicSpec SESSION_EVENTS = new TopicSpec("agentbus.session-events", "session id",
            EventEnvelope.class, false, null, "the durable session log; written only by the orchestrator");
    public static final TopicSpec SESSION_STREAM = new TopicSpec("agentbus.session-stream", "session id",
            StreamChunk.class, false, Duration.ofHours(1), "live token and output deltas, not part of state");
    public static final TopicSpec MEMORY_COMMANDS = new TopicSpec("agentbus.memory-commands", "user id",
            MemoryCommand.class, false, Duration.ofDays(7), "memory changes requested through the gateway");
    public static final TopicSpec USER_MEMORY = new TopicSpec("agentbus.user-memory", "user id",
            MemoryDocument.class, true, null, "each user's memory document; written only by the memory-service");
    public static final TopicSpec INSIGHT_COMMANDS = new TopicSpec("agentbus.insight-commands", "user id", byte[].class, false, Duration.ofDays(7), "JSON insight commands (api module's InsightCommand) from the gateway and the distiller; read by the memory-service");
    public static final TopicSpec USER_INSIGHTS = new TopicSpec("agentbus.user-insights", "user id", byte[].class, true, null, "each user's whole insight set as JSON (api module's InsightSet); written only by the memory-service");
    public static final TopicSpec USER_MODELS = new TopicSpec("agentbus.user-models", "user id",
            UserModelSettings.class, true, null, "each user's own model server, its key sealed; written only by the gateway");
    public static final TopicSpec USER_MCP_SERVERS = new TopicSpec("agentbus.user-mcp-servers", "user id",
            UserMcpServers.class, true, null,
            "each user's own MCP servers, env and header values sealed; written only by the gateway");
    public static final TopicSpec TOOL_LEDGER = new TopicSpec("agentbus.tool-ledger", "session id/tool call id",
            ToolLedgerEntry.class, true, null, "the sandbox-worker's started/finished notes for at-most-once calls");
    /**
     * Co-partitioned with the session topics: the snapshot of a session in event partition p is in partition p, so
     * the orchestrator taking over p reads only partition p here. A cache: it may be lost without losing anything.
     */
    public static final TopicSpec SESSION_SNAPSHOTS = new TopicSpec("agentbus.session-snapshots", "session id",
            SessionSnapshot.class, true, null,
            "each session's folded state every N events, so recovery folds only the tail; written by the orchestrator");
    /** Small and kept whole: the scheduler and the gateway read it from the start at every start. */
    public static final TopicSpec INBOX = new TopicSpec("agentbus.inbox", "inbox task id", InboxTask.class, true,
            null, "tasks queued to start in a new session, now or at a time; written only by the gateway");
    /**
     * The bytes of the images attached to messages, so they never enter the log: written only by the sandbox-worker,
     * read by the orchestrator's model calls. Compacted: one record per image, kept as long as its session is.
     */
    public static final TopicSpec SESSION_IMAGES = new TopicSpec("agentbus.session-images",
            "session id/message seq/image index", SessionImage.class, true, null,
            "images attached to messages, read from the workspace by the sandbox-worker for the orchestrator's model calls");
    public static final TopicSpec DEAD_LETTER = new TopicSpec("agentbus.dead-letter", "original key",
            byte[].class, false, Duration.ofDays(30), "records no service could parse, with the reason in headers");

    public static final List<TopicSpec> ALL = List.of(SESSION_INPUTS, SESSION_EVENTS, SESSION_STREAM,
            MEMORY_COMMANDS, USER_MEMORY, USER_MODELS, TOOL_LEDGER, SESSION_SNAPSHOTS, DEAD_LETTER,
            INSIGHT_COMMANDS, USER_INSIGHTS, INBOX, SESSION_IMAGES, USER_MCP_SERVERS);

    /** Topics that must share one partition count because one owner handles both sides of a session. */
    public static final List<TopicSpec> SESSION_PARTITIONED = List.of(SESSION_INPUTS, SESSION_EVENTS, SESSION_STREAM,
            SESSION_SNAPSHOTS);

    private Topics() {
    }
}
