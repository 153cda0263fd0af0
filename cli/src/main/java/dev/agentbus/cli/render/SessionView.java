package dev.agentbus.cli.render;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.cli.Printer;
import dev.agentbus.cli.gateway.GatewayException;
import dev.agentbus.events.Json;

import java.io.IOException;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Renders the gateway's SessionState JSON for people.
 *
 * <p>It reads the JSON as a tree rather than binding it to {@code SessionState}: a CLI that is older or newer than
 * its gateway should still show what it can (tolerant reading, invariant 6), not fail on one field it does not know.
 * A message's kind is its {@code kind} field; a gateway from before that field existed is read by shape (a callId
 * makes a tool result, reasoning or toolCalls an assistant message, plain text a user message).
 */
public final class SessionView {
    private static final int TOOL_LINES = 10;
    private static final int WIDTH = 160;

    private final Printer p;

    public SessionView(Printer printer) {
        this.p = printer;
    }

    /** The gateway's GET /api/v1/sessions/{id} answer as a JSON object, or a PROTOCOL error. */
    public static JsonNode parse(String body) {
        JsonNode state;
        try {
            state = Json.mapper().readTree(body);
        } catch (IOException e) {
            state = null;
        }
        if (state == null || !state.isObject()) {
            throw new GatewayException(GatewayException.Kind.PROTOCOL, 200,
                    "the gateway sent a session state that is not a JSON object");
        }
        return state;
    }

    public void render(JsonNode s) {
        String title = Text.text(s, "title");
        p.println(p.bold(Text.isBlank(title) ? "(untitled)" : title) + "  " + p.dim(Text.text(s, "sessionId")));
        String status = String.valueOf(Text.text(s, "status"));
        String outcome = Text.text(s, "lastOutcome");
        field("status", status + (outcome == null ? "" : " · last turn " + outcome));
        field("created", Text.localTime(Text.instant(s.get("createdAt")))
                + " · updated " + Text.localTime(Text.instant(s.get("updatedAt")))
                + " · seq " + s.path("lastSeq").asLong());
        String model = Text.text(s, "lastModel");
        field("turns", s.path("turns").asInt() + " · model calls " + s.path("modelCalls").asInt()
                + (model == null ? "" : " · model " + model));
        JsonNode usage = s.path("usage");
        field("tokens", usage.path("promptTokens").asLong() + " prompt · " + usage.path("completionTokens").asLong()
                + " completion · " + usage.path("totalTokens").asLong() + " total");
        JsonNode wait = s.get("pendingWait");
        if (wait != null && wait.isObject()) {
            String reason = Text.text(wait, "reason");
            field("waiting", "until " + Text.localTime(Text.instant(wait.get("until")))
                    + (Text.isBlank(reason) ? "" : " : " + reason));
        }
        String error = Text.text(s, "lastError");
        if (!Text.isBlank(error)) {
            p.println(p.red(pad("error")) + Text.oneLine(error, 300));
        }

        JsonNode messages = s.path("messages");
        if (messages.isArray() && !messages.isEmpty()) {
            p.println("");
            p.println(p.bold("Messages"));
            for (JsonNode m : messages) {
                message(m);
            }
        }

        JsonNode calls = s.path("toolCalls");
        if (calls.isObject() && !calls.isEmpty()) {
            p.println("");
            p.println(p.bold("Tool calls"));
            Iterator<Map.Entry<String, JsonNode>> it = calls.fields();
            while (it.hasNext()) {
                toolCall(it.next().getValue());
            }
        }
    }

    private void message(JsonNode m) {
        switch (kindOf(m)) {
            case "user" -> block(p.green("you ▸ "), Text.text(m, "text"));
            case "assistant" -> {
                String reasoning = Text.text(m, "reasoning");
                if (!Text.isBlank(reasoning)) {
                    // Marked and dimmed: reasoning is kept in the log but never sent back to the model.
                    for (String line : Text.lines(reasoning.strip())) {
                        p.println(p.dim("  ┊ reasoning: " + line));
                    }
                }
                String content = Text.text(m, "content");
                if (!Text.isBlank(content)) {
                    block(p.cyan("assistant ▸ "), content);
                }
                for (JsonNode call : m.path("toolCalls")) {
                    p.println("  " + p.cyan("→ " + Text.text(call, "name")) + " "
                            + p.dim(Text.compactJson(Text.text(call, "arguments"), 200)));
                }
            }
            case "tool" -> {
                List<String> lines = Text.lines(Text.text(m, "content"));
                String head = p.dim("tool " + Text.text(m, "name") + " ▸ ");
                if (lines.isEmpty()) {
                    p.println(head + p.dim("(no output)"));
                    return;
                }
                p.println(head + Text.cut(lines.get(0), WIDTH));
                int shown = Math.min(lines.size(), TOOL_LINES);
                for (int i = 1; i < shown; i++) {
                    p.println("    " + Text.cut(lines.get(i), WIDTH));
                }
                if (lines.size() > shown) {
                    p.println(p.dim("    … " + (lines.size() - shown) + " more lines (agentbus show --json)"));
                }
            }
            default -> block(p.yellow("notice ▸ "), Text.text(m, "text"));
        }
    }

    private void block(String head, String text) {
        List<String> lines = Text.lines(text == null ? "" : text.strip());
        if (lines.isEmpty()) {
            p.println(head);
            return;
        }
        p.println(head + lines.get(0));
        for (int i = 1; i < lines.size(); i++) {
            p.println("    " + lines.get(i));
        }
    }

    private void toolCall(JsonNode c) {
        String status = String.valueOf(Text.text(c, "status"));
        String mark;
        if (c.path("interrupted").asBoolean(false)) {
            mark = p.red("✗ interrupted");
        } else if ("COMPLETED".equals(status)) {
            mark = c.path("ok").asBoolean(false) ? p.green("✓ ok") : p.red("✗ failed");
        } else {
            mark = p.yellow("… " + status.toLowerCase());
        }
        String line = "  " + mark + "  " + p.cyan(String.valueOf(Text.text(c, "name"))) + " "
                + p.dim(Text.compactJson(Text.text(c, "arguments"), 120));
        if ("COMPLETED".equals(status)) {
            line += p.dim("  " + c.path("durationMs").asLong() + " ms");
        }
        p.println(line);
        String error = Text.text(c, "error");
        if (!Text.isBlank(error)) {
            p.println("      " + p.red(Text.oneLine(error, 200)));
        }
    }

    /** user, assistant, tool or notice: see the class comment for why this is inferred. */
    static String kindOf(JsonNode m) {
        for (String field : List.of("kind", "role", "type")) {
            String v = Text.text(m, field);
            if (v != null) {
                String k = v.toLowerCase();
                if (k.contains("user")) {
                    return "user";
                }
                if (k.contains("assistant")) {
                    return "assistant";
                }
                if (k.contains("tool")) {
                    return "tool";
                }
                if (k.contains("notice") || k.contains("system")) {
                    return "notice";
                }
            }
        }
        if (m.has("callId")) {
            return "tool";
        }
        if (m.has("toolCalls") || m.has("reasoning") || m.has("content")) {
            return "assistant";
        }
        // A notice has the same shape as a user message. The fold writes exactly one kind of notice today (the end
        // of a wait), so recognise its wording rather than show the platform's words as the person's.
        String text = Text.text(m, "text");
        if (text != null && text.startsWith("The time you waited for has come")) {
            return "notice";
        }
        return "user";
    }

    private void field(String name, String value) {
        p.println(p.dim(pad(name)) + value);
    }

    private static String pad(String name) {
        return String.format("%-9s", name);
    }
}
