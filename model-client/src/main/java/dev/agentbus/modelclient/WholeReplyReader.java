package dev.agentbus.modelclient;

import com.fasterxml.jackson.databind.JsonNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static dev.agentbus.modelclient.ReplyJson.arguments;
import static dev.agentbus.modelclient.ReplyJson.text;

/**
 * Reads a chat completion that came in one piece (streaming off) into a {@link ReplyAssembler}, as one big piece of
 * each kind, so that the reply is the same as a streamed one's. Apart from {@link StreamedReplyReader} because the
 * wire shape differs: one {@code message} with whole tool calls, some of which a server may mark as not functions.
 */
final class WholeReplyReader {
    private static final Logger LOG = LoggerFactory.getLogger(WholeReplyReader.class);

    private final CallFailures failures;
    private final String baseUrl;

    WholeReplyReader(CallFailures failures, String baseUrl) {
        this.failures = failures;
        this.baseUrl = baseUrl;
    }

    void read(String body, ReplyAssembler reply, String what) throws ModelCallException {
        JsonNode completion = ReplyJson.parse(body, what, failures);
        reply.model(text(completion.get("model")));
        reply.usage(completion.get("usage"));
        JsonNode choice = completion.path("choices").path(0);
        if (choice.isMissingNode()) {
            throw failures.unreadable(what, "the reply has no choices");
        }
        JsonNode message = choice.get("message");
        if (message == null || !message.isObject()) {
            throw failures.unreadable(what, "the reply's choice has no message");
        }
        reply.reasoningFrom(message);
        if (message.path("content").isTextual()) {
            reply.content(message.get("content").asText());
        }
        long index = 0;
        for (JsonNode call : message.path("tool_calls")) {
            String type = text(call.get("type"));
            if (type != null && !type.equals("function")) {
                LOG.warn("ignoring a {} (non-function) tool call from {}: {}", type, baseUrl, call);
                continue;
            }
            // A server that leaves "type" out still means a function call.
            JsonNode function = call.path("function");
            reply.toolCall(index++, text(call.get("id")), text(function.get("name")),
                    arguments(function.get("arguments")));
        }
        reply.finishReason(text(choice.get("finish_reason")));
    }
}
