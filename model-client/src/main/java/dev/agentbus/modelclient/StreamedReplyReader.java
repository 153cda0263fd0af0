package dev.agentbus.modelclient;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.BufferedReader;
import java.io.IOException;

import static dev.agentbus.modelclient.ReplyJson.arguments;
import static dev.agentbus.modelclient.ReplyJson.text;

/**
 * Reads a streamed chat completion (server-sent events, one JSON chunk per event) into a {@link ReplyAssembler} as
 * the chunks arrive: content and reasoning deltas, tool calls in fragments, the usage that comes last, and an error
 * a server reports inside a stream that had already begun with HTTP 200. Apart from {@link WholeReplyReader}
 * because the wire shapes differ (a {@code delta} per chunk against one {@code message}); the assembler makes both
 * give the same reply.
 */
final class StreamedReplyReader {
    private final CallFailures failures;

    StreamedReplyReader(CallFailures failures) {
        this.failures = failures;
    }

    void read(ReplyBody answer, ReplyAssembler reply, String what) throws ModelCallException {
        try (BufferedReader lines = answer.lines()) {
            StringBuilder data = new StringBuilder();
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.isEmpty()) {
                    if (!data.isEmpty() && !event(data.toString(), reply, what)) {
                        return;
                    }
                    data.setLength(0);
                } else if (line.startsWith("data:")) {
                    if (!data.isEmpty()) {
                        data.append('\n');
                    }
                    data.append(line.substring(line.startsWith("data: ") ? 6 : 5));
                }
                // other fields (event:, id:, retry:) and comments (":") carry nothing a reply needs
            }
            if (!data.isEmpty()) {
                event(data.toString(), reply, what);
            }
        } catch (IOException e) {
            throw answer.readFailure(e);
        }
    }

    /** One server-sent event of a streamed reply; false at {@code [DONE]}. */
    private boolean event(String data, ReplyAssembler reply, String what) throws ModelCallException {
        if (data.strip().equals("[DONE]")) {
            return false;
        }
        JsonNode chunk = ReplyJson.parse(data, what, failures);
        if (chunk.has("error")) {
            // The stream itself began with HTTP 200, so there is no error status to report.
            throw new ModelCallException(failures.server() + " reported an error while streaming the " + what + ": "
                    + failures.serverWords(CallFailures.errorText(chunk)), null);
        }
        reply.model(text(chunk.get("model")));
        reply.usage(chunk.get("usage"));
        for (JsonNode choice : chunk.path("choices")) {
            if (choice.path("index").asLong(0) != 0) {
                continue; // only one choice is ever asked for
            }
            JsonNode delta = choice.path("delta");
            if (delta.isObject()) {
                reply.reasoningFrom(delta);
                if (delta.path("content").isTextual()) {
                    reply.content(delta.get("content").asText());
                }
                for (JsonNode call : delta.path("tool_calls")) {
                    JsonNode function = call.path("function");
                    reply.toolCall(call.path("index").isNumber() ? call.get("index").asLong() : null,
                            text(call.get("id")), text(function.get("name")), arguments(function.get("arguments")));
                }
            }
            reply.finishReason(text(choice.get("finish_reason")));
        }
        return true;
    }
}
