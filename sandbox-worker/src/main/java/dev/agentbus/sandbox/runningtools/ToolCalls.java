package dev.agentbus.sandbox.runningtools;

import dev.agentbus.sandbox.tools.ToolOutcome;

import java.util.function.Consumer;

/** Runs the tool of a call taken on; never throws: every failure is an outcome to report. */
@FunctionalInterface
interface ToolCalls {
    /**
     * @param liveOutput receives output text while the tool runs, for the session-stream topic
     */
    ToolOutcome run(TakenCall call, Consumer<String> liveOutput);
}
