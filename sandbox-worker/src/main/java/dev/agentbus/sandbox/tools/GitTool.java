package dev.agentbus.sandbox.tools;

import dev.agentbus.sandbox.sandboxing.CommandResult;
import dev.agentbus.sandbox.sandboxing.SandboxException;
import dev.agentbus.sandbox.workspace.PathRejectedException;
import dev.agentbus.sandbox.workspace.WorkspacePaths;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The git tools ({@code git_status}, {@code git_diff}, {@code git_add}, {@code git_commit}, {@code git_branch},
 * {@code git_log}): git run inside the sandbox, on the repository in {@code /workspace}, without a shell.
 *
 * <p>Every argument the model gives is checked before it reaches git: paths go through {@link WorkspacePaths} (and
 * follow a {@code --}, so a path can never be read as an option), revisions and branch names must look like ones and
 * may not start with {@code -}. git's pager and colours are off and its output is capped like any other. A git that
 * fails (not a repository, nothing to commit) is a failed call with git's own message.
 */
final class GitTool implements Tool {
    enum Action { STATUS, DIFF, ADD, COMMIT, BRANCH, LOG }

    static final String WORKDIR = "/workspace";
    private static final Pattern REVISION = Pattern.compile("[A-Za-z0-9._/~^@{}:-]{1,200}");
    private static final Pattern BRANCH = Pattern.compile("[A-Za-z0-9._/-]{1,100}");
    private static final int DEFAULT_LOG = 20;
    private static final int MAX_LOG = 200;

    private final Action action;
    private final SandboxSettings settings;

    GitTool(Action action, SandboxSettings settings) {
        this.action = action;
        this.settings = settings;
    }

    @Override
    public ToolOutcome run(Args args, ToolContext ctx)
            throws ToolFailure, PathRejectedException, SandboxException, InterruptedException {
        return switch (action) {
            case STATUS -> show(ctx, "status", git("status", "--short", "--branch"), "");
            case DIFF -> diff(args, ctx);
            case ADD -> add(args, ctx);
            case COMMIT -> commit(args, ctx);
            case BRANCH -> branch(args, ctx);
            case LOG -> log(args, ctx);
        };
    }

    private ToolOutcome diff(Args args, ToolContext ctx)
            throws ToolFailure, PathRejectedException, SandboxException, InterruptedException {
        List<String> argv = git("diff");
        if (args.optionalBoolean("staged", false)) {
            argv.add("--staged");
        }
        String revision = args.optionalString("revision").orElse(null);
        if (revision != null) {
            argv.add(checked(revision, REVISION, "revision"));
        }
        argv.add("--");
        String path = args.optionalString("path").orElse(null);
        if (path != null) {
            argv.add(relative(ctx.workspace(), path));
        }
        return show(ctx, "diff", argv, "no changes");
    }

    private ToolOutcome add(Args args, ToolContext ctx)
            throws ToolFailure, PathRejectedException, SandboxException, InterruptedException {
        List<String> paths = args.optionalStringList("paths")
                .orElseThrow(() -> new ToolFailure("missing required argument: paths"));
        if (paths.isEmpty()) {
            throw new ToolFailure("paths must name at least one path (\".\" stages everything)");
        }
        List<String> argv = git("add", "--");
        for (String p : paths) {
            argv.add(relative(ctx.workspace(), p));
        }
        CommandResult added = Programs.exec(ctx, argv, WORKDIR, timeout());
        if (failed(added)) {
            return failure("add", added);
        }
        return show(ctx, "status", git("status", "--short"), "nothing to stage: no changes in those paths");
    }

    private ToolOutcome commit(Args args, ToolContext ctx)
            throws ToolFailure, SandboxException, InterruptedException {
        String message = args.requiredString("message");
        if (message.isBlank()) {
            throw new ToolFailure("message must not be empty");
        }
        List<String> argv = git("commit");
        // A repository made in the sandbox has no author; give one rather than fail, but never override a set one.
        if (failed(Programs.quiet(ctx, git("config", "user.email"), WORKDIR, timeout()))) {
            argv.addAll(1, List.of("-c", "user.name=Agentbus agent", "-c", "user.email=agent@agentbus.invalid"));
        }
        if (args.optionalBoolean("all", false)) {
            argv.add("--all");
        }
        argv.addAll(List.of("-m", message));
        return show(ctx, "commit", argv, "");
    }

    private ToolOutcome branch(Args args, ToolContext ctx)
            throws ToolFailure, SandboxException, InterruptedException {
        String name = args.optionalString("name").orElse(null);
        boolean switchTo = args.optionalBoolean("switch", false);
        if (name == null) {
            return show(ctx, "branch", git("branch", "--list", "-vv"), "no branches yet (there is no commit)");
        }
        checked(name, BRANCH, "branch name");
        if (name.contains("..") || name.startsWith("/") || name.endsWith("/") || name.endsWith(".lock")) {
            throw new ToolFailure("'" + name + "' is not a valid branch name");
        }
        boolean exists = !failed(Programs.quiet(ctx, git("rev-parse", "--verify", "--quiet", "refs/heads/" + name),
                WORKDIR, timeout()));
        if (exists && !switchTo) {
            return ToolOutcome.success("branch " + name + " already exists; set switch to true to switch to it\n");
        }
        List<String> argv = switchTo ? (exists ? git("switch", name) : git("switch", "-c", name))
                : git("branch", name);
        CommandResult result = Programs.exec(ctx, argv, WORKDIR, timeout());
        if (failed(result)) {
            return failure(switchTo ? "switch" : "branch", result);
        }
        String done = switchTo ? (exists ? "switched to branch " : "created and switched to branch ")
                : "created branch ";
        return ToolOutcome.success(done + name + "\n" + Programs.text(result));
    }

    private ToolOutcome log(Args args, ToolContext ctx)
            throws ToolFailure, PathRejectedException, SandboxException, InterruptedException {
        int limit = args.optionalInt("limit").orElse(DEFAULT_LOG);
        if (limit < 1 || limit > MAX_LOG) {
            throw new ToolFailure("limit must be between 1 and " + MAX_LOG);
        }
        List<String> argv = git("log", "-n", String.valueOf(limit), "--date=short",
                "--format=%h %ad %an: %s%d", "--");
        String path = args.optionalString("path").orElse(null);
        if (path != null) {
            argv.add(relative(ctx.workspace(), path));
        }
        return show(ctx, "log", argv, "no commits");
    }

    /** Runs git and returns its output; a non-zero exit is a failed call with git's message. */
    private ToolOutcome show(ToolContext ctx, String subcommand, List<String> argv, String whenEmpty)
            throws SandboxException, InterruptedException {
        CommandResult result = Programs.exec(ctx, argv, WORKDIR, timeout());
        if (failed(result)) {
            return failure(subcommand, result);
        }
        String text = Programs.text(result);
        return new ToolOutcome(true, text.isEmpty() ? whenEmpty + "\n" : text, null, null, result.truncated());
    }

    private static boolean failed(CommandResult result) {
        return result.timedOut() || result.exitCode() != 0;
    }

    private ToolOutcome failure(String subcommand, CommandResult result) {
        String why = result.timedOut() ? "timed out after " + timeout().toSeconds() + " s"
                : Programs.firstLine(result);
        String hint = why.contains("not a git repository")
                ? "; the workspace is not a git repository yet: create one with run_command {\"command\": \"git\", "
                + "\"args\": [\"init\"]}" : "";
        return new ToolOutcome(false, Programs.text(result), "git " + subcommand + " failed: " + why + hint, null,
                result.truncated());
    }

    private Duration timeout() {
        return settings.shellTimeoutDefault();
    }

    /** {@code git --no-pager -c color.ui=never … <words>}: plain text, no pager waiting for a terminal. */
    static List<String> git(String... words) {
        List<String> argv = new ArrayList<>(List.of("git", "--no-pager", "-c", "color.ui=never", "-c",
                "core.quotepath=off", "-c", "safe.directory=*"));
        argv.addAll(List.of(words));
        return argv;
    }

    private static String relative(WorkspacePaths workspace, String path) throws PathRejectedException {
        return workspace.display(workspace.resolve(path));
    }

    private static String checked(String value, Pattern shape, String what) throws ToolFailure {
        if (value.startsWith("-") || !shape.matcher(value).matches()) {
            throw new ToolFailure("'" + value + "' is not a valid " + what);
        }
        return value;
    }
}
