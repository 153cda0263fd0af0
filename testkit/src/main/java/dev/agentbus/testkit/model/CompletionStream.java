package dev.agentbus.testkit.model;

import static dev.agentbus.testkit.model.Exchanges.JSON;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Sends a reply as server-sent events shaped like OpenAI's: a role chunk, {@code reasoning_content} deltas, content
 * deltas of a few characters each, tool calls as index/id/name deltas followed by argument pieces, a finish-reason
 * chunk, a usage chunk and {@code data: [DONE]}; or a scripted raw stream as it is. Each event is flushed on its
 * own so a client really receives deltas one by one.
 */
final class CompletionStream {

    private static final int DEFAULT_CHUNK_SIZE = 4;
    private static final byte[] DONE = "data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8);

    private volatile int chunkSize = DEFAULT_CHUNK_SIZE;

    void chunkSize(int characters) {
        if (characters < 1) {
            throw new IllegalArgumentException("chunk size must be at least 1, was " + characters);
        }
        this.chunkSize = characters;
    }

    /**
     * Streams {@code reply}. The usage chunk is sent even without {@code stream_options.include_usage}, because
     * several real servers do so and clients must cope with it; {@code includeUsage} only adds OpenAI's
     * {@code "usage": null} to the other chunks.
     */
    void write(HttpExchange exchange, String id, String model, ScriptedReply reply, ScriptedUsage usage,
               boolean includeUsage) throws IOException, InterruptedException {
        start(exchange);
        OutputStream out = exchange.getResponseBody();
        Duration pause = reply.chunkDelay();

        ObjectNode first = JSON.createObjectNode().put("role", "assistant").put("content", "");
        send(out, CompletionJson.chunk(id, model, first, null, includeUsage), Duration.ZERO);

        if (reply.reasoning() != null) {
            for (String piece : slice(reply.reasoning())) {
                ObjectNode delta = JSON.createObjectNode().put("reasoning_content", piece);
                send(out, CompletionJson.chunk(id, model, delta, null, includeUsage), pause);
            }
        }
        List<String> contentPieces = reply.contentChunks() != null ? reply.contentChunks()
                : reply.content() == null ? List.of() : slice(reply.content());
        for (String piece : contentPieces) {
            send(out, CompletionJson.chunk(id, model, JSON.createObjectNode().put("content", piece), null, includeUsage),
                    pause);
        }
        for (int index = 0; index < reply.toolCalls().size(); index++) {
            ScriptedToolCall call = reply.toolCalls().get(index);
            // As OpenAI does: the first delta of a call carries index, id, type and name with empty
            // arguments; later deltas carry only the index and a piece of the arguments.
            ObjectNode head = JSON.createObjectNode();
            ObjectNode headCall = head.putArray("tool_calls").addObject()
                    .put("index", index).put("id", call.id()).put("type", "function");
            headCall.putObject("function").put("name", call.name()).put("arguments", "");
            send(out, CompletionJson.chunk(id, model, head, null, includeUsage), pause);
            for (String piece : slice(call.argumentsJson())) {
                ObjectNode delta = JSON.createObjectNode();
                delta.putArray("tool_calls").addObject().put("index", index)
                        .putObject("function").put("arguments", piece);
                send(out, CompletionJson.chunk(id, model, delta, null, includeUsage), pause);
            }
        }
        send(out, CompletionJson.chunk(id, model, JSON.createObjectNode(), reply.effectiveFinishReason(), includeUsage),
                pause);

        if (!usage.omitted()) {
            send(out, CompletionJson.usageChunk(id, model, usage), Duration.ZERO);
        }
        out.write(DONE);
        out.flush();
    }

    /** Streams exactly these event payloads, each as one {@code data:} event, then {@code data: [DONE]}. */
    void writeRaw(HttpExchange exchange, List<String> events) throws IOException {
        start(exchange);
        OutputStream out = exchange.getResponseBody();
        for (String event : events) {
            out.write(("data: " + event + "\n\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
        }
        out.write(DONE);
        out.flush();
    }

    static void pause(Duration duration) throws InterruptedException {
        if (!duration.isZero() && !duration.isNegative()) {
            Thread.sleep(duration);
        }
    }

    private static void start(HttpExchange exchange) throws IOException {
        exchange.getResponseHeaders().add("Content-Type", "text/event-stream; charset=utf-8");
        exchange.getResponseHeaders().add("Cache-Control", "no-cache");
        exchange.sendResponseHeaders(200, 0); // 0 = chunked: the length is unknown while streaming
    }

    private static void send(OutputStream out, ObjectNode chunk, Duration pauseBefore)
            throws IOException, InterruptedException {
        pause(pauseBefore);
        out.write(("data: " + chunk + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush(); // flush each event so the client really receives deltas one by one
    }

    /** Cuts text into pieces of {@link #chunkSize} code points, never splitting a surrogate pair. */
    private List<String> slice(String text) {
        List<String> pieces = new ArrayList<>();
        int size = chunkSize;
        int start = 0;
        while (start < text.length()) {
            int end = start;
            for (int n = 0; n < size && end < text.length(); n++) {
                end = text.offsetByCodePoints(end, 1);
            }
            pieces.add(text.substring(start, end));
            start = end;
        }
        return pieces;
    }
}
