package dev.agentbus.testkit.model;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the scripted model server will answer, in order: one main FIFO queue of steps, and a queue of replies of
 * its own for each conversation told apart by a mark in its first user message.
 *
 * <p>Guarded by the server's lock, the same one {@link Recorder} uses, so that request number n always meets
 * script step n.
 */
final class Script {

    /** One scripted answer to one chat request. */
    sealed interface Step permits Reply, Failure, RawJson, RawStream {}

    record Reply(ScriptedReply reply) implements Step {}

    /** HTTP {@code status} with {@code body}, sent as JSON when it parses as JSON, else as plain text. */
    record Failure(int status, String body) implements Step {}

    /** Exactly this JSON body, whatever the request asked for. */
    record RawJson(String json) implements Step {}

    /** Exactly these {@code data:} event payloads, then {@code data: [DONE]}. */
    record RawStream(List<String> events) implements Step {}

    /**
     * The replies and the request count of one marked conversation. By default each request takes the next reply;
     * {@code byHistory}, the reply is the one for the conversation's position (how many assistant messages the request
     * already holds), so a request asked again with the same history (a model call made again after a crash or a
     * rebalance, as invariant 3 allows) gets the same answer instead of the next one.
     */
    static final class ConversationQueue {
        private final String mark;
        private final List<ScriptedReply> replies = new ArrayList<>();
        private boolean byHistory;
        private int taken;
        private int requests;

        private ConversationQueue(String mark) {
            this.mark = mark;
        }
    }

    private final Object lock;
    private final Deque<Step> steps = new ArrayDeque<>();
    private final Map<String, ConversationQueue> conversations = new LinkedHashMap<>();
    // Not reset with the script: ids stay unique over a shared server's whole life.
    private final AtomicLong toolCallIds = new AtomicLong();

    Script(Object lock) {
        this.lock = lock;
    }

    void append(Step step) {
        synchronized (lock) {
            steps.addLast(step);
        }
    }

    /** Gives each tool call without an id the next one ({@code call_1}, {@code call_2}, … in script order). */
    ScriptedReply numbered(ScriptedReply reply) {
        return reply.withToolCalls(reply.toolCalls().stream()
                .map(call -> call.id() != null ? call : call.withId("call_" + toolCallIds.incrementAndGet()))
                .toList());
    }

    ConversationQueue conversation(String mark) {
        synchronized (lock) {
            return conversations.computeIfAbsent(mark, ConversationQueue::new);
        }
    }

    void append(ConversationQueue conversation, ScriptedReply reply) {
        ScriptedReply numbered = numbered(reply);
        synchronized (lock) {
            conversation.replies.addLast(numbered);
        }
    }

    int requestCount(ConversationQueue conversation) {
        synchronized (lock) {
            return conversation.requests;
        }
    }

    int remaining(ConversationQueue conversation) {
        synchronized (lock) {
            return conversation.replies.size() - conversation.taken;
        }
    }

    void answerByHistory(ConversationQueue conversation) {
        synchronized (lock) {
            conversation.byHistory = true;
        }
    }

    /** Steps of the main queue not yet consumed. */
    int remaining() {
        synchronized (lock) {
            return steps.size();
        }
    }

    /**
     * Takes the step for this request: its conversation's next reply, if a mark matches its first user message,
     * else the main queue's oldest step; null when that queue is empty.
     */
    Step next(JsonNode request) {
        String firstUserMessage = "";
        for (JsonNode message : request.path("messages")) {
            if ("user".equals(message.path("role").asText())) {
                firstUserMessage = message.path("content").toString();
                break;
            }
        }
        synchronized (lock) {
            for (ConversationQueue conversation : conversations.values()) {
                if (firstUserMessage.contains(conversation.mark)) {
                    conversation.requests++;
                    int index = conversation.byHistory ? assistantMessages(request) : conversation.taken;
                    if (index >= conversation.replies.size()) {
                        return null;
                    }
                    conversation.taken = Math.max(conversation.taken, index + 1);
                    return new Reply(conversation.replies.get(index));
                }
            }
            return steps.pollFirst();
        }
    }

    private static int assistantMessages(JsonNode request) {
        int count = 0;
        for (JsonNode message : request.path("messages")) {
            if ("assistant".equals(message.path("role").asText())) {
                count++;
            }
        }
        return count;
    }

    /** Forgets every step and conversation; handles to old conversations no longer match any request. */
    void clear() {
        synchronized (lock) {
            steps.clear();
            conversations.clear();
        }
    }
}
