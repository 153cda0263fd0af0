package dev.agentbus.api;

import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.PermissionMode;
import dev.agentbus.events.session.SessionEvent.ApprovalRequested;
import dev.agentbus.events.session.SessionEvent.MemoryAttached;
import dev.agentbus.events.session.SessionEvent.ModelCallCompleted;
import dev.agentbus.events.session.SessionEvent.ModelCallFailed;
import dev.agentbus.events.session.SessionEvent.ModelCallStarted;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.SessionForked;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.session.SessionEvent.ToolCallRequested;
import dev.agentbus.events.session.SessionEvent.ToolCallStarted;
import dev.agentbus.events.session.SessionEvent.TurnEnded;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.session.SessionEvent.WaitEnded;
import dev.agentbus.events.session.SessionEvent.WaitScheduled;
import dev.agentbus.events.session.ShellState;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.ToolCallSpec;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.state.SessionFold;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.tools.Risk;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Sessions folded from hand-written logs that between them give every field of the answers a value. */
final class Histories {
    static final String USER = "local";
    static final Instant T0 = Instant.parse("2025-06-02T09:14:01.204377Z");

    private Histories() {
    }

    /**
     * A fork that then ran a turn which ended: every kind of message, tool calls that succeeded, failed, were
     * refused and were run by a person, a shell state, a checkpoint, memory, a failed model call.
     */
    static SessionState finished() {
        SessionState source = fold("ses-src", List.of(new SessionCreated("hello file"),
                new UserMessagePosted("first"), new TurnEnded(TurnOutcome.CANCELLED, null, "cancelled by the user")));
        return fold("ses-1", List.of(
                new SessionForked("ses-src", 3, "ckpt-0", "hello file (fork)", source),
                new UserMessagePosted("create hello.txt containing hi, then show it"),
                new MemoryAttached("Prefers answers in French.", 2),
                new ModelCallStarted("req-1", 1),
                new ModelCallCompleted("req-1", "qwen", null, "Write it first.",
                        List.of(new ToolCallSpec("call_w", "write", "{\"path\":\"hello.txt\",\"content\":\"hi\\n\"}"),
                                new ToolCallSpec("call_s", "shell", "{\"command\":\"cat hello.txt\"}"),
                                new ToolCallSpec("call_x", "shell", "{\"command\":\"rm -rf /\"}")),
                        new TokenUsage(5000, 50, 5050), "tool_calls"),
                new ToolCallRequested("call_w", "write", "{\"path\":\"hello.txt\",\"content\":\"hi\\n\"}"),
                new ToolCallStarted("call_w", "sandbox-worker-0"),
                new ToolCallCompleted("call_w", true, "created hello.txt (3 bytes, 1 line)", null,
                        "--- /dev/null\n+++ b/hello.txt\n@@ -0,0 +1 @@\n+hi\n", false, 12, false, null, "ckpt-1", null),
                new ToolCallRequested("call_s", "shell", "{\"command\":\"cat hello.txt\"}"),
                new ToolCallStarted("call_s", "sandbox-worker-0"),
                new ToolCallCompleted("call_s", true, "hi\nexit code: 0", null, null, true, 48, false,
                        new ShellState("/workspace/src", Map.of("B", "2", "A", "1")), null, null),
                new ToolCallRequested("call_x", "shell", "{\"command\":\"rm -rf /\"}"),
                new ToolCallCompleted("call_x", false, null, "refused", null, false, 0, false, null, null,
                        "deletes the root"),
                new ModelCallStarted("req-2", 2),
                new ModelCallFailed("req-2", "connection reset"),
                new ModelCallStarted("req-3", 3),
                new WaitScheduled("w-1", T0.plusSeconds(60), "the build", null),
                new WaitEnded("w-1"),
                new ModelCallCompleted("req-3", "qwen", "hello.txt contains: hi", null, List.of(),
                        new TokenUsage(682, 33, 715), "stop"),
                new TurnEnded(TurnOutcome.COMPLETED, "hello.txt contains: hi", null),
                new ToolCallRequested("user-1", "upload", "{\"path\":\"in.csv\",\"content_base64\":\"YQ==\"}", null,
                        true),
                new ToolCallCompleted("user-1", true, "uploaded in.csv (1 bytes, sha256 ca97)", null, null, false, 3,
                        false)));
    }

    /** A session in the middle of a turn that waits for a time the model gave with the wait tool. */
    static SessionState waiting() {
        return fold("ses-2", List.of(
                new SessionCreated("New session"),
                new UserMessagePosted("remind me at ten"),
                new ModelCallStarted("req-1", 1),
                new ModelCallCompleted("req-1", "qwen", "I will wait.", null,
                        List.of(new ToolCallSpec("call_wait", "wait", "{\"seconds\":60}"),
                                new ToolCallSpec("call_r", "read", "{\"path\":\"a\"}")),
                        TokenUsage.ZERO, "tool_calls"),
                new ToolCallRequested("call_r", "read", "{\"path\":\"a\"}"),
                new WaitScheduled("w-9", T0.plusSeconds(3600), "ten o'clock", "call_wait")));
    }

    /** A normal-mode session whose model asked for a command that waits for a person's approval. */
    static SessionState awaitingApproval() {
        return fold("ses-3", List.of(
                new SessionCreated("Clean up", PermissionMode.NORMAL),
                new UserMessagePosted("delete the build output"),
                new ModelCallStarted("req-1", 1),
                new ModelCallCompleted("req-1", "qwen", null, null,
                        List.of(new ToolCallSpec("call_rm", "shell", "{\"command\":\"rm -rf build\"}")),
                        TokenUsage.ZERO, "tool_calls"),
                new ApprovalRequested("call_rm", "shell", "{\"command\":\"rm -rf build\"}", Risk.HIGH,
                        "normal mode: shell runs commands, changes git history or reaches the network (high risk)",
                        T0.plusSeconds(1800))));
    }

    /**
     * A plan-first session whose approved plan is half done: a todo done and one open, a step done with its
     * evidence and one skipped, and a batch job's checkpoint.
     */
    static SessionState planning() {
        return fold("ses-4", List.of(
                new SessionCreated("Resize", PermissionMode.AUTO),
                new SessionEvent.PlanFirstChanged(true, USER),
                new UserMessagePosted("resize the images"),
                new ModelCallStarted("req-1", 1),
                new ModelCallCompleted("req-1", "qwen", null, null,
                        List.of(new ToolCallSpec("call_p", "plan_create", "{\"steps\":[\"list\",\"resize\",\"check\"]}")),
                        TokenUsage.ZERO, "tool_calls"),
                new SessionEvent.PlanCreated(1, "resize", List.of("list", "resize", "check", "report"), "call_p", true),
                new ApprovalRequested("call_p", "plan_create", "{}", Risk.LOW, "plan-first mode", T0.plusSeconds(1800)),
                new SessionEvent.ApprovalDecided("call_p", dev.agentbus.events.session.ApprovalDecision.APPROVED, null,
                        USER),
                new ToolCallCompleted("call_p", true, "The plan is approved.", null, null, false, 0, false),
                new SessionEvent.TodoAdded(1, "list the images"),
                new SessionEvent.TodoUpdated(1, dev.agentbus.events.planning.TodoStatus.DONE, null, "12 found"),
                new SessionEvent.TodoAdded(2, "resize them"),
                new SessionEvent.PlanStepCompleted(1, 1, "ls: 12 files"),
                new SessionEvent.PlanAdvanced(1, 2, "done by the build already"),
                new SessionEvent.TaskStateUpdated("resize images", 12, List.of("a.png", "b.png"), List.of("c.png"),
                        "c.png is corrupt")));
    }

    static SessionState fold(String sessionId, List<SessionEvent> events) {
        List<EventEnvelope> log = new ArrayList<>();
        for (SessionEvent e : events) {
            long seq = log.size() + 1;
            log.add(new EventEnvelope("evt-" + seq, sessionId, seq, T0.plusMillis(seq * 1500), "inp-" + seq, USER, e));
        }
        return SessionFold.fold(sessionId, log);
    }
}
