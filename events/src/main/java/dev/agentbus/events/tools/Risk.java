package dev.agentbus.events.tools;

/**
 * How much harm a tool can do, which decides whether it needs a person's approval in a permission mode
 * ({@link dev.agentbus.events.session.PermissionMode#requiresApproval}). docs/tools.md gives every tool's class.
 */
public enum Risk {
    /** Only reads the workspace or the session (read, ls, grep, git_status …). */
    LOW("only reads"),
    /** Changes files in the workspace, with a backup or a checkpoint to undo it (write, edit, delete …). */
    MEDIUM("changes files in the workspace"),
    /** Runs programs, changes git history or reaches the network: effects a checkpoint cannot undo. */
    HIGH("runs commands, changes git history or reaches the network");

    private final String meaning;

    Risk(String meaning) {
        this.meaning = meaning;
    }

    /** What a tool of this class may do, for the reason a person reads in an approval request. */
    public String meaning() {
        return meaning;
    }
}
