package dev.agentbus.sandbox.runningtools;

import dev.agentbus.eventbus.redacting.SecretRedactor;
import dev.agentbus.sandbox.tools.ToolOutcome;

import java.util.function.Consumer;

/**
 * Secrets never enter the log: each live output chunk, and the outcome's output, error and diff, are masked by
 * {@link SecretRedactor} before they leave the tool. Tool arguments are not masked: the tool needs them as written.
 */
final class RedactingToolCalls implements ToolCalls {
    private final ToolCalls calls;

    RedactingToolCalls(ToolCalls calls) {
        this.calls = calls;
    }

    @Override
    public ToolOutcome run(TakenCall call, Consumer<String> liveOutput) {
        return redacted(calls.run(call, chunk -> liveOutput.accept(SecretRedactor.redact(chunk))));
    }

    static ToolOutcome redacted(ToolOutcome o) {
        return new ToolOutcome(o.ok(), SecretRedactor.redact(o.output()), SecretRedactor.redact(o.error()),
                SecretRedactor.redact(o.diff()), o.truncated(), o.shell(), o.refusal(), o.changedPaths());
    }
}
