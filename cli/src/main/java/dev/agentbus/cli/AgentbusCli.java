package dev.agentbus.cli;

import dev.agentbus.cli.chat.ChatRepl;
import dev.agentbus.cli.commands.CancelCommand;
import dev.agentbus.cli.commands.ChatCommand;
import dev.agentbus.cli.commands.EventsCommand;
import dev.agentbus.cli.commands.ExportCommand;
import dev.agentbus.cli.commands.ForkCommand;
import dev.agentbus.cli.commands.ImportCommand;
import dev.agentbus.cli.commands.ReplayCommand;
import dev.agentbus.cli.commands.RewindCommand;
import dev.agentbus.cli.commands.RunCommand;
import dev.agentbus.cli.commands.SessionsCommand;
import dev.agentbus.cli.commands.ShowCommand;
import dev.agentbus.cli.gateway.GatewayClient;
import dev.agentbus.cli.gateway.GatewayException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.Callable;

/**
 * {@code agentbus}, the terminal client of the gateway's HTTP API.
 *
 * <p>It is a thin client on purpose: it holds no state, talks only HTTP/SSE to the gateway (never Kafka), and shows
 * what the session's events say. That keeps it usable against any deployment shape (standalone, compose, k8s) with
 * nothing but a URL and a token. {@code chat} (and plain {@code agentbus} on a terminal) is the interactive REPL.
 * Approvals are decided with {@code approve} and {@code deny}, a session's permission mode set with {@code mode}.
 */
@Command(name = "agentbus",
        mixinStandardHelpOptions = true,
        versionProvider = AgentbusCli.Version.class,
        description = {"Terminal client for the Agentbus gateway: chat with the agent, run tasks, inspect sessions.",
                "Without a command, on a terminal: the same as `agentbus chat`."},
        subcommands = {ChatCommand.class, RunCommand.class, SessionsCommand.class, ShowCommand.class, EventsCommand.class,
                CancelCommand.class, dev.agentbus.cli.commands.DeleteCommand.class,
                dev.agentbus.cli.commands.ApproveCommand.class,
                dev.agentbus.cli.commands.DenyCommand.class, dev.agentbus.cli.commands.ModeCommand.class,
                dev.agentbus.cli.commands.SubmitCommand.class, dev.agentbus.cli.commands.InboxCommand.class,
                dev.agentbus.cli.commands.ModelsCommand.class, dev.agentbus.cli.commands.SearchCommand.class,
                ReplayCommand.class, ExportCommand.class, ImportCommand.class, ForkCommand.class,
                RewindCommand.class, dev.agentbus.cli.commands.AdminCommand.class, CommandLine.HelpCommand.class},
        footer = {"", "Environment: AGENTBUS_URL, AGENTBUS_TOKEN, AGENTBUS_DATA_DIR, NO_COLOR.",
                "Exit codes: 0 ok / turn COMPLETED or CANCELLED, 1 error, 2 ITERATION_CAP, 64 usage, 130 Ctrl-C.",
                "See docs/cli.md."})
public final class AgentbusCli implements Callable<Integer> {

    // INHERIT: accepted before or after the subcommand name (`agentbus --url X sessions` and
    // `agentbus sessions --url X`); picocli stores the value in these fields either way.
    @Option(names = "--url", scope = ScopeType.INHERIT, paramLabel = "URL",
            description = "Gateway base URL. Default: $AGENTBUS_URL, else " + CliContext.DEFAULT_URL + ".")
    String url;

    @Option(names = "--token", scope = ScopeType.INHERIT, paramLabel = "TOKEN",
            description = "Bearer token. Default: $AGENTBUS_TOKEN, else the file $AGENTBUS_DATA_DIR/gateway-token "
                    + "(~/.agentbus/gateway-token).")
    String token;

    @Spec
    CommandSpec spec;

    private final CliContext context;

    public AgentbusCli(CliContext context) {
        this.context = context;
    }

    public static void main(String[] args) {
        // UTF-8 regardless of locale: the output has arrows and check marks, and a C/POSIX locale in a container
        // would otherwise turn them into '?' on a terminal that displays UTF-8 fine.
        PrintWriter out = new PrintWriter(new OutputStreamWriter(new FileOutputStream(FileDescriptor.out),
                StandardCharsets.UTF_8), true);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(new FileOutputStream(FileDescriptor.err),
                StandardCharsets.UTF_8), true);
        int code = commandLine(CliContext.system(), out, err).execute(args);
        out.flush();
        err.flush();
        System.exit(code);
    }

    /** The configured command line; tests call execute() on it with their own context and writers. */
    public static CommandLine commandLine(CliContext context, PrintWriter out, PrintWriter err) {
        CommandLine cmd = new CommandLine(new AgentbusCli(context));
        cmd.setOut(out);
        cmd.setErr(err);
        cmd.setUsageHelpWidth(100); // long enough that URLs and paths in option descriptions are not broken
        useUsageExitCode(cmd);
        cmd.setExecutionExceptionHandler((ex, failed, parseResult) -> {
            Printer printer = new Printer(failed.getOut(), failed.getErr(), context.colour());
            if (ex instanceof GatewayException g) {
                printer.error(g.getMessage());
            } else {
                // A bug, not a situation: say so plainly, with the trace only when asked for.
                printer.error("unexpected error: " + ex);
                if (context.env("AGENTBUS_DEBUG") != null) {
                    ex.printStackTrace(failed.getErr());
                }
            }
            return ExitCodes.ERROR;
        });
        return cmd;
    }

    private static void useUsageExitCode(CommandLine cmd) {
        cmd.getCommandSpec().exitCodeOnInvalidInput(ExitCodes.USAGE);
        cmd.getSubcommands().values().forEach(AgentbusCli::useUsageExitCode);
    }

    /**
     * `agentbus` alone: on a terminal, the interactive chat (what LMAgent does without arguments). Otherwise (a
     * script, a pipe) there is nothing sensible to do without a subcommand, so show what there is (a usage error):
     * a script that forgot its command should fail, not read its stdin as a conversation.
     */
    @Override
    public Integer call() {
        if (context.interactive()) {
            return new ChatRepl(this, null, null, true).run();
        }
        spec.commandLine().getErr().println("agentbus: missing command");
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCodes.USAGE;
    }

    public CliContext context() {
        return context;
    }

    public Printer printer() {
        return new Printer(spec.commandLine().getOut(), spec.commandLine().getErr(), context.colour());
    }

    /** The gateway client for the resolved URL and token. */
    public GatewayClient gateway() {
        return new GatewayClient(resolveUrl(), resolveToken());
    }

    String resolveUrl() {
        if (url != null && !url.isBlank()) {
            return url;
        }
        String env = context.env("AGENTBUS_URL");
        return env != null ? env : CliContext.DEFAULT_URL;
    }

    /** --token, then $AGENTBUS_TOKEN, then the token file the gateway writes on first start; null if none. */
    String resolveToken() {
        if (token != null && !token.isBlank()) {
            return token;
        }
        String env = context.env("AGENTBUS_TOKEN");
        if (env != null) {
            return env;
        }
        Path file = context.dataDir().resolve("gateway-token");
        if (Files.isReadable(file)) {
            try {
                String fromFile = Files.readString(file, StandardCharsets.UTF_8).strip();
                return fromFile.isEmpty() ? null : fromFile;
            } catch (IOException e) {
                // Unreadable token file: go on without a token; the gateway's 401 will say what to do.
                return null;
            }
        }
        return null;
    }

    /** The version maven-archiver writes into every jar, so it cannot disagree with the build. */
    public static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            try (InputStream in = AgentbusCli.class.getResourceAsStream(
                    "/META-INF/maven/dev.agentbus/agentbus-cli/pom.properties")) {
                if (in != null) {
                    Properties p = new Properties();
                    p.load(in);
                    return new String[]{"agentbus " + p.getProperty("version", "dev")};
                }
            } catch (IOException ignored) {
                // fall through
            }
            return new String[]{"agentbus dev"};
        }
    }
}
