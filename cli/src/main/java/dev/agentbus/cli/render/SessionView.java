package dev.agentbus.cli.render;

import dev.agentbus.api.ApiJson;
import dev.agentbus.api.SessionDetails;
import dev.agentbus.cli.Printer;
import dev.agentbus.cli.gateway.GatewayException;

import java.io.IOException;
import java.util.List;

/**
 * Renders a session's {@link SessionDetails} (the gateway's answer, or a log replayed here) for people.
 *
 * <p>The answer is read tolerantly (invariant 6): a CLI older or newer than its gateway ignores fields it does not
 * know and shows what it can. A message's kind is its {@code kind} field; a gateway from before that field existed
 * is read by shape (a callId makes a tool result, reasoning or toolCalls an assistant message, plain text a user
 * message).
 */
public final class SessionView {
    private static final int TOOL_LINES = 10;
    private static final int WIDTH = 160;

    private final Printer p;

    public SessionView(Printer printer) {
        this.p = printer;
    }

    /** The gateway's GET /api/v1/sessions/{id} answer, or a PROTOCOL error. */
    public static SessionDetails parse(String body) {
        try {
            SessionDetails state = ApiJson.read(body, SessionDetails.class);
            if (state != null) {
                return state;
            }
        } catch (IOException unreadable) {
            // reported below
        }
        throw new GatewayException(GatewayException.Kind.PROTOCOL, 200,
                "the gateway sent a session state that is not a JSON object");
    }

    public void render(SessionDetails s) {
        String title = s.title();
        p.println(p.bold(Text.isBlank(title) ? "(untitled)" : title) + "  " + p.dim(s.sessionId()));
        String outcome = s.lastOutcome();
        field("status", s.status() + (outcome == null ? "" : " · last turn " + outcome));
        field("created", Text.localTime(s.createdAt()) + " · updated " + Text.localTime(s.updatedAt())
                + " · seq " + s.lastSeq());
        String model = s.lastModel();
        field("turns", s.turns() + " · model calls " + s.modelCalls() + (model == null ? "" : " · model " + model));
        if (s.usage() != null) {
            field("tokens", s.usage().promptTokens() + " prompt · " + s.usage().completionTokens() + " completion · "
                    + s.usage().totalTokens() + " total");
        } else {
            field("tokens", "0 prompt · 0 completion · 0 total");
        }
        // The session's own model and sampling, when it chose any (else the user's and the installation's apply).
        if (s.model() != null && s.model().chosen() != null) {
            field("model", ModelText.of(s.model().chosen())
                    + (s.model().changedBy() == null ? "" : p.dim(" · chosen by " + s.model().changedBy())));
        }
        SessionDetails.PendingWait wait = s.pendingWait();
        if (wait != null) {
            field("waiting", "until " + Text.localTime(wait.until())
                    + (Text.isBlank(wait.reason()) ? "" : " : " + wait.reason()));
        }
        // Only when it asks for approvals: auto is how every session ran before modes existed.
        if (s.permissionMode() != null && !"auto".equalsIgnoreCase(s.permissionMode())) {
            field("mode", s.permissionMode() + (s.alwaysAllowed() == null || s.alwaysAllowed().isEmpty() ? ""
                    : " · always allowed: " + String.join(", ", s.alwaysAllowed())));
        }
        if (s.pendingApprovals() != null) {
            for (SessionDetails.PendingApproval a : s.pendingApprovals()) {
                p.println(p.yellow(pad("approval")) + a.tool() + " " + Text.compactJson(a.arguments(), 120)
                        + p.dim(" · " + a.risk() + " risk · expires " + Text.localTime(a.expiresAt())
                        + " — agentbus approve " + s.sessionId() + " " + a.callId()));
            }
        }
        String error = s.lastError();
        if (!Text.isBlank(error)) {
            p.println(p.red(pad("error")) + Text.oneLine(error, 300));
        }

        if (s.planFirst()) {
            field("plan", "plan-first: tools wait for a plan you approved");
        }
        if (s.plan() != null || (s.todos() != null && !s.todos().isEmpty()) || s.taskState() != null) {
            PlanningSection planning = new PlanningSection(p);
            p.println("");
            planning.plan(s.plan(), s.sessionId());
            planning.todos(s.todos());
            planning.taskState(s.taskState());
        }

        if (s.messages() != null && !s.messages().isEmpty()) {
            p.println("");
            p.println(p.bold("Messages"));
            for (SessionDetails.Message m : s.messages()) {
                message(m);
            }
        }

        if (s.toolCalls() != null && !s.toolCalls().isEmpty()) {
            p.println("");
            p.println(p.bold("Tool calls"));
            for (SessionDetails.ToolCall call : s.toolCalls().values()) {
                toolCall(call);
            }
        }
    }

    private void message(SessionDetails.Message m) {
        switch (kindOf(m)) {
            case "user" -> block(p.green("you ▸ "), m.text());
            case "assistant" -> {
                String reasoning = m.reasoning();
                if (!Text.isBlank(reasoning)) {
                    // Marked and dimmed: reasoning is kept in the log but never sent back to the model.
                    for (String line : Text.lines(reasoning.strip())) {
                        p.println(p.dim("  ┊ reasoning: " + line));
                    }
                }
                String content = m.content();
                if (!Text.isBlank(content)) {
                    block(p.cyan("assistant ▸ "), content);
                }
                List<SessionDetails.AskedCall> calls = m.toolCalls() == null ? List.of() : m.toolCalls();
                for (SessionDetails.AskedCall call : calls) {
                    p.println("  " + p.cyan("→ " + call.name()) + " "
                            + p.dim(Text.compactJson(call.arguments(), 200)));
                }
            }
            case "tool" -> {
                List<String> lines = Text.lines(m.content());
                String head = p.dim("tool " + m.name() + " ▸ ");
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
            default -> block(p.yellow("notice ▸ "), m.text());
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

    private void toolCall(SessionDetails.ToolCall c) {
        String status = String.valueOf(c.status());
        String mark;
        if (c.interrupted()) {
            mark = p.red("✗ interrupted");
        } else if ("COMPLETED".equals(status)) {
            mark = Boolean.TRUE.equals(c.ok()) ? p.green("✓ ok") : p.red("✗ failed");
        } else {
            mark = p.yellow("… " + status.toLowerCase());
        }
        String line = "  " + mark + "  " + p.cyan(String.valueOf(c.name())) + " "
                + p.dim(Text.compactJson(c.arguments(), 120));
        if ("COMPLETED".equals(status)) {
            line += p.dim("  " + c.durationMs() + " ms");
        }
        p.println(line);
        if (!Text.isBlank(c.error())) {
            p.println("      " + p.red(Text.oneLine(c.error(), 200)));
        }
    }

    /** user, assistant, tool or notice: see the class comment for why this is inferred. */
    static String kindOf(SessionDetails.Message m) {
        if (m.kind() != null) {
            String k = m.kind().toLowerCase();
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
        if (m.callId() != null) {
            return "tool";
        }
        if (m.toolCalls() != null || m.reasoning() != null || m.content() != null) {
            return "assistant";
        }
        // A notice has the same shape as a user message. The fold writes exactly one kind of notice today (the end
        // of a wait), so recognise its wording rather than show the platform's words as the person's.
        String text = m.text();
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
