package dev.agentbus.api;

/** The {@code status} of an answer the gateway gave before the work it asked for was recorded (202 Accepted). */
final class Pending {
    static final String STATUS = "pending";

    private Pending() {
    }
}
