package dev.agentbus.testkit.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code POST /v1/chat/completions}: records the request, takes its script step and answers it, as one JSON
 * completion or, when the request asks for {@code "stream": true}, as a {@link CompletionStream}. Counts answers
 * finished and answers the client hung up on.
 */
final class ChatCompletionsRoute {

    private final String modelName;
    private final Object lock;
    private final Script script;
    private final Recorder recorder;
    private final CompletionStream stream;
    private final AtomicLong completionIds = new AtomicLong();

    ChatCompletionsRoute(String modelName, Object lock, Script script, Recorder recorder, CompletionStream stream) {
        this.modelName = modelName;
        this.lock = lock;
        this.script = script;
        this.recorder = recorder;
        this.stream = stream;
    }

    void handle(HttpExchange exchange) throws IOException, InterruptedException {
        try {
            answer(exchange);
        } catch (IOException e) {
            // The client hung up before the answer was complete: a stopped stream, a time-out.
            recorder.hungUp();
            throw e;
        } finally {
            exchange.close();
            recorder.chatAnswerFinished();
        }
    }

    private void answer(HttpExchange exchange) throws IOException, InterruptedException {
        String body = Exchanges.body(exchange);
        JsonNode request = Exchanges.parse(body);
        boolean wellFormed = request != null && request.isObject();
        Script.Step step;
        int number;
        // Recording and taking the step under one lock, so that request number n always meets script step n.
        synchronized (lock) {
            number = recorder.chatRequest(request == null ? TextNode.valueOf(body) : request,
                    exchange.getRequestHeaders().getFirst("Authorization"));
            // A malformed request does not consume a step: the script describes model answers, and a
            // real server would reject such a request before the model ever saw it.
            step = wellFormed ? script.next(request) : null;
        }
        if (!wellFormed) {
            Exchanges.sendError(exchange, 400, "request body is not a JSON object", "invalid_request_error", null);
            return;
        }
        switch (step) {
            case null -> Exchanges.sendError(exchange, 500,
                    "script exhausted: request #" + number + " arrived but no scripted reply is left",
                    "server_error", "script_exhausted");
            case Script.Failure failure -> Exchanges.sendRaw(exchange, failure.status(), failure.body());
            case Script.RawJson raw -> Exchanges.sendJson(exchange, 200, raw.json());
            case Script.RawStream raw -> stream.writeRaw(exchange, raw.events());
            case Script.Reply scripted -> reply(exchange, request, body, scripted.reply());
        }
    }

    private void reply(HttpExchange exchange, JsonNode request, String body, ScriptedReply reply)
            throws IOException, InterruptedException {
        CompletionStream.pause(reply.delay());
        String model = request.path("model").asText("");
        if (model.isBlank()) {
            model = modelName;
        }
        ScriptedUsage usage = reply.usage() != null ? reply.usage() : estimateUsage(body, reply);
        String id = "chatcmpl-scripted-" + completionIds.incrementAndGet();
        if (request.path("stream").asBoolean(false)) {
            boolean includeUsage = request.path("stream_options").path("include_usage").asBoolean(false)
                    && !usage.omitted();
            stream.write(exchange, id, model, reply, usage, includeUsage);
        } else {
            Exchanges.sendJson(exchange, 200, CompletionJson.completion(id, model, reply, usage).toString());
        }
    }

    /** Roughly four characters per token, like the usual rule of thumb; only has to be plausible. */
    private static ScriptedUsage estimateUsage(String requestBody, ScriptedReply reply) {
        long replyChars = length(reply.content()) + length(reply.reasoning());
        for (ScriptedToolCall call : reply.toolCalls()) {
            replyChars += call.name().length() + call.argumentsJson().length();
        }
        return ScriptedUsage.of(Math.max(1, requestBody.length() / 4), Math.max(1, replyChars / 4));
    }

    private static long length(String s) {
        return s == null ? 0 : s.length();
    }
}
