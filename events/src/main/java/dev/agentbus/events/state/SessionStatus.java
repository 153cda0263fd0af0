package dev.agentbus.events.state;

public enum SessionStatus {
    /** No event folded yet: the session does not exist. */
    NEW,
    /** Created, no turn running: ready for a message. */
    IDLE,
    /** A turn is running: a model call or tool calls are in flight. */
    RUNNING,
    /** A turn is suspended until a time; the scheduler will wake it. */
    WAITING,
    /** A turn is held until a person decides its pending approvals (or they expire). */
    AWAITING_APPROVAL,
    /** Deleted by its owner: it takes no input and is shown to no one. Its log stays until the topic's retention. */
    DELETED
}
