package dev.agentbus.cli.render;

import dev.agentbus.cli.Printer;
import dev.agentbus.events.session.SessionEvent.ApprovalDecided;
import dev.agentbus.events.session.SessionEvent.ApprovalRequested;

import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What waits for a person in a turn, and how to decide it: calls that need approval, plans that need approval
 * (handed to a {@link PlanReviewer} when there is one), and the lines that say how each was decided. Keeps which
 * calls still wait, so chat knows when to give the prompt back, and which tool each call was, so a decision says
 * what it was about.
 */
final class ApprovalLines {
    private final Printer printer;
    private final boolean quiet;
    private final StreamedText text;

    private final Map<String, String> toolNames = new HashMap<>();
    /** The plan_create calls of plans waiting for approval, with their steps. */
    private final Map<String, List<String>> proposedPlans = new HashMap<>();
    /** The calls of this turn that wait for a person: requested, not decided yet, in the order asked. */
    private final Set<String> pending = new LinkedHashSet<>();
    private PlanReviewer planReviewer;
    /** chat's way of deciding an approval (its slash commands) instead of the approve and deny commands. */
    private boolean chatHints;

    ApprovalLines(Printer printer, boolean quiet, StreamedText text) {
        this.printer = printer;
        this.quiet = quiet;
        this.text = text;
    }

    void reviewPlansWith(PlanReviewer reviewer) {
        this.planReviewer = reviewer;
    }

    void useChatHints() {
        chatHints = true;
    }

    /** A turn already under way: the calls that wait already, and the tools of the calls requested before. */
    void continueTurn(Collection<String> waiting, Map<String, String> tools) {
        pending.addAll(waiting);
        toolNames.putAll(tools);
    }

    /** Which tool a call is, for the line that says how its approval was decided. */
    void named(String callId, String tool) {
        toolNames.put(callId, tool);
    }

    /** A plan_create call whose plan waits for approval, with its steps for the reviewer. */
    void planProposed(String callId, List<String> steps) {
        proposedPlans.put(callId, steps);
    }

    List<String> pending() {
        return List.copyOf(pending);
    }

    /** The turn ended: nothing of it waits any more. */
    void turnEnded() {
        pending.clear();
    }

    /** Says what waits and how to decide it; returns the exit code when a plan reviewer decided and ends our part. */
    Integer requested(String sessionId, ApprovalRequested approval) {
        if (proposedPlans.containsKey(approval.callId())) {
            return planRequested(sessionId, approval);
        }
        toolNames.put(approval.callId(), approval.tool());
        pending.add(approval.callId());
        // Shown even when quiet: the turn cannot go on until someone decides.
        text.endStreaming();
        String args = Text.compactJson(approval.arguments(), ToolLines.ARGS_WIDTH);
        String hint = chatHints
                ? " — /approve, /approve always or /deny [NOTE]  (call " + approval.callId() + "; "
                        + approval.reason() + ")"
                : " — agentbus approve " + sessionId + " " + approval.callId() + "  (or deny; "
                        + approval.reason() + ")";
        printer.println(printer.yellow("⏸ approval needed: " + approval.tool())
                + (args.isEmpty() ? "" : " " + args) + printer.dim(hint));
        return null;
    }

    private Integer planRequested(String sessionId, ApprovalRequested approval) {
        toolNames.put(approval.callId(), "the plan");
        text.endStreaming();
        printer.println(printer.yellow("⏸ the plan waits for approval") + printer.dim(chatHints
                ? " — /plan approve, or /plan reject [NOTE]"
                : " — agentbus approve " + sessionId + " " + approval.callId()
                        + "  (or deny, with --note)"));
        if (planReviewer != null) {
            return planReviewer.review(sessionId, approval.callId(), proposedPlans.get(approval.callId()));
        }
        // No one reviews it here: like any call that waits for a person, it pauses a turn chat streams, so
        // the prompt comes back for /plan approve (before, chat kept streaming a turn nobody could decide).
        pending.add(approval.callId());
        return null;
    }

    void decided(ApprovalDecided decided) {
        pending.remove(decided.callId());
        if (!quiet) {
            text.endStreaming();
            String tool = toolNames.getOrDefault(decided.callId(), decided.callId());
            String line = switch (decided.decision()) {
                case APPROVED -> printer.green("✓ approved: " + tool);
                case ALWAYS -> printer.green("✓ approved: " + tool + " (always, for this session)");
                case DENIED -> printer.red("✗ denied: " + tool);
                case EXPIRED -> printer.red("✗ approval expired: " + tool);
            };
            printer.println(line + printer.dim((decided.decidedBy() == null ? "" : " by " + decided.decidedBy())
                    + (Text.isBlank(decided.note()) ? "" : " : " + decided.note())));
        }
    }
}
