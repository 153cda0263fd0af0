package dev.agentbus.cli;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;

/** Runs agentbus in-process with a fake environment and captured output, the way a terminal would. */
public final class TestCli {
    public final Map<String, String> env = new HashMap<>();
    public final TestInterrupts interrupts = new TestInterrupts();
    /** Standard input for chat; empty unless a test sets it. */
    public InputStream stdin = InputStream.nullInputStream();
    /** Whether stdin counts as a terminal (a person typing): chat prompts, plain `agentbus` starts chat. */
    public boolean interactive;
    private final Path home;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    /** home should be a temp dir, so a developer's real ~/.agentbus/gateway-token never leaks into a test. */
    public TestCli(Path home) {
        this.home = home;
    }

    public int run(String... args) {
        CliContext context = new CliContext(env, home, false, interrupts, stdin, interactive);
        return AgentbusCli.commandLine(context, new PrintWriter(out, true), new PrintWriter(err, true)).execute(args);
    }

    /** Feeds these lines to stdin, as a pipe would (each ends with a newline; then end of input). */
    public TestCli input(String... lines) {
        StringBuilder b = new StringBuilder();
        for (String line : lines) {
            b.append(line).append('\n');
        }
        stdin = new ByteArrayInputStream(b.toString().getBytes(StandardCharsets.UTF_8));
        return this;
    }

    public CompletableFuture<Integer> runAsync(String... args) {
        return CompletableFuture.supplyAsync(() -> run(args));
    }

    public String out() {
        return out.toString();
    }

    public String err() {
        return err.toString();
    }

    public static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(20);
        }
    }

    /** "Pressing Ctrl-C": runs whatever the command armed, as the JVM's shutdown hook would. */
    public static final class TestInterrupts implements InterruptHook {
        private volatile Runnable armed;

        @Override
        public Registration arm(Runnable action) {
            armed = action;
            return () -> armed = null;
        }

        public boolean isArmed() {
            return armed != null;
        }

        public void fire() {
            Runnable action = armed;
            if (action != null) {
                action.run();
            }
        }
    }
}
