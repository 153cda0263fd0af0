package dev.agentbus.cli.chat;

import dev.agentbus.api.PlanningView;
import dev.agentbus.api.SessionDetails;
import dev.agentbus.api.SessionDetails.PendingApproval;
import dev.agentbus.cli.Printer;
import dev.agentbus.cli.chat.SlashCommand.Refused;
import dev.agentbus.cli.gateway.GatewayClient;
import dev.agentbus.cli.render.PlanningSection;

import java.util.Locale;

import static dev.agentbus.cli.chat.CurrentSession.pending;

/**
 * Chat's planning commands: {@code /plan} shows the plan, todos and task state, {@code /plan approve} and
 * {@code /plan reject [NOTE]} decide a plan that waits, {@code /todo} shows the todo list.
 */
final class PlanCommands {
    private final CurrentSession current;
    private final Printer printer;
    private final GatewayClient gateway;
    private final ApprovalCommands approvals;

    PlanCommands(CurrentSession current, Printer printer, GatewayClient gateway, ApprovalCommands approvals) {
        this.current = current;
        this.printer = printer;
        this.gateway = gateway;
        this.approvals = approvals;
    }

    /** {@code /plan}, {@code /plan approve}, {@code /plan reject [NOTE]}; false means leave (Ctrl-C twice in the turn). */
    boolean plan(String argument) {
        String[] parts = argument.split("\\s+", 2);
        String verb = parts[0].toLowerCase(Locale.ROOT);
        String note = parts.length > 1 ? parts[1].strip() : "";
        switch (verb) {
            case "" -> {
                showPlanning();
                return true;
            }
            case "approve" -> {
                if (!note.isEmpty()) {
                    throw new Refused("usage: /plan approve (a note goes with /plan reject NOTE)");
                }
                return decidePlan("approve", null);
            }
            case "reject" -> {
                return decidePlan("reject", note.isEmpty() ? null : note);
            }
            default -> throw new Refused("usage: /plan, /plan approve or /plan reject [NOTE]");
        }
    }

    void todos() {
        PlanningView p = gateway.sessions().planning(current.require());
        if (p.todos() == null || p.todos().isEmpty()) {
            printer.println("no todos yet");
            return;
        }
        new PlanningSection(printer).todos(p.todos());
    }

    private void showPlanning() {
        String session = current.require();
        PlanningView p = gateway.sessions().planning(session);
        PlanningSection section = new PlanningSection(printer);
        if (p.plan() == null && (p.todos() == null || p.todos().isEmpty()) && p.taskState() == null) {
            printer.println("no plan, todos or task state yet" + (p.planFirst()
                    ? " · plan-first: the agent proposes a plan before it uses other tools" : ""));
            return;
        }
        if (p.planFirst()) {
            printer.println(printer.dim("plan-first: no tool but the planning tools runs without a plan you approved"));
        }
        section.planDecidedWith(p.plan(), "/plan approve, or /plan reject [NOTE]");
        section.todos(p.todos());
        section.taskState(p.taskState());
    }

    /** Decides the plan that waits (its plan_create call's approval), then follows the turn as /approve does. */
    private boolean decidePlan(String decision, String note) {
        String session = current.require();
        SessionDetails state = current.state();
        PlanningView.Plan plan = state.plan();
        PendingApproval target = plan == null || plan.callId() == null ? null : pending(state).stream()
                .filter(a -> a.callId().equals(plan.callId())).findFirst().orElse(null);
        if (target == null) {
            throw new Refused("no plan waits for your approval in session " + session
                    + (plan == null ? "" : " (plan #" + plan.number() + " is " + plan.status() + ")"));
        }
        gateway.turns().decidePlan(session, decision, note);
        return approvals.followAfterDecision(state, target);
    }
}
