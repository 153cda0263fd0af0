package dev.agentbus.events.tools;

import java.util.List;

/**
 * The tools of todos, plans and task state (LMAgent's task-management tools; the plan verbs of tmux-agent's plan
 * API). The orchestrator answers them itself, from and into the session's log: they have no side effect outside it,
 * so they are LOW risk, never wait for approval, and run in plan-first mode before any plan is approved (planning is
 * what that mode asks for). docs/tools.md#todos-plans-and-task-state describes each.
 */
public final class PlanningTools {
    private static final String ITEMS = "{\"type\":\"array\",\"items\":{\"type\":\"string\"}}";

    public static final String TODO_ADD = "todo_add";
    public static final String TODO_UPDATE = "todo_update";
    public static final String TODO_COMPLETE = "todo_complete";
    public static final String TODO_LIST = "todo_list";
    public static final String PLAN_CREATE = "plan_create";
    public static final String PLAN_COMPLETE_STEP = "plan_complete_step";
    public static final String PLAN_ADVANCE = "plan_advance";
    public static final String PLAN_ABORT = "plan_abort";
    public static final String TASK_STATE_UPDATE = "task_state_update";
    public static final String TASK_STATE_GET = "task_state_get";
    public static final String TASK_RECONCILE = "task_reconcile";

    /** In the order the model sees them, after the other tools. */
    static final List<ToolSpec> SPECS = List.of(
            tool(TODO_ADD, "Add an item to your todo list for this session. Returns its number and the list.", """
                    {"type":"object","properties":{"text":{"type":"string","description":"what to do"}},\
                    "required":["text"]}"""),
            tool(TODO_UPDATE, "Change a todo: its status (pending, in_progress, done, cancelled), its text, or a note.",
                    """
                    {"type":"object","properties":{"id":{"type":"integer","description":"the todo's number"},\
                    "status":{"type":"string","enum":["pending","in_progress","done","cancelled"]},\
                    "text":{"type":"string"},"note":{"type":"string"}},"required":["id"]}"""),
            tool(TODO_COMPLETE, "Mark a todo as done.", """
                    {"type":"object","properties":{"id":{"type":"integer","description":"the todo's number"},\
                    "note":{"type":"string"}},"required":["id"]}"""),
            tool(TODO_LIST, "Show your todo list for this session.", "{\"type\":\"object\",\"properties\":{}}"),
            tool(PLAN_CREATE, "Propose a step-by-step plan for the task. In plan-first mode it waits for the user's "
                            + "approval, and no other tool runs before. A plan that is still active must be "
                            + "completed or aborted first.", """
                    {"type":"object","properties":{"title":{"type":"string"},\
                    "steps":{"type":"array","items":{"type":"string"},"minItems":1,"maxItems":%d}},\
                    "required":["steps"]}""".formatted(Limits.MAX_STEPS)),
            tool(PLAN_COMPLETE_STEP, "Mark a step of the active plan done once you have checked it, with the evidence "
                            + "(what you ran or saw that shows it is done). Default: the current step.", """
                    {"type":"object","properties":{"evidence":{"type":"string"},\
                    "step":{"type":"integer","description":"1-based; default the current step"}},\
                    "required":["evidence"]}"""),
            tool(PLAN_ADVANCE, "Move on from the current step of the active plan without completing it (it is "
                    + "marked skipped, with the reason).", """
                    {"type":"object","properties":{"reason":{"type":"string"}}}"""),
            tool(PLAN_ABORT, "Give up the active plan, with the reason.", """
                    {"type":"object","properties":{"reason":{"type":"string"}},"required":["reason"]}"""),
            tool(TASK_STATE_UPDATE, "Checkpoint a long batch job: what it is, how many items it has, the items "
                    + "newly done or failed, and notes on where it stands. Only the fields given change.", """
                    {"type":"object","properties":{"task":{"type":"string"},"total":{"type":"integer","minimum":0},\
                    "done":%s,"failed":%s,"notes":{"type":"string"}}}""".formatted(ITEMS, ITEMS)),
            tool(TASK_STATE_GET, "Read the batch job's last checkpoint back: done and failed items, counts and notes.",
                    "{\"type\":\"object\",\"properties\":{}}"),
            tool(TASK_RECONCILE, "Fix the batch job's checkpoint after renaming, moving or deleting items: renamed "
                    + "maps old names to new ones, removed lists items to forget.", """
                    {"type":"object","properties":{"renamed":{"type":"object",\
                    "additionalProperties":{"type":"string"}},"removed":%s}}""".formatted(ITEMS)));

    /** How much one plan, todo or checkpoint may hold: enough for real work, not enough to flood the log. */
    public static final class Limits {
        public static final int MAX_STEPS = 50;
        public static final int MAX_TEXT_CHARS = 2000;
        public static final int MAX_TODOS = 200;
        public static final int MAX_ITEMS_PER_CALL = 1000;

        private Limits() {
        }
    }

    private PlanningTools() {
    }

    /**
     * Whether a successful call of {@code name} reports work done (a plan step with its evidence, a todo done, a
     * batch job's checkpoint): the no-progress loop guard counts it as progress, like a changed file, so a turn that
     * verifies and reports without writing is not taken for one going round in circles.
     */
    public static boolean reportsProgress(String name) {
        return PLAN_COMPLETE_STEP.equals(name) || TODO_COMPLETE.equals(name) || TASK_STATE_UPDATE.equals(name);
    }

    /** Whether the orchestrator answers {@code name} as a planning tool. */
    public static boolean isPlanningTool(String name) {
        return SPECS.stream().anyMatch(t -> t.name().equals(name));
    }

    private static ToolSpec tool(String name, String description, String schema) {
        return new ToolSpec(name, description, schema, ToolSpec.Executor.ORCHESTRATOR, false, Risk.LOW);
    }
}
