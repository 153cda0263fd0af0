package dev.agentbus.orchestrator.deciding.planning;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.planning.Plan;
import dev.agentbus.events.planning.Planning;
import dev.agentbus.events.planning.PlanningFold;
import dev.agentbus.events.planning.StepStatus;
import dev.agentbus.events.planning.TaskState;
import dev.agentbus.events.planning.Todo;
import dev.agentbus.events.planning.TodoStatus;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.PlanningEvent;
import dev.agentbus.events.session.SessionEvent.ApprovalRequested;
import dev.agentbus.events.session.SessionEvent.PlanAborted;
import dev.agentbus.events.session.SessionEvent.PlanAdvanced;
import dev.agentbus.events.session.SessionEvent.PlanCreated;
import dev.agentbus.events.session.SessionEvent.PlanStepCompleted;
import dev.agentbus.events.session.SessionEvent.TaskReconciled;
import dev.agentbus.events.session.SessionEvent.TaskStateUpdated;
import dev.agentbus.events.session.SessionEvent.TodoAdded;
import dev.agentbus.events.session.SessionEvent.TodoUpdated;
import dev.agentbus.events.session.SessionEvent.ToolCallCompleted;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.events.tools.PlanningTools;
import dev.agentbus.events.tools.PlanningTools.Limits;
import dev.agentbus.events.tools.Risk;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The decider's rules for the planning tools (todos, plans, task state): it answers them itself, since they only
 * read and change the session's own state. Each call becomes the event of the change it makes (none for a read or
 * a refusal) and the call's result, which the model reads like any tool's. A {@code plan_create} in plan-first mode
 * is the exception: instead of a result, the call waits for the user's approval ({@code approval.requested.v1}),
 * and {@link PlanFirst} answers it once the user decided.
 *
 * <p>Pure: the events depend only on the state, the call and the time given, so they are given/when/then tested
 * like the rest of the decider.
 */
public final class PlanningToolCalls {
    /** Added to the error of a missing text: one too long counts as missing. */
    private static final String AT_MOST = " (a text of at most " + Limits.MAX_TEXT_CHARS + " characters)";

    private PlanningToolCalls() {
    }

    /**
     * The events that answer one call of a planning tool, in order, for the decider to emit.
     *
     * @param args the call's arguments, a JSON object (the decider checked it)
     */
    public static List<SessionEvent> answer(SessionState state, String callId, String tool, JsonNode args,
                                            Instant now, Duration approvalTimeout) {
        Call call = new Call(state.planning(), callId, args, now);
        return switch (tool) {
            case PlanningTools.TODO_ADD -> call.todoAdd();
            case PlanningTools.TODO_UPDATE -> call.todoUpdate(false);
            case PlanningTools.TODO_COMPLETE -> call.todoUpdate(true);
            case PlanningTools.TODO_LIST -> call.ok(PlanningText.todos(call.planning.todos()));
            case PlanningTools.PLAN_CREATE -> call.planCreate(approvalTimeout, state.alwaysAllowed());
            case PlanningTools.PLAN_COMPLETE_STEP -> call.planCompleteStep();
            case PlanningTools.PLAN_ADVANCE -> call.planAdvance();
            case PlanningTools.PLAN_ABORT -> call.planAbort();
            case PlanningTools.TASK_STATE_UPDATE -> call.taskStateUpdate();
            case PlanningTools.TASK_STATE_GET -> call.ok(PlanningText.taskState(call.planning.taskState()));
            case PlanningTools.TASK_RECONCILE -> call.taskReconcile();
            default -> throw new IllegalArgumentException(tool + " is not a planning tool");
        };
    }

    /** One call: its arguments, and the events that answer it. */
    private record Call(Planning planning, String callId, JsonNode args, Instant now) {

        /** The planning after {@code event}: what the result shows is what the fold will make of it. */
        Planning after(PlanningEvent event) {
            return PlanningFold.evolve(planning, event, now);
        }

        List<SessionEvent> todoAdd() {
            Optional<String> text = text("text");
            if (text.isEmpty()) {
                return failed("todo_add needs text" + AT_MOST);
            }
            if (planning.todos().size() >= Limits.MAX_TODOS) {
                return failed("the todo list is full (" + Limits.MAX_TODOS + " todos); complete or cancel some with "
                        + "todo_update, they stay listed but no longer count as open");
            }
            TodoAdded added = new TodoAdded(planning.nextTodoId(), text.get());
            return List.of(added, result("Added todo #" + added.id() + ".\n"
                    + PlanningText.todos(after(added).todos())));
        }

        /** todo_update, or todo_complete ({@code complete}: the status is DONE whatever the arguments say). */
        List<SessionEvent> todoUpdate(boolean complete) {
            String name = complete ? PlanningTools.TODO_COMPLETE : PlanningTools.TODO_UPDATE;
            Optional<Integer> id = integer("id");
            if (id.isEmpty()) {
                return failed(name + " needs id, the todo's number");
            }
            Optional<Todo> todo = planning.todo(id.get());
            if (todo.isEmpty()) {
                return failed("there is no todo #" + id.get() + ". " + PlanningText.todos(planning.todos()));
            }
            TodoStatus status = TodoStatus.DONE;
            if (!complete) {
                if (args.hasNonNull("status")) {
                    Optional<TodoStatus> parsed = TodoStatus.parse(args.get("status").asText());
                    if (parsed.isEmpty()) {
                        return failed("status must be pending, in_progress, done or cancelled");
                    }
                    status = parsed.get();
                } else {
                    status = null;
                }
            }
            String text = complete ? null : text("text").orElse(null);
            String note = text("note").orElse(null);
            if (status == null && text == null && note == null) {
                return failed("todo_update needs status, text or note" + AT_MOST);
            }
            Todo was = todo.get();
            if ((status == null || status == was.status()) && (text == null || text.equals(was.text()))
                    && (note == null || note.equals(was.note()))) {
                return ok("Todo #" + was.id() + " is already like that.\n" + PlanningText.todos(planning.todos()));
            }
            TodoUpdated updated = new TodoUpdated(was.id(), status, text, note);
            Planning after = after(updated);
            return List.of(updated, result("Todo #" + was.id() + " is " + after.todo(was.id()).orElseThrow().status()
                    .wireName() + ".\n" + PlanningText.todos(after.todos())));
        }

        List<SessionEvent> planCreate(Duration approvalTimeout, List<String> alwaysAllowed) {
            if (planning.proposedPlan().isPresent()) {
                // Two plans in one reply: the first already waits for the user, and only one can.
                return failed("plan #" + planning.plan().number() + " already waits for the user's approval; propose "
                        + "one plan at a time");
            }
            if (planning.activePlan().isPresent()) {
                return failed("plan #" + planning.plan().number() + " is still active: complete its steps, or give it "
                        + "up with plan_abort, before creating another.\n" + PlanningText.plan(planning.plan()));
            }
            List<String> steps = new ArrayList<>();
            JsonNode given = args.get("steps");
            if (given == null || !given.isArray() || given.isEmpty()) {
                return failed("plan_create needs steps: a list of 1 to " + Limits.MAX_STEPS + " steps");
            }
            for (JsonNode step : given) {
                String text = step.isTextual() ? step.asText().strip() : "";
                if (text.isEmpty() || text.length() > Limits.MAX_TEXT_CHARS) {
                    return failed("every step must be a non-empty text of at most " + Limits.MAX_TEXT_CHARS
                            + " characters");
                }
                steps.add(text);
            }
            if (steps.size() > Limits.MAX_STEPS) {
                return failed("a plan has at most " + Limits.MAX_STEPS + " steps");
            }
            String title = text("title").orElse(null);
            int number = planning.nextPlanNumber();
            // A person who answered "always" to a plan lets later plans of the session run without asking again.
            boolean awaitingApproval = planning.planFirst() && !alwaysAllowed.contains(PlanningTools.PLAN_CREATE);
            PlanCreated created = new PlanCreated(number, title, steps, callId, awaitingApproval);
            if (awaitingApproval) {
                return List.of(created, new ApprovalRequested(callId, PlanningTools.PLAN_CREATE, args.toString(),
                        Risk.LOW, PlanFirst.REASON, now.plus(approvalTimeout)));
            }
            Plan plan = after(created).plan();
            return List.of(created, result("Created plan #" + number + ".\n" + PlanningText.plan(plan) + "\n"
                    + PlanningText.next(plan)));
        }

        List<SessionEvent> planCompleteStep() {
            Optional<Plan> active = planning.activePlan();
            if (active.isEmpty()) {
                return failed(noActivePlan());
            }
            Optional<String> evidence = text("evidence");
            if (evidence.isEmpty()) {
                return failed("plan_complete_step needs evidence: what you ran or saw that shows the step is done"
                        + AT_MOST);
            }
            Plan plan = active.get();
            int step = integer("step").orElse(plan.currentStep());
            if (plan.step(step) == null) {
                return failed("plan #" + plan.number() + " has steps 1 to " + plan.steps().size());
            }
            if (plan.step(step).status() != StepStatus.PENDING) {
                return failed("step " + step + " is " + plan.step(step).status().name().toLowerCase(java.util.Locale.ROOT)
                        + " already.\n" + PlanningText.plan(plan));
            }
            PlanStepCompleted completed = new PlanStepCompleted(plan.number(), step, evidence.get());
            Plan after = after(completed).plan();
            return List.of(completed, result("Step " + step + " is done.\n" + PlanningText.plan(after) + "\n" + PlanningText.next(after)));
        }

        List<SessionEvent> planAdvance() {
            Optional<Plan> active = planning.activePlan();
            if (active.isEmpty()) {
                return failed(noActivePlan());
            }
            Plan plan = active.get();
            int step = plan.currentStep();
            PlanAdvanced advanced = new PlanAdvanced(plan.number(), step, text("reason").orElse(null));
            Plan after = after(advanced).plan();
            return List.of(advanced, result("Skipped step " + step + ".\n" + PlanningText.plan(after) + "\n" + PlanningText.next(after)));
        }

        List<SessionEvent> planAbort() {
            Optional<Plan> active = planning.activePlan();
            if (active.isEmpty()) {
                return failed(noActivePlan());
            }
            Optional<String> reason = text("reason");
            if (reason.isEmpty()) {
                return failed("plan_abort needs the reason" + AT_MOST);
            }
            return List.of(new PlanAborted(active.get().number(), reason.get()),
                    result("Plan #" + active.get().number() + " is aborted."
                            + (planning.planFirst() ? " In plan-first mode, propose a new plan before using other tools."
                            : "")));
        }

        List<SessionEvent> taskStateUpdate() {
            Optional<List<String>> done = items("done");
            Optional<List<String>> failed = items("failed");
            if (done.isEmpty() || failed.isEmpty()) {
                return failed("done and failed must be lists of at most " + Limits.MAX_ITEMS_PER_CALL
                        + " non-empty names");
            }
            Integer total = null;
            if (args.hasNonNull("total")) {
                Optional<Integer> given = integer("total");
                if (given.isEmpty() || given.get() < 0) {
                    return failed("total must be a whole number, 0 or more");
                }
                total = given.get();
            }
            String task = text("task").orElse(null);
            String notes = text("notes").orElse(null);
            if (task == null && total == null && notes == null && done.get().isEmpty() && failed.get().isEmpty()) {
                return failed("task_state_update needs at least one of task, total, done, failed, notes");
            }
            TaskStateUpdated event = new TaskStateUpdated(task, total, done.get(), failed.get(), notes);
            TaskState after = after(event).taskState();
            return List.of(event, result("Checkpoint saved.\n" + PlanningText.taskState(after)));
        }

        List<SessionEvent> taskReconcile() {
            TaskState t = planning.taskState();
            if (t == null) {
                return failed("there is no task state to reconcile yet; record one with task_state_update");
            }
            JsonNode renamedArg = args.get("renamed");
            if (renamedArg != null && !renamedArg.isNull() && !renamedArg.isObject()) {
                return failed("renamed must be an object mapping old names to new ones");
            }
            Optional<List<String>> removedArg = items("removed");
            if (removedArg.isEmpty()) {
                return failed("removed must be a list of names");
            }
            Map<String, String> renamed = new LinkedHashMap<>();
            List<String> unknown = new ArrayList<>();
            if (renamedArg != null && renamedArg.isObject()) {
                for (Map.Entry<String, JsonNode> e : renamedArg.properties()) {
                    String to = e.getValue().isTextual() ? e.getValue().asText().strip() : "";
                    if (to.isEmpty()) {
                        return failed("the new name of " + e.getKey() + " must be a non-empty text");
                    }
                    if (known(t, e.getKey())) {
                        renamed.put(e.getKey(), to);
                    } else {
                        unknown.add(e.getKey());
                    }
                }
            }
            List<String> removed = new ArrayList<>();
            for (String item : removedArg.get()) {
                if (known(t, item)) {
                    removed.add(item);
                } else {
                    unknown.add(item);
                }
            }
            if (renamed.isEmpty() && removed.isEmpty()) {
                return failed(unknown.isEmpty() ? "task_reconcile needs renamed or removed"
                        : "the checkpoint has none of these items: " + String.join(", ", unknown));
            }
            TaskReconciled event = new TaskReconciled(renamed, removed);
            TaskState after = after(event).taskState();
            return List.of(event, result("Reconciled: " + renamed.size() + " renamed, " + removed.size() + " removed"
                    + (unknown.isEmpty() ? "" : "; not in the checkpoint, left alone: " + String.join(", ", unknown))
                    + ".\n" + PlanningText.taskState(after)));
        }

        private static boolean known(TaskState t, String item) {
            return t.done().contains(item) || t.failed().contains(item);
        }

        private String noActivePlan() {
            return planning.proposedPlan().isPresent() ? "the plan waits for the user's approval"
                    : "there is no active plan; create one with plan_create";
        }

        /** A non-blank text argument, stripped; empty when missing, blank or too long to be a note. */
        private Optional<String> text(String field) {
            JsonNode node = args.get(field);
            if (node == null || !node.isValueNode() || node.isNull()) {
                return Optional.empty();
            }
            String text = node.asText().strip();
            return text.isEmpty() || text.length() > Limits.MAX_TEXT_CHARS ? Optional.empty() : Optional.of(text);
        }

        /** A whole number, also when the model wrote it as a string ("3"). */
        private Optional<Integer> integer(String field) {
            JsonNode node = args.get(field);
            if (node == null || node.isNull()) {
                return Optional.empty();
            }
            if (node.isIntegralNumber() && node.canConvertToInt()) {
                return Optional.of(node.asInt());
            }
            if (node.isTextual()) {
                try {
                    return Optional.of(Integer.parseInt(node.asText().strip()));
                } catch (NumberFormatException e) {
                    return Optional.empty();
                }
            }
            return Optional.empty();
        }

        /** A list of item names: empty list when absent; empty Optional when not a list of non-blank texts. */
        private Optional<List<String>> items(String field) {
            JsonNode node = args.get(field);
            if (node == null || node.isNull()) {
                return Optional.of(List.of());
            }
            if (!node.isArray() || node.size() > Limits.MAX_ITEMS_PER_CALL) {
                return Optional.empty();
            }
            List<String> out = new ArrayList<>();
            for (JsonNode item : node) {
                String text = item.isTextual() ? item.asText().strip() : "";
                if (text.isEmpty() || text.length() > Limits.MAX_TEXT_CHARS) {
                    return Optional.empty();
                }
                if (!out.contains(text)) {
                    out.add(text);
                }
            }
            return Optional.of(out);
        }

        private List<SessionEvent> ok(String output) {
            return List.of(result(output));
        }

        private ToolCallCompleted result(String output) {
            return new ToolCallCompleted(callId, true, output, null, null, false, 0, false);
        }

        private List<SessionEvent> failed(String error) {
            return List.of(new ToolCallCompleted(callId, false, null, error, null, false, 0, false));
        }
    }
}
