package dev.agentbus.sandbox.tools;

/**
 * A tool call the tool refuses or cannot do (bad argument, missing file, text not found …). Thrown inside the tools
 * package only, and turned into {@code ToolOutcome.failure(message)} by {@link ToolExecutor}: an error the model
 * can correct is a result, not a crash.
 */
final class ToolFailure extends Exception {
    ToolFailure(String message) {
        super(message);
    }
}
