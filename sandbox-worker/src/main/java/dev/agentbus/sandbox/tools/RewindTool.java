package dev.agentbus.sandbox.tools;

import dev.agentbus.sandbox.checkpointing.CheckpointException;
import dev.agentbus.sandbox.checkpointing.Checkpoints;

/**
 * {@code rewind {"checkpoint": ID}}: makes the workspace exactly the files of a checkpoint recorded earlier in the
 * session (see {@link Checkpoints#rewind}). Only a person may run it: a model that could rewind could erase what a
 * person wants to inspect. Like any call that changes files, the rewind is checkpointed after it, so its result
 * carries the checkpoint to rewind to for undoing it.
 */
final class RewindTool implements Tool {
    /** Null on an executor built without checkpoints (tests of other tools). */
    private final Checkpoints checkpoints;

    RewindTool(Checkpoints checkpoints) {
        this.checkpoints = checkpoints;
    }

    @Override
    public ToolOutcome run(Args args, ToolContext ctx) throws ToolFailure {
        if (!ctx.byUser()) {
            return ToolOutcome.failure("rewind can only be run by a person (agentbus rewind), not by the model");
        }
        String checkpoint = args.optionalString("checkpoint").orElse("");
        if (checkpoint.isBlank()) {
            return ToolOutcome.failure("rewind needs {\"checkpoint\": ID}, an id from a tool call's result");
        }
        if (checkpoints == null) {
            return ToolOutcome.failure("rewind failed: this sandbox-worker keeps no workspace checkpoints");
        }
        try {
            Checkpoints.Rewound r = checkpoints.rewind(ctx.spec().userId(), ctx.spec().sessionId(),
                    ctx.spec().workspace(), checkpoint.strip());
            return ToolOutcome.success("restored the workspace to checkpoint " + r.restored() + " (" + r.files()
                    + (r.files() == 1 ? " file)" : " files)"));
        } catch (CheckpointException e) {
            return ToolOutcome.failure("rewind failed: " + e.getMessage());
        }
    }
}
