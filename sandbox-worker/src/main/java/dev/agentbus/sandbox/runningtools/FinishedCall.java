package dev.agentbus.sandbox.runningtools;

import dev.agentbus.sandbox.tools.ToolOutcome;

/**
 * A call that has run, or was given up before it started, waiting for the loop's thread to report it.
 *
 * @param durationMs the call's own time, without its checkpoint
 * @param notRun     given up before it started (its session moved to another worker)
 * @param checkpoint the workspace checkpoint after the call, or null
 * @param contextFiles the workspace's context files, when the call changed them (reported before its result); null
 *                   when they are as last reported
 */
record FinishedCall(TakenCall call, ToolOutcome outcome, long durationMs, boolean notRun, String checkpoint,
                    java.util.List<dev.agentbus.events.session.ContextFile> contextFiles) {

    FinishedCall(TakenCall call, ToolOutcome outcome, long durationMs, boolean notRun, String checkpoint) {
        this(call, outcome, durationMs, notRun, checkpoint, null);
    }

    static FinishedCall notRun(TakenCall call, String reason) {
        return new FinishedCall(call, new ToolOutcome(false, null, reason, null, false), 0, true, null);
    }

    static FinishedCall notRun(TakenCall call) {
        return new FinishedCall(call, new ToolOutcome(false, null, "not run: this session moved to another "
                + "sandbox-worker before the call started; ask for it again", null, false), 0, true, null);
    }
}
