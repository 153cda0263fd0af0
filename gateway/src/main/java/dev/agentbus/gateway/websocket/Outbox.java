package dev.agentbus.gateway.websocket;

/** Where a connection's messages go: its WebSocket session, or a test's list. Safe to call from any thread. */
interface Outbox {
    void send(Reply reply);

    /** Closes the connection with a WebSocket close code and a short reason (at most 123 bytes). */
    void close(int code, String reason);
}
