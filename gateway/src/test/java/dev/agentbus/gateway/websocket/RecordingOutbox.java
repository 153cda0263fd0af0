package dev.agentbus.gateway.websocket;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.Json;

import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** An {@link Outbox} that keeps what would have gone over the wire, as JSON, and how the connection was closed. */
final class RecordingOutbox implements Outbox {
    final BlockingQueue<JsonNode> sent = new LinkedBlockingQueue<>();
    final List<Integer> closeCodes = new CopyOnWriteArrayList<>();

    @Override
    public void send(Reply reply) {
        try {
            sent.add(Json.mapper().readTree(reply.json()));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close(int code, String reason) {
        closeCodes.add(code);
    }

    JsonNode next() throws InterruptedException {
        JsonNode message = sent.poll(5, TimeUnit.SECONDS);
        if (message == null) {
            throw new AssertionError("nothing was sent within 5 s");
        }
        return message;
    }
}
