package dev.agentbus.events.input;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.WireType;
import dev.agentbus.events.session.Vote;
import dev.agentbus.events.models.Sampling;
import dev.agentbus.events.session.ApprovalDecision;
import dev.agentbus.events.session.ContextFile;
import dev.agentbus.events.session.PromptMeasure;
import dev.agentbus.events.session.PermissionMode;
import dev.agentbus.events.session.ShellState;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.ToolCallSpec;
import dev.agentbus.events.session.TurnOutcome;

import java.util.List;

/**
 * Requests to a session, in the imperative, on {@code agentbus.session-inputs}. Anyone may write them (the
 * gateway for people, the orchestrator's own model-call effects, the sandbox-worker, the scheduler); only the
 * orchestrator reads them and decides which events they become. An input may be rejected; an event is a fact.
 */
public sealed interface SessionInput {

    /**
     * Written by the gateway when a client creates a session. {@code mode} is the permission mode the client asked
     * for; null takes the installation's default ({@code agentbus.agent.permission-mode}). {@code preset} and
     * {@code systemPrompt} give the session its own system prompt (null: the installation's). {@code planFirst} asks
     * for plan-first mode: no tool other than the planning tools runs before the user approved a plan (absent in
     * older inputs: false). {@code model} and {@code sampling} are the session's own model and sampling (null: the
     * user's or the installation's). {@code incognito}: the session's memory is off both ways, nothing is learned
     * from it and no insight is injected (absent in older inputs: false).
     */
    @WireType("create_session.v1")
    record CreateSession(String title, PermissionMode mode, String preset, String systemPrompt, boolean planFirst,
                         String model, Sampling sampling, boolean incognito)
            implements SessionInput {
        public CreateSession(String title, PermissionMode mode, String preset, String systemPrompt,
                             boolean planFirst, String model, Sampling sampling) {
            this(title, mode, preset, systemPrompt, planFirst, model, sampling, false);
        }

        public CreateSession(String title, PermissionMode mode, String preset, String systemPrompt,
                             boolean planFirst) {
            this(title, mode, preset, systemPrompt, planFirst, null, null);
        }

        public CreateSession(String title) {
            this(title, null, null, null, false);
        }

        public CreateSession(String title, PermissionMode mode) {
            this(title, mode, null, null, false);
        }

        public CreateSession(String title, PermissionMode mode, String preset, String systemPrompt) {
            this(title, mode, preset, systemPrompt, false);
        }

        public CreateSession(String title, PermissionMode mode, boolean planFirst) {
            this(title, mode, null, null, planFirst);
        }
    }

    /**
     * Written by the gateway when a person chooses a session's own model and sampling ({@code PUT
     * /api/v1/sessions/{id}/model}). It replaces the session's previous choice (both null: back to the user's and the
     * installation's). Taken at any time, also while a turn runs; it applies from the next model call.
     */
    @WireType("set_session_model.v1")
    record SetSessionModel(String model, Sampling sampling) implements SessionInput {
    }

    /** Written by the gateway when a person sets a session's permission mode; taken at any time. */
    @WireType("set_permission_mode.v1")
    record SetPermissionMode(PermissionMode mode) implements SessionInput {
    }

    /**
     * Written by the gateway when a person decides a pending approval: APPROVED, DENIED or ALWAYS (EXPIRED is only
     * the scheduler's, through {@code expire_approval.v1}). {@code note} is optional; a denial passes it to the model.
     */
    @WireType("decide_approval.v1")
    record DecideApproval(String callId, ApprovalDecision decision, String note) implements SessionInput {
    }

    /** Written by the scheduler when a pending approval's time-out has come; it counts as denied. */
    @WireType("expire_approval.v1")
    record ExpireApproval(String callId) implements SessionInput {
    }

    /**
     * Written by the gateway when a person renames a session ({@code PUT /api/v1/sessions/{id}/title}); taken at any
     * time, also while a turn runs.
     */
    @WireType("rename_session.v1")
    record RenameSession(String title) implements SessionInput {
    }

    /**
     * Written by the gateway when the owner deletes a session ({@code DELETE /api/v1/sessions/{id}}). A running turn
     * is cancelled first; after it the session takes no input, and the services let go of what it held.
     */
    @WireType("delete_session.v1")
    record DeleteSession() implements SessionInput {
    }

    /**
     * Written by the gateway when a person adds a note to the running turn without stopping it
     * ({@code POST /api/v1/sessions/{id}/whisper}). It is queued and goes into the turn's next model call; it is
     * refused when no turn is under way (a message is what starts one).
     */
    @WireType("post_whisper.v1")
    record PostWhisper(String text) implements SessionInput {
    }

    /**
     * Written by the gateway when a person sends a message, with the workspace paths of the images attached to it
     * (absent when none). Taken when the session is idle (it starts a turn) or its
     * turn waits (on a WAIT, or for approvals: the message wakes it and joins the turn); refused while the turn runs.
     */
    @WireType("post_user_message.v1")
    record PostUserMessage(String text, List<String> images) implements SessionInput {
        public PostUserMessage {
            images = images == null || images.isEmpty() ? null : List.copyOf(images);
        }

        public PostUserMessage(String text) {
            this(text, null);
        }
    }

    /**
     * Written by the orchestrator's model-call effect when it would not call the model: the prompt has images the
     * model does not accept, or one could not be read (see {@code model_call.refused.v1}).
     */
    @WireType("record_model_refusal.v1")
    record RecordModelRefusal(String requestId, String model, String reason) implements SessionInput {
    }

    /**
     * Written by the gateway when a person gives a thumbs up or down on an answer ({@code POST
     * /api/v1/sessions/{id}/feedback}); {@code seq} is the answer's {@code model_call.completed.v1}. Accepted at any
     * time for an answer with text; rejected for any other seq.
     */
    @WireType("give_feedback.v1")
    record GiveFeedback(long seq, Vote vote) implements SessionInput {
    }

    /** Written by the gateway when a person cancels the running turn. */
    @WireType("cancel_turn.v1")
    record CancelTurn() implements SessionInput {
    }

    /**
     * Written by the orchestrator's model-call effect when the model answered; {@code measure} is how full the
     * context window was (null when not measured).
     */
    @WireType("record_model_result.v1")
    record RecordModelResult(String requestId, String model, String content, String reasoning,
                             List<ToolCallSpec> toolCalls, TokenUsage usage, String finishReason,
                             PromptMeasure measure)
            implements SessionInput {
        public RecordModelResult {
            toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
            usage = usage == null ? TokenUsage.ZERO : usage;
        }

        public RecordModelResult(String requestId, String model, String content, String reasoning,
                                 List<ToolCallSpec> toolCalls, TokenUsage usage, String finishReason) {
            this(requestId, model, content, reasoning, toolCalls, usage, finishReason, null);
        }
    }

    /** Written by the orchestrator's model-call effect when the model server failed after all retries. */
    @WireType("record_model_failure.v1")
    record RecordModelFailure(String requestId, String message) implements SessionInput {
    }

    /** Written by the sandbox-worker after it has durably noted that it is about to run the call. */
    @WireType("mark_tool_call_started.v1")
    record MarkToolCallStarted(String callId, String worker) implements SessionInput {
    }

    /** Written by the sandbox-worker with a call's result (or "interrupted, not re-run" after a crash). */
    @WireType("record_tool_result.v1")
    record RecordToolResult(String callId, boolean ok, String output, String error, String diff,
                            boolean truncated, long durationMs, boolean interrupted, ShellState shell,
                            String checkpoint, String refusal) implements SessionInput {
        public RecordToolResult(String callId, boolean ok, String output, String error, String diff,
                                boolean truncated, long durationMs, boolean interrupted) {
            this(callId, ok, output, error, diff, truncated, durationMs, interrupted, null, null, null);
        }
    }

    /** Written by the scheduler when a pending wait's time has come. */
    @WireType("wake_up.v1")
    record WakeUp(String waitId) implements SessionInput {
    }

    /**
     * Written by the gateway to create a new session forked from {@code fromSessionId} at {@code atSeq}. The gateway
     * folds the source's log up to that seq and sends the state along, so the new session's orchestrator (which
     * may own a different partition than the source) never has to read another session's log.
     */
    @WireType("fork_session.v1")
    record ForkSession(String fromSessionId, long atSeq, String checkpoint, SessionState state, String title)
            implements SessionInput {
    }

    /**
     * Written by the gateway when a person runs a sandbox tool directly (upload, download, rewind) rather than
     * through the model. It is refused while a turn is running, and runs through the same at-most-once path as
     * the model's calls.
     */
    @WireType("run_user_tool.v1")
    record RunUserTool(String callId, String name, String arguments) implements SessionInput {
    }

    /**
     * Written by the gateway when a person sends a notification to the people following a session (the WebSocket
     * command {@code send_notification}). Accepted at any time, also while a turn runs: it never touches the turn.
     */
    @WireType("post_notification.v1")
    record PostNotification(String message) implements SessionInput {
    }

    /**
     * Written by the scheduler when a task of a user's inbox ({@code agentbus.inbox}) is due, to the session whose id
     * is the task's id: it creates that session and posts {@code text} as its first message, in one decision. Sent
     * to a session that exists already (the scheduler may send it twice around a restart), it changes nothing.
     */
    @WireType("start_inbox_task.v1")
    record StartInboxTask(String title, String text) implements SessionInput {
    }

    /**
     * Written by the gateway when a person sets a session's own system prompt ({@code PUT
     * /api/v1/sessions/{id}/system-prompt}): a preset, a text of their own, both, or neither (back to the
     * installation's). Taken at any time; it applies from the next model call.
     */
    @WireType("set_system_prompt.v1")
    record SetSystemPrompt(String preset, String systemPrompt) implements SessionInput {
    }

    /**
     * Written by the sandbox-worker when it has started (or restarted) a session's MCP servers and listed their
     * tools: when it first sees the session, and again when a server's tools changed after a restart. The complete
     * set of servers, each live with its tools or not with the reason.
     */
    @WireType("record_mcp_tools.v1")
    record RecordMcpTools(List<dev.agentbus.events.mcp.McpServerView> servers) implements SessionInput {
        public RecordMcpTools {
            servers = servers == null ? List.of() : List.copyOf(servers);
        }
    }

    /**
     * Written by the sandbox-worker after a call that may have changed files, when the context files it finds in the
     * session's workspace ({@code .soul.md}, {@code AGENTS.md}, {@code .agentbus.md}) differ from the last it
     * reported: the complete set as found now. Sent before the call's result, so the next model call has them.
     */
    @WireType("record_context_files.v1")
    record RecordContextFiles(List<ContextFile> files) implements SessionInput {
        public RecordContextFiles {
            files = files == null ? List.of() : List.copyOf(files);
        }
    }

    /**
     * Written by the gateway when a person asks for the older conversation to be summarised now ({@code POST
     * /api/v1/sessions/{id}/compact}); taken only between turns.
     */
    @WireType("compact_context.v1")
    record CompactContext() implements SessionInput {
    }

    /**
     * Written by the orchestrator's summarising effect: the summary asked for by
     * {@code context.compaction_requested.v1} {@code requestId}, or, with {@code error}, why there is none.
     */
    @WireType("record_context_summary.v1")
    record RecordContextSummary(String requestId, String summary, TokenUsage usage, String error)
            implements SessionInput {
    }

    /**
     * Written by the orchestrator of a parent session, in the transaction that records its
     * {@code sub_agent.started.v1}, to the child's session id: it creates the child (a sub-agent, linked to
     * {@code parentSessionId} and its call {@code callId}) and posts {@code prompt} as its first message, in one
     * decision. The child gets the parent's owner and permission {@code mode}, only {@code tools}, and at most
     * {@code maxIterations} model calls. Sent to a session that exists already, it changes nothing.
     */
    @WireType("start_sub_agent.v1")
    record StartSubAgent(String parentSessionId, String callId, String title, String prompt, List<String> tools,
                         int maxIterations, PermissionMode mode, boolean incognito) implements SessionInput {
        public StartSubAgent {
            tools = tools == null ? List.of() : List.copyOf(tools);
        }

        /** As sent before an incognito parent's children were incognito too: not incognito. */
        public StartSubAgent(String parentSessionId, String callId, String title, String prompt, List<String> tools,
                             int maxIterations, PermissionMode mode) {
            this(parentSessionId, callId, title, prompt, tools, maxIterations, mode, false);
        }
    }

    /**
     * Written by the orchestrator of a sub-agent, in the transaction that records the child's {@code turn.ended.v1},
     * to the parent's session id: how the child's turn ended ({@code outcome}), its final answer, and the message
     * of a turn that did not complete. The parent records it once as the result of its {@code task} call
     * {@code callId}; a repeat, or one for a call already answered, changes nothing.
     */
    @WireType("record_sub_agent_result.v1")
    record RecordSubAgentResult(String callId, String childSessionId, TurnOutcome outcome, String answer,
                                String message) implements SessionInput {
    }

    /** An input type this code does not know; rejected with a reason, never a crash. */
    record UnknownInput(String type, JsonNode raw) implements SessionInput {
    }
}
