package dev.agentbus.events.planning;

import java.time.Instant;
import java.util.List;

/**
 * The checkpoint of a long batch job (LMAgent's task state): what the job is, how many items it has, which are
 * done and which failed, and where it stands. The model writes it with {@code task_state_update} as it goes, reads
 * it back with {@code task_state_get} (after a wait, a compaction or a restart), and renames or drops items with
 * {@code task_reconcile} after it moved files around.
 *
 * @param total     how many items the job has in all; null when not known
 * @param done      the items finished, in the order reported, each once
 * @param failed    the items that failed and are not done, in the order reported, each once
 * @param notes     where the job stands, what comes next
 * @param updatedAt when it was last changed
 */
public record TaskState(String task, Integer total, List<String> done, List<String> failed, String notes,
                        Instant updatedAt) {
    public TaskState {
        done = done == null ? List.of() : List.copyOf(done);
        failed = failed == null ? List.of() : List.copyOf(failed);
    }
}
