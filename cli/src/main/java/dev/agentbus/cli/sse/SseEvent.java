package dev.agentbus.cli.sse;

/**
 * One dispatched server-sent event.
 *
 * @param event       the {@code event:} field, {@code "message"} when the server sent none (as the spec says)
 * @param data        the {@code data:} lines joined with {@code \n}
 * @param lastEventId the last {@code id:} seen on the connection so far (it carries over between events), or ""
 */
public record SseEvent(String event, String data, String lastEventId) {
}
