package dev.agentbus.events.session;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.WireType;
import dev.agentbus.events.insights.InsightCategory;
import dev.agentbus.events.insights.MemoryAction;
import dev.agentbus.events.models.ModelChoice;
import dev.agentbus.events.models.Sampling;
import dev.agentbus.events.planning.TodoStatus;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.tools.Risk;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything that happened in a session, in the past tense. Only the orchestrator appends these, to
 * {@code agentbus.session-events}, inside the Kafka transaction that consumed the input causing them.
 * A session's state is the fold of these events ({@link dev.agentbus.events.state.SessionFold}).
 *
 * <p>docs/events.md lists every type; EventCatalogueDocTest fails when the two drift apart.
 */
public sealed interface SessionEvent {

    /**
     * Emitted by the orchestrator when a gateway asked to create a session. Always seq 1. {@code mode} is the
     * session's permission mode: the one asked for, else the installation's default; absent in logs written before
     * modes existed, which means {@link PermissionMode#AUTO}. {@code subAgentOf} is set when another session's
     * {@code task} call started this one (a sub-agent, {@code start_sub_agent.v1}): its parent, the call, and the
     * tools and iteration cap it runs with; absent for every other session. {@code incognito}: the memory-service
     * never reads this session (nothing is distilled from it, no vote in it counts) and no insight goes into its
     * prompts; false in older logs.
     */
    @WireType("session.created.v1")
    record SessionCreated(String title, PermissionMode mode, SubAgentOf subAgentOf, boolean incognito)
            implements SessionEvent {
        public SessionCreated(String title) {
            this(title, null, null, false);
        }

        public SessionCreated(String title, PermissionMode mode) {
            this(title, mode, null, false);
        }

        public SessionCreated(String title, PermissionMode mode, SubAgentOf subAgentOf) {
            this(title, mode, subAgentOf, false);
        }
    }

    /**
     * Emitted by the orchestrator when a person sets the session's permission mode ({@code set_permission_mode.v1}),
     * at any time, also while a turn runs: it applies to the calls the model asks for from then on. {@code changedBy} is
     * the user who set it (in a shared session, not always the owner).
     */
    @WireType("permission_mode.changed.v1")
    record PermissionModeChanged(PermissionMode mode, String changedBy) implements SessionEvent {
    }

    /**
     * Emitted by the orchestrator, instead of {@code tool_call.requested.v1}, for a call of the model that the
     * session's permission mode does not let run without a person's approval. The call stays open in its turn, so
     * the model is not called again before it is decided; the scheduler counts it as denied at {@code expiresAt}.
     */
    @WireType("approval.requested.v1")
    record ApprovalRequested(String callId, String tool, String arguments, Risk risk, String reason,
                             Instant expiresAt) implements SessionEvent {
    }

    /**
     * Emitted by the orchestrator, once per approval, when a person decides it ({@code decide_approval.v1}), the
     * scheduler's time-out expires it ({@code expire_approval.v1}, decision EXPIRED, no {@code decidedBy}), or a
     * mode change makes it unnecessary (APPROVED). An approved call is requested next; a denied or expired one is
     * answered at once with a failed result that tells the model why.
     */
    @WireType("approval.decided.v1")
    record ApprovalDecided(String callId, ApprovalDecision decision, String note, String decidedBy)
            implements SessionEvent {
    }

    /**
     * Emitted by the orchestrator when a person renames the session ({@code rename_session.v1}), at any time.
     * {@code renamedBy} is the user who renamed it (in a shared session, not always the owner).
     */
    @WireType("session.renamed.v1")
    record SessionRenamed(String title, String renamedBy) implements SessionEvent {
    }

    /**
     * Emitted by the orchestrator when the owner deletes the session ({@code delete_session.v1}); the last event of a
     * session. The log itself is not rewritten (it stays until the topic's retention removes it); what the
     * services hold for the session goes: the gateway hides it and drops it from its read models, the worker
     * removes its sandbox and workspace, and the orchestrator refuses every later input.
     */
    @WireType("session.deleted.v1")
    record SessionDeleted(String deletedBy) implements SessionEvent {
    }

    /**
     * Emitted by the orchestrator when a person's note to the running turn ({@code post_whisper.v1}) is accepted. It
     * waits in the state until the turn's next model call, which {@code whisper.delivered.v1} hands it to.
     */
    @WireType("whisper.queued.v1")
    record WhisperQueued(String whisperId, String text, String sentBy) implements SessionEvent {
    }

    /**
     * Emitted by the orchestrator just before {@code model_call.started.v1}, once for each queued whisper: the
     * whisper joins the conversation (as a notice), so the prompt of that call, built from the folded state alone,
     * carries it. A whisper still queued when its turn ends is dropped with the turn, never delivered.
     */
    @WireType("whisper.delivered.v1")
    record WhisperDelivered(String whisperId) implements SessionEvent {
    }

    /**
     * Emitted by the orchestrator when one of the loop guards (docs/configuration.md, {@code agentbus.loop-guard.*})
     * sees the turn going round in circles for the first time in the turn: the reason joins the conversation as a
     * notice for the model. If the same guard sees it again in the same turn, the turn ends with LOOP_DETECTED.
     */
    @WireType("loop.warned.v1")
    record LoopWarned(LoopGuard guard, String reason) implements SessionEvent {
    }

    /**
     * Emitted by the orchestrator when a person's message is accepted. It starts a turn, or, when the session's turn
     * was waiting (a WAIT, or approvals), joins that turn after the wait or approvals it ended. {@code images} are the
     * workspace paths of the images attached to it (absent when none): the files stay in the workspace and never
     * enter the log; the sandbox-worker reads them for the model ({@code agentbus.session-images}).
     */
    @WireType("user_message.posted.v1")
    record UserMessagePosted(String text, List<String> images) implements SessionEvent {
        public UserMessagePosted {
            images = images == null || images.isEmpty() ? null : List.copyOf(images);
        }

        public UserMessagePosted(String text) {
            this(text, null);
        }

        /** The attached images' paths, empty when none. Not a bean getter, so it never shows in the JSON. */
        public List<String> imagePaths() {
            return images == null ? List.of() : images;
        }
    }

    /**
     * Emitted by the orchestrator at the start of a turn when the user's memory document differs from the one
     * the session last used. Recording it makes the system prompt of every model call rebuildable from the log.
     * Version {@link #WITHHELD} (with empty content) says the turn runs without the owner's memory, because a group
     * member the session is shared with spoke in it: the memory-service then learns nothing from that turn.
     */
    @WireType("memory.attached.v1")
    record MemoryAttached(String content, long version) implements SessionEvent {
        /** The version of a withheld document: no real document has it (versions start at 1, 0 for none). */
        public static final long WITHHELD = -1;

        /** Whether this event takes the owner's memory out of the turn rather than attaching a document. */
        public boolean withheld() {
            return version == WITHHELD;
        }
    }

    /**
     * Emitted by the orchestrator at the start of a turn (after {@code memory.attached.v1}, if any) with the user's
     * insights it chose for the turn's system prompt: the best by score, within the token budget. Emitted every turn
     * that uses any, and once with an empty list when a turn uses none after one that did. Every model call of the
     * turn uses exactly these (the fold keeps them), so a replay renders the same prompt without reading the insight
     * sets again, and the memory-service counts each listed insight as used once and credits it with the votes on
     * the turn's answers. Never emitted in an incognito session.
     */
    @WireType("insights.injected.v1")
    record InsightsInjected(List<InjectedInsight> insights) implements SessionEvent {
        public InsightsInjected {
            insights = insights == null ? List.of() : List.copyOf(insights);
        }
    }

    /**
     * Emitted by the orchestrator when a person gives a thumbs up or down on an answer of the session
     * ({@code give_feedback.v1}). {@code seq} is the answer's {@code model_call.completed.v1}; the memory-service moves
     * the scores of the insights injected into that turn's prompt. A second vote on the same answer replaces the
     * first.
     */
    @WireType("feedback.recorded.v1")
    record FeedbackGiven(long seq, Vote vote, String givenBy) implements SessionEvent {
    }

    /**
     * Emitted by the orchestrator when the agent's {@code manage_memory} call changes the user's insights: adds one
     * ({@code insightId} is the new insight's, chosen here so the call's result can name it), rewrites one
     * ({@code category} null: unchanged) or deletes one ({@code category} and {@code text} null). The orchestrator
     * checked it against the user's insights as it last read them (the insight exists and is not protected); the
     * memory-service reads this event on the log and applies it exactly once, checking the protection again, since a
     * person may have protected or deleted the insight meanwhile. Never emitted in an incognito session.
     */
    @WireType("memory.managed.v1")
    record MemoryManaged(String callId, MemoryAction action, String insightId, InsightCategory category, String text)
            implements SessionEvent {
    }

    /**
     * Emitted by the orchestrator just before it calls the model; iteration counts model calls in the turn.
     * {@code asked} is the model and sampling the call asks for, decided from the session's choice, its preset's
     * temperature, the user's settings and the installation's (in that order), so a replay knows what was asked; a
     * null model means the server's first, a null sampling field is not sent. Absent in logs written before models
     * could be chosen per session.
     */
    @WireType("model_call.started.v1")
    record ModelCallStarted(String requestId, int iteration, ModelChoice asked) implements SessionEvent {
        public ModelCallStarted(String requestId, int iteration) {
            this(requestId, iteration, null);
        }
    }

    /**
     * Emitted by the orchestrator when the session's own model and sampling are chosen: at creation ({@code "model"},
     * {@code "sampling"}) or later ({@code set_session_model.v1}), at any time, also while a turn runs; it applies
     * from the next model call. It replaces the session's previous choice; fields left null fall back to the preset,
     * the user's and the installation's. {@code changedBy} is the user who chose it.
     */
    @WireType("model_settings.changed.v1")
    record ModelSettingsChanged(String model, Sampling sampling, String changedBy) implements SessionEvent {
    }

    /**
     * Emitted by the orchestrator when a model response arrives, before anything acts on it (invariant 3).
     * {@code reasoning} is kept apart from {@code content} and never sent back to the model. {@code measure} is how
     * full the context window was (the context gauge; absent in older logs).
     */
    @WireType("model_call.completed.v1")
    record ModelCallCompleted(String requestId, String model, String content, String reasoning,
                              List<ToolCallSpec> toolCalls, TokenUsage usage, String finishReason,
                              PromptMeasure measure)
            implements SessionEvent {
        public ModelCallCompleted {
            toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
            usage = usage == null ? TokenUsage.ZERO : usage;
        }

        /** Without a measure of the context window: as in logs written before the context gauge existed. */
        public ModelCallCompleted(String requestId, String model, String content, String reasoning,
                                  List<ToolCallSpec> toolCalls, TokenUsage usage, String finishReason) {
            this(requestId, model, content, reasoning, toolCalls, usage, finishReason, null);
        }
    }

    /**
     * Emitted by the orchestrator instead of a model call it would not make: the conversation has images and the
     * model does not accept them (the server says so, or neither the server nor {@code agentbus.models.vision} says
     * it does), or an attached image could not be read. The turn then ends with ERROR and this reason; the server was
     * never asked.
     */
    @WireType("model_call.refused.v1")
    record ModelCallRefused(String requestId, String model, String reason) implements SessionEvent {
    }

    /**
     * Emitted by the orchestrator with a model call that asks a thinking model (one asked for a reasoning effort or
     * budget, or one that answered with reasoning in this session) for a high temperature, above which reasoning
     * models tend to ramble and loop. A warning only: the call is made as asked. Once per model and temperature.
     */
    @WireType("model.warned.v1")
    record ModelWarned(String model, Double temperature, String reason) implements SessionEvent {
    }

    /** Emitted by the orchestrator when the model server failed after all retries. */
    @WireType("model_call.failed.v1")
    record ModelCallFailed(String requestId, String message) implements SessionEvent {
    }

    /**
     * Emitted by the orchestrator for each tool call the sandbox-worker must run: one the model proposed, or one a
     * person asked for directly ({@code byUser}: an upload, a download, a rewind). {@code shell} is the session's
     * last recorded shell state, for a worker that has to build the sandbox afresh (null before the first command).
     */
    @WireType("tool_call.requested.v1")
    record ToolCallRequested(String callId, String name, String arguments, ShellState shell, boolean byUser)
            implements SessionEvent {
        public ToolCallRequested(String callId, String name, String arguments) {
            this(callId, name, arguments, null, false);
        }
    }

    /** Emitted by the orchestrator when a sandbox-worker reports it is about to run a call. */
    @WireType("tool_call.started.v1")
    record ToolCallStarted(String callId, String worker) implements SessionEvent {
    }

    /**
     * Emitted by the orchestrator once per call with its result: from the sandbox-worker, or from the
     * orchestrator itself for calls it answers (unknown tool, bad arguments, the wait tool).
     * {@code interrupted} means the worker crashed mid-call and did not run it again. {@code shell} is the shell's
     * state after a command (null for other tools), {@code checkpoint} the id of the workspace checkpoint taken
     * after a call that changed files (null when nothing changed), {@code refusal} the reason the safety layer
     * refused the call without running it (null when it ran).
     */
    @WireType("tool_call.completed.v1")
    record ToolCallCompleted(String callId, boolean ok, String output, String error, String diff,
                             boolean truncated, long durationMs, boolean interrupted, ShellState shell,
                             String checkpoint, String refusal) implements SessionEvent {
        public ToolCallCompleted(String callId, boolean ok, String output, String error, String diff,
                                 boolean truncated, long durationMs, boolean interrupted) {
            this(callId, ok, output, error, diff, truncated, durationMs, interrupted, null, null, null);
        }
    }

    /** Emitted by the orchestrator when the agent waits until a time (a {@code WAIT:} answer or the wait tool). */
    @WireType("wait.scheduled.v1")
    record WaitScheduled(String waitId, Instant until, String reason, String callId) implements SessionEvent {
    }

    /**
     * Emitted by the orchestrator when the scheduler's wake-up for a pending wait arrives, or, with
     * {@code interrupted}, when a person's message ended the wait early (absent in older logs: false).
     */
    @WireType("wait.ended.v1")
    record WaitEnded(String waitId, boolean interrupted) implements SessionEvent {
        public WaitEnded(String waitId) {
            this(waitId, false);
        }
    }

    /** Emitted by the orchestrator when a turn ends, with how it ended and the final answer if any. */
    @WireType("turn.ended.v1")
    record TurnEnded(TurnOutcome outcome, String answer, String message) implements SessionEvent {
    }

    /**
     * Emitted by the orchestrator as seq 1 of a session forked from another one at {@code atSeq}. It carries the
     * source's state as it was at that seq, so the fork's log is complete on its own, and the workspace checkpoint
     * the sandbox-worker restores the fork's workspace from (null when no call had changed files yet). The source
     * session is not touched. A call that was still unanswered at {@code atSeq} is answered in the fork as "not run".
     */
    @WireType("session.forked.v1")
    record SessionForked(String fromSessionId, long atSeq, String checkpoint, String title, SessionState state)
            implements SessionEvent {
    }

    /** Emitted by the orchestrator when an input cannot be applied in the session's state; says why. */
    @WireType("input.rejected.v1")
    record InputRejected(String inputId, String inputType, String reason) implements SessionEvent {
    }

    /**
     * Emitted by the orchestrator when a person's notification ({@code post_notification.v1}) is accepted, or when
     * the agent calls {@code send_notification} (then {@code callId} is that call's id, {@code sentBy} is null, and
     * the call's result follows). It is for the people following the session (its WebSocket connections, event
     * streams and the owner's notification queue), not for the model: it changes no state and never reaches a
     * prompt. {@code sentBy} is the user who sent it (in a shared session, not always the session's owner);
     * {@code urgency} is the agent's (null for a person's notification, and for the agent's means NORMAL).
     */
    @WireType("notification.posted.v1")
    record NotificationPosted(String message, String sentBy, Urgency urgency, String callId)
            implements SessionEvent {
        /** A person's notification. */
        public NotificationPosted(String message, String sentBy) {
            this(message, sentBy, null, null);
        }

        /** Whether the agent sent it (a {@code send_notification} call), not a person. */
        public boolean byAgent() {
            return callId != null;
        }
    }

    /**
     * Emitted by the orchestrator when a session's own system prompt is chosen: at creation ({@code "preset"},
     * {@code "systemPrompt"}) or later ({@code set_system_prompt.v1}), at any time; it applies from the next model
     * call. {@code preset} names one of {@link dev.agentbus.events.context.Presets}; {@code systemPrompt} replaces the
     * installation's base prompt. Both null: back to the installation's. {@code setBy} is the user who set it.
     */
    @WireType("system_prompt.changed.v1")
    record SystemPromptChanged(String preset, String systemPrompt, String setBy) implements SessionEvent {
    }

    /**
     * Emitted by the orchestrator when the sandbox-worker lists the session's MCP servers and their tools
     * ({@code record_mcp_tools.v1}) and they differ from the recorded ones: the complete set, each server live with
     * its tools or not with the reason. The model is offered the live servers' tools, as
     * {@code mcp__<server>__<tool>}, from the next model call. Never carries a server's environment or headers.
     */
    @WireType("mcp.tools.listed.v1")
    record McpToolsListed(List<dev.agentbus.events.mcp.McpServerView> servers) implements SessionEvent {
        public McpToolsListed {
            servers = servers == null ? List.of() : List.copyOf(servers);
        }
    }

    /**
     * Emitted by the orchestrator when the sandbox-worker reports context files ({@code .soul.md}, {@code AGENTS.md},
     * {@code .agentbus.md}) in the session's workspace that differ from the ones recorded: the complete set as found
     * (an empty list: none is left). Their text joins the system prompt from the next model call.
     */
    @WireType("context_files.loaded.v1")
    record ContextFilesLoaded(List<ContextFile> files) implements SessionEvent {
        public ContextFilesLoaded {
            files = files == null ? List.of() : List.copyOf(files);
        }
    }

    /**
     * Emitted by the orchestrator when it decides to summarise the older part of the conversation: on its own, just
     * before a model call whose prompt would pass the share of the context window set by
     * {@code agentbus.context.compact-at} ({@code requestedBy} null), or on a person's {@code compact_context.v1}.
     * The summary covers the first {@code messagesCovered} messages of the conversation (the last of them has
     * {@code throughSeq}), except the pinned first message; the turn's model call waits for it. A count of messages,
     * not a seq, says what is covered because a fork keeps its source's messages under the source's seqs.
     * {@code reason} says why, for people reading the log.
     */
    @WireType("context.compaction_requested.v1")
    record ContextCompactionRequested(String requestId, long throughSeq, int messagesCovered, String reason,
                                      String requestedBy) implements SessionEvent {
    }

    /**
     * Emitted by the orchestrator when the summary asked for by {@code context.compaction_requested.v1} arrives. From
     * then on the prompt is built from the system prompt, the pinned first message, this summary and the messages
     * after the first {@code messagesCovered} (the last covered one has {@code throughSeq}); the log itself keeps
     * every message. {@code usage} is the summarising call's.
     */
    @WireType("context.compacted.v1")
    record ContextCompacted(String requestId, long throughSeq, int messagesCovered, String summary, TokenUsage usage)
            implements SessionEvent {
        public ContextCompacted {
            usage = usage == null ? TokenUsage.ZERO : usage;
        }
    }

    /**
     * Emitted by the orchestrator when the summarising call failed or returned nothing: the prompt stays as it was and
     * a waiting turn goes on with it. Compaction is tried again only after the next model call measured the prompt.
     */
    @WireType("context.compaction_failed.v1")
    record ContextCompactionFailed(String requestId, String message) implements SessionEvent {
    }

    /**
     * The events of todos, plans and task state: what the agent keeps track of while it works. The orchestrator
     * emits them when it answers the planning tools itself (docs/tools.md#todos-plans-and-task-state), and
     * {@link dev.agentbus.events.planning.PlanningFold} folds them into {@code SessionState.planning}. One sealed
     * family, so a service that shows events can treat them together.
     */
    sealed interface PlanningEvent extends SessionEvent {
    }

    /**
     * Emitted by the orchestrator right after {@code session.created.v1} when the creator asked for plan-first mode
     * ({@code planFirst} of {@code create_session.v1}): from then on no tool other than the planning tools runs until
     * the user approved a plan. {@code changedBy} is the user who asked for it.
     */
    @WireType("plan_first.changed.v1")
    record PlanFirstChanged(boolean on, String changedBy) implements PlanningEvent {
    }

    /** Emitted by the orchestrator when the model adds a todo ({@code todo_add}); {@code id} is its number, 1, 2, … */
    @WireType("todo.added.v1")
    record TodoAdded(int id, String text) implements PlanningEvent {
    }

    /**
     * Emitted by the orchestrator when the model changes a todo ({@code todo_update}, {@code todo_complete}: status
     * DONE). {@code status}, {@code text} and {@code note} are null when they do not change.
     */
    @WireType("todo.updated.v1")
    record TodoUpdated(int id, TodoStatus status, String text, String note) implements PlanningEvent {
    }

    /**
     * Emitted by the orchestrator when the model proposes a plan ({@code plan_create} call {@code callId}). With
     * {@code awaitingApproval} (plan-first mode) it waits for the user: {@code approval.requested.v1} for the same
     * call follows, and its {@code approval.decided.v1} approves or rejects the plan. Otherwise it is active at once.
     */
    @WireType("plan.created.v1")
    record PlanCreated(int number, String title, List<String> steps, String callId, boolean awaitingApproval)
            implements PlanningEvent {
        public PlanCreated {
            steps = steps == null ? List.of() : List.copyOf(steps);
        }
    }

    /**
     * Emitted by the orchestrator when the model reports step {@code step} (1-based) of plan {@code number} done,
     * with its evidence ({@code plan_complete_step}). The plan is complete once no step is pending.
     */
    @WireType("plan.step_completed.v1")
    record PlanStepCompleted(int number, int step, String evidence) implements PlanningEvent {
    }

    /**
     * Emitted by the orchestrator when the model moves on from the current step of plan {@code number} without
     * completing it ({@code plan_advance}): step {@code skippedStep} is skipped, with the reason (null when none).
     */
    @WireType("plan.advanced.v1")
    record PlanAdvanced(int number, int skippedStep, String reason) implements PlanningEvent {
    }

    /** Emitted by the orchestrator when the model gives up plan {@code number} ({@code plan_abort}), with why. */
    @WireType("plan.aborted.v1")
    record PlanAborted(int number, String reason) implements PlanningEvent {
    }

    /**
     * Emitted by the orchestrator when the model checkpoints a batch job ({@code task_state_update}). Null fields do
     * not change; {@code done} and {@code failed} are the items newly reported (an item moves from one to the other
     * when reported again).
     */
    @WireType("task_state.updated.v1")
    record TaskStateUpdated(String task, Integer total, List<String> done, List<String> failed, String notes)
            implements PlanningEvent {
        public TaskStateUpdated {
            done = done == null ? List.of() : List.copyOf(done);
            failed = failed == null ? List.of() : List.copyOf(failed);
        }
    }

    /**
     * Emitted by the orchestrator when the model reconciles the batch job's checkpoint after moving files around
     * ({@code task_reconcile}): each recorded item {@code renamed} maps from gets the new name, the {@code removed}
     * ones are dropped. Only items the checkpoint had are in it.
     */
    @WireType("task_state.reconciled.v1")
    record TaskReconciled(Map<String, String> renamed, List<String> removed) implements PlanningEvent {
        public TaskReconciled {
            renamed = renamed == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(renamed));
            removed = removed == null ? List.of() : List.copyOf(removed);
        }
    }

    /**
     * Emitted by the orchestrator in the parent session when the model's {@code task} call {@code callId} starts a
     * sub-agent: the decision, recorded once. In the same transaction the orchestrator writes
     * {@code start_sub_agent.v1} to the child's input key, so the child is created exactly once and never again on a
     * replay. The call stays open in its turn until {@code sub_agent.finished.v1} and its result.
     */
    @WireType("sub_agent.started.v1")
    record SubAgentStarted(String callId, String childSessionId, String description, List<String> tools,
                           int maxIterations) implements SessionEvent {
        public SubAgentStarted {
            tools = tools == null ? List.of() : List.copyOf(tools);
        }
    }

    /**
     * Emitted by the orchestrator in the parent session when the child's turn ended
     * ({@code record_sub_agent_result.v1}, written by the child's orchestrator with the child's {@code turn.ended.v1}).
     * {@code outcome} is how the child's turn ended; the {@code task} call's {@code tool_call.completed.v1} with the
     * child's answer follows at once.
     */
    @WireType("sub_agent.finished.v1")
    record SubAgentFinished(String callId, String childSessionId, TurnOutcome outcome) implements SessionEvent {
    }

    /**
     * An event whose type this code does not know (written by a newer version). Kept with its raw JSON,
     * folded as a no-op, never a crash (invariant 6). Has no wire name of its own: it keeps the one it was read with.
     */
    record UnknownEvent(String type, JsonNode raw) implements SessionEvent {
    }
}
