package dev.agentbus.sandbox.tools;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * tmux and interactive programs, with a real tmux server that lives across calls (its own socket directory, so
 * tests never meet another tmux).
 */
class TmuxToolsIT extends SandboxedToolsIT {
    /**
     * Reads the pane until {@code done} holds (at most 20 s): a program in a pane draws on its own time, and a
     * loaded machine can be slower than the tools' short settle pause.
     */
    private String readUntil(String target, int lines, Predicate<String> done)
            throws InterruptedException {
        long deadline = System.nanoTime() + java.time.Duration.ofSeconds(20).toNanos();
        String screen = call("tmux_read", "target", target, "lines", lines).output();
        while (!done.test(screen) && System.nanoTime() < deadline) {
            Thread.sleep(100);
            screen = call("tmux_read", "target", target, "lines", lines).output();
        }
        return screen;
    }

    @Test
    void with_no_server_the_list_says_how_to_start_and_reading_fails_with_a_hint() {
        assertThat(call("tmux_list").output()).isEqualTo("no tmux session is running; start a program with tmux_new\n");
        assertThat(call("tmux_read").error())
                .isEqualTo("no tmux session is running in the sandbox; start a program with tmux_new first");
    }

    @Test
    void an_interactive_program_gets_input_and_keys_and_its_screen_can_be_read() throws Exception {
        ToolOutcome started = call("tmux_new", "command", "cat", "name", "echoer");
        assertThat(started.ok()).as(started.forModel()).isTrue();
        assertThat(started.output()).startsWith("started cat in pane agentbus:1.0 (%");

        ToolOutcome typed = call("vm_input", "data", "hello from the agent", "target", "agentbus:1.0");
        assertThat(typed.ok()).as(typed.forModel()).isTrue();
        assertThat(typed.output()).startsWith("typed 20 characters and Enter into agentbus:1.0");

        // the terminal echoes the line, then cat prints it back
        String screen = readUntil("agentbus:1.0", 10, s -> s.split("hello from the agent", -1).length == 3);
        assertThat(screen).startsWith("pane agentbus:1.0 running cat, last lines:\n");
        assertThat(screen.split("hello from the agent", -1)).hasSize(3);

        ToolOutcome keys = call("vm_keys", "keys", List.of("C-d"), "target", "agentbus:1.0");
        assertThat(keys.ok()).as(keys.forModel()).isTrue();
        String after = readUntil("agentbus:1.0", 50, s -> s.contains("exited"));
        // The pane is kept after its program ended, so what it printed can still be read. (Whether tmux reports
        // the exit status depends on how the sandbox reaps processes; "exited" is what matters here.)
        assertThat(after).startsWith("pane agentbus:1.0 exited").contains("hello from the agent");
    }

    @Test
    void the_list_shows_sessions_windows_and_panes() {
        call("tmux_new", "command", "sleep 30", "name", "sleeper");
        ToolOutcome split = call("tmux_new", "split", "agentbus:1.0", "vertical", true);
        assertThat(split.output()).startsWith("started an interactive shell in pane agentbus:1.1");

        String list = call("tmux_list").output();

        assertThat(list).startsWith("sessions:\n  agentbus: 2 windows\nwindows:\n  agentbus:0 shell: 1 panes\n"
                + "  agentbus:1 sleeper: 2 panes (current)\npanes:\n");
        assertThat(list).contains("agentbus:1.0 %").contains("running sleep");
    }

    @Test
    void only_approved_keys_can_be_pressed_and_targets_are_checked() {
        call("tmux_new", "command", "cat");

        assertThat(call("vm_keys", "keys", List.of("Enter", "rm -rf x")).error())
                .startsWith("'rm -rf x' is not an approved key; allowed: ");
        assertThat(call("tmux_read", "target", "-t x").error()).startsWith("'-t x' is not a tmux target");
        assertThat(call("tmux_read", "lines", 0).error()).isEqualTo("lines must be between 1 and 2000");
        assertThat(call("vm_input", "data", "two\nlines").error()).startsWith("data must be one line");
        assertThat(call("tmux_new", "name", "bad name!").error()).startsWith("name must be 1 to 32");
    }

    @Test
    void a_read_shows_at_most_the_lines_asked_for() throws Exception {
        // A program that stays: one that prints and exits at once (seq) raced tmux on a loaded machine, which
        // marked the pane dead before it had read the pty, and the pane stayed empty.
        java.nio.file.Files.writeString(ws.resolve("numbers.txt"), java.util.stream.IntStream.rangeClosed(1, 100)
                .mapToObj(Integer::toString).collect(java.util.stream.Collectors.joining("\n", "", "\n")));
        call("tmux_new", "command", "tail -n 100 -f numbers.txt");

        String out = readUntil("agentbus:1.0", 5, s -> s.contains("\n100\n"));

        assertThat(out.lines().skip(1).toList()).containsExactly("96", "97", "98", "99", "100");
    }
}
