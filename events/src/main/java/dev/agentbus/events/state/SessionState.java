package dev.agentbus.events.state;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.agentbus.events.planning.Planning;
import dev.agentbus.events.session.PermissionMode;
import dev.agentbus.events.session.ShellState;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.tools.Risk;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Everything known about a session, and nothing that is not in its log: this value is always the result of
 * {@link SessionFold#evolve} over the session's events. Caches and snapshots of it may be thrown away.
 *
 * @param toolCalls  every tool call of the session by id, in the order they were proposed
 * @param usage      token totals over all model calls
 * @param turn       the running turn, or null when idle
 * @param pendingWait the wait the session is suspended on, or null
 * @param memory     the memory document attached to the session's system prompt
 * @param lastOutcome how the last turn ended, null before the first turn ended
 * @param shell      the persistent shell's state after the last command, null before the first one
 * @param checkpoint the id of the latest workspace checkpoint, null while no call has changed files
 * @param forkedFrom the session this one was forked from, null for a session created afresh
 * @param forkedAtSeq the seq of {@code forkedFrom} the fork was taken at, 0 when not a fork
 * @param permissionMode which of the model's calls wait for a person's approval; AUTO for a log that never set one
 * @param pendingApprovals the calls of the running turn waiting for a person's decision, in the order asked
 * @param alwaysAllowed tools a person allowed for the rest of the session ("always"): they skip approval
 * @param queuedWhispers people's notes to the running turn, in the order sent, waiting for its next model call
 * @param context    the prompt's parts besides the conversation: the session's system prompt, context files, the
 *                   context gauge and the summary of compacted messages ({@link ContextState})
 * @param planning   plan-first mode, the todos, the plan and the batch job's checkpoint; left out of the JSON while it
 *                   is {@link Planning#NONE}, so the state of a session that never planned reads as it did before
 * @param models     the session's own model and sampling, and what the latest model call asked for; left out of the
 *                   JSON while it is {@link ModelState#NONE}
 * @param subAgents  the session's parent (when a {@code task} call started it) and the children it started; left out
 *                   of the JSON while it is {@link SubAgents#NONE}
 */
public record SessionState(String sessionId, String userId, String title, SessionStatus status, long lastSeq,
                           Instant createdAt, Instant updatedAt, List<Message> messages,
                           Map<String, ToolCallView> toolCalls, TokenUsage usage, int modelCalls, int turns,
                           Turn turn, PendingWait pendingWait, String memory, long memoryVersion, String lastModel,
                           TurnOutcome lastOutcome, String lastAnswer, String lastError, ShellState shell,
                           String checkpoint, String forkedFrom, long forkedAtSeq, PermissionMode permissionMode,
                           List<PendingApproval> pendingApprovals, List<String> alwaysAllowed,
                           List<QueuedWhisper> queuedWhispers, ContextState context,
                           @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = Planning.IsNone.class)
                           Planning planning,
                           @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = ModelState.IsNone.class)
                           ModelState models,
                           @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = SubAgents.IsNone.class)
                           SubAgents subAgents) {

    /**
     * Both collections become immutable, structurally shared ones: the fold's own ({@link AppendOnlyList},
     * {@link InsertionOrderedMap}) are kept as they are, in O(1), so folding an event does not copy the conversation;
     * anything else (a list and map read from JSON, say) is copied once. A state read from JSON equals the folded one.
     */
    public SessionState {
        messages = AppendOnlyList.copyOf(messages);
        toolCalls = InsertionOrderedMap.copyOf(toolCalls);
        // A state written before permission modes existed (an old fork, say) reads as the mode it ran in.
        permissionMode = permissionMode == null ? PermissionMode.AUTO : permissionMode;
        pendingApprovals = pendingApprovals == null ? List.of() : List.copyOf(pendingApprovals);
        alwaysAllowed = alwaysAllowed == null ? List.of() : List.copyOf(alwaysAllowed);
        queuedWhispers = queuedWhispers == null ? List.of() : List.copyOf(queuedWhispers);
        // A state written before the context existed (an old snapshot or fork) has an empty one.
        context = context == null ? ContextState.EMPTY : context;
        planning = planning == null ? Planning.NONE : planning;
        models = models == null ? ModelState.NONE : models;
        subAgents = subAgents == null ? SubAgents.NONE : subAgents;
    }

    /** As written before sub-agents existed: with none. */
    public SessionState(String sessionId, String userId, String title, SessionStatus status, long lastSeq,
                        Instant createdAt, Instant updatedAt, List<Message> messages,
                        Map<String, ToolCallView> toolCalls, TokenUsage usage, int modelCalls, int turns,
                        Turn turn, PendingWait pendingWait, String memory, long memoryVersion, String lastModel,
                        TurnOutcome lastOutcome, String lastAnswer, String lastError, ShellState shell,
                        String checkpoint, String forkedFrom, long forkedAtSeq, PermissionMode permissionMode,
                        List<PendingApproval> pendingApprovals, List<String> alwaysAllowed,
                        List<QueuedWhisper> queuedWhispers, ContextState context, Planning planning,
                        ModelState models) {
        this(sessionId, userId, title, status, lastSeq, createdAt, updatedAt, messages, toolCalls, usage, modelCalls,
                turns, turn, pendingWait, memory, memoryVersion, lastModel, lastOutcome, lastAnswer, lastError, shell,
                checkpoint, forkedFrom, forkedAtSeq, permissionMode, pendingApprovals, alwaysAllowed, queuedWhispers,
                context, planning, models, SubAgents.NONE);
    }

    /** As written before models could be chosen per session: with none chosen. */
    public SessionState(String sessionId, String userId, String title, SessionStatus status, long lastSeq,
                        Instant createdAt, Instant updatedAt, List<Message> messages,
                        Map<String, ToolCallView> toolCalls, TokenUsage usage, int modelCalls, int turns,
                        Turn turn, PendingWait pendingWait, String memory, long memoryVersion, String lastModel,
                        TurnOutcome lastOutcome, String lastAnswer, String lastError, ShellState shell,
                        String checkpoint, String forkedFrom, long forkedAtSeq, PermissionMode permissionMode,
                        List<PendingApproval> pendingApprovals, List<String> alwaysAllowed,
                        List<QueuedWhisper> queuedWhispers, ContextState context, Planning planning) {
        this(sessionId, userId, title, status, lastSeq, createdAt, updatedAt, messages, toolCalls, usage, modelCalls,
                turns, turn, pendingWait, memory, memoryVersion, lastModel, lastOutcome, lastAnswer, lastError, shell,
                checkpoint, forkedFrom, forkedAtSeq, permissionMode, pendingApprovals, alwaysAllowed, queuedWhispers,
                context, planning, ModelState.NONE);
    }

    /** As written before the context and planning existed: with empty ones. */
    public SessionState(String sessionId, String userId, String title, SessionStatus status, long lastSeq,
                        Instant createdAt, Instant updatedAt, List<Message> messages,
                        Map<String, ToolCallView> toolCalls, TokenUsage usage, int modelCalls, int turns,
                        Turn turn, PendingWait pendingWait, String memory, long memoryVersion, String lastModel,
                        TurnOutcome lastOutcome, String lastAnswer, String lastError, ShellState shell,
                        String checkpoint, String forkedFrom, long forkedAtSeq, PermissionMode permissionMode,
                        List<PendingApproval> pendingApprovals, List<String> alwaysAllowed,
                        List<QueuedWhisper> queuedWhispers) {
        this(sessionId, userId, title, status, lastSeq, createdAt, updatedAt, messages, toolCalls, usage, modelCalls,
                turns, turn, pendingWait, memory, memoryVersion, lastModel, lastOutcome, lastAnswer, lastError, shell,
                checkpoint, forkedFrom, forkedAtSeq, permissionMode, pendingApprovals, alwaysAllowed, queuedWhispers,
                ContextState.EMPTY, Planning.NONE);
    }

    /** The state before the first event. */
    public static SessionState initial(String sessionId) {
        return new SessionState(sessionId, null, null, SessionStatus.NEW, 0, null, null, List.of(), Map.of(),
                TokenUsage.ZERO, 0, 0, null, null, "", 0, null, null, null, null, null, null, null, 0, PermissionMode.AUTO,
                List.of(), List.of(), List.of(), ContextState.EMPTY, Planning.NONE, ModelState.NONE, SubAgents.NONE);
    }

    /** Created and not deleted: a session anyone may see or send to. */
    public boolean exists() {
        return status != SessionStatus.NEW && status != SessionStatus.DELETED;
    }

    /** Deleted by its owner: its id is never used again, not even by a new session. */
    public boolean deleted() {
        return status == SessionStatus.DELETED;
    }

    // The questions every service asks of a session, answered once here so the orchestrator (which decides) and
    // the gateway (which answers people early, from a view that may trail the log) cannot disagree. None of these
    // is a bean getter, so none appears in the state's JSON.

    /**
     * Whether a turn is under way: running, suspended on a wait until the scheduler wakes it, or held until a person
     * decides a pending approval.
     */
    public boolean turnInProgress() {
        return status == SessionStatus.RUNNING || status == SessionStatus.WAITING
                || status == SessionStatus.AWAITING_APPROVAL;
    }

    /** The approval pending for a call, if one is: only such a call can be decided. */
    public Optional<PendingApproval> pendingApproval(String callId) {
        return pendingApprovals.stream().filter(a -> a.callId().equals(callId)).findFirst();
    }

    /**
     * Whether a call of the model to {@code tool} must wait for a person: the mode asks for it at the tool's risk,
     * and no person allowed the tool for the rest of the session.
     */
    public boolean requiresApproval(String tool, Risk risk) {
        return permissionMode.requiresApproval(risk) && !alwaysAllowed.contains(tool);
    }

    /**
     * Whether a person's message is taken now: it starts a turn when none is under way, and wakes a turn that waits
     * (on a WAIT, or for approvals). Only a turn at work (a model call or tool calls in flight) refuses it; a whisper
     * is the way to reach that one.
     */
    public boolean acceptsMessage() {
        return exists() && status != SessionStatus.RUNNING;
    }

    /** Whether a whisper (a note for the running turn's next model call) is taken now: only while a turn is under way. */
    public boolean acceptsWhisper() {
        return turnInProgress();
    }

    /**
     * Whether a tool a person runs directly (upload, download, rewind) may run now: only between turns, so it
     * never interleaves with the agent's own calls.
     */
    public boolean acceptsUserTool() {
        return exists() && !turnInProgress();
    }

    /**
     * Whether a person's request to compact the conversation is taken now: between turns (during one, compaction is
     * the decider's own call before each model call) and while no summary is being written.
     */
    public boolean acceptsCompaction() {
        return exists() && !turnInProgress() && !context.awaitsSummary();
    }

    /** Whether there is a turn to cancel. */
    public boolean acceptsCancel() {
        return turnInProgress();
    }

    /** Whether the session exists and belongs to {@code user}; a session is only ever shown to its owner. */
    public boolean isOwnedBy(String user) {
        return exists() && user != null && user.equals(userId);
    }
}
