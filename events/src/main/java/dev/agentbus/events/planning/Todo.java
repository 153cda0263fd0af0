package dev.agentbus.events.planning;

/**
 * One item of the session's todo list.
 *
 * @param id   its number in the session, 1, 2, 3 … in the order added; never reused
 * @param note the model's last remark on it (what is left, why it was dropped), null when none
 */
public record Todo(int id, String text, TodoStatus status, String note) {

    /** Whether work on it is over, one way or the other. */
    public boolean closed() {
        return status == TodoStatus.DONE || status == TodoStatus.CANCELLED;
    }
}
