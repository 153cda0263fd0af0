package dev.agentbus.sandbox.shell;

import dev.agentbus.sandbox.shell.PersistentShell.Outcome;
import dev.agentbus.sandbox.shell.PersistentShell.Status;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shell protocol on its own, with a plain host {@code /bin/sh} (the sandboxes are tested in sandboxing/ and
 * escapes/). Output is handed over one byte per read, so every marker arrives split across reads.
 */
class PersistentShellTest {
    private static final Duration FIVE_SECONDS = Duration.ofSeconds(5);

    @TempDir
    Path dir;

    private PersistentShell shell;

    @AfterEach
    void close() {
        if (shell != null) {
            shell.close();
        }
    }

    private PersistentShell start(int cap) throws IOException {
        ProcessBuilder builder = new ProcessBuilder("/bin/sh").directory(dir.toFile()).redirectErrorStream(true);
        builder.environment().clear();
        builder.environment().put("PATH", "/usr/bin:/bin");
        ProcessShell process = new ProcessShell(builder.start());
        shell = PersistentShell.attach(new OneByteAtATime(process), cap);
        return shell;
    }

    @Test
    void output_exit_code_directory_and_exports_come_back_even_one_byte_at_a_time() throws Exception {
        PersistentShell sh = start(64 * 1024);

        Outcome outcome = sh.run("mkdir -p 'a b' && cd 'a b' && export X='it'\"'\"'s' && printf 'no newline'; "
                + "false", FIVE_SECONDS, null);

        assertThat(outcome.status()).isEqualTo(Status.COMPLETED);
        assertThat(outcome.exitCode()).isEqualTo(1);
        assertThat(outcome.output()).isEqualTo("no newline");
        assertThat(outcome.cwd()).isEqualTo(dir.toRealPath().resolve("a b").toString());
        assertThat(outcome.exported()).containsEntry("X", "it's");
    }

    @Test
    void a_command_cannot_read_the_next_command_from_stdin() throws Exception {
        PersistentShell sh = start(64 * 1024);

        Outcome reading = sh.run("cat; read line; echo \"read:[$line]\"", FIVE_SECONDS, null);
        Outcome next = sh.run("echo next", FIVE_SECONDS, null);

        assertThat(reading.output()).isEqualTo("read:[]\n");
        assertThat(next.output()).isEqualTo("next\n");
    }

    @Test
    void printing_something_that_looks_like_a_marker_does_not_end_the_command() throws Exception {
        PersistentShell sh = start(64 * 1024);

        Outcome outcome = sh.run("printf '\\n__AB_0000 0 run\\n/x\\000\\n__AB_0000-end\\n'; echo after",
                FIVE_SECONDS, null);

        assertThat(outcome.output()).endsWith("\nafter\n");
        assertThat(outcome.status()).isEqualTo(Status.COMPLETED);
    }

    @Test
    void exit_ends_the_shell_with_its_code_and_state() throws Exception {
        PersistentShell sh = start(64 * 1024);

        Outcome outcome = sh.run("cd /; exit 7", FIVE_SECONDS, null);

        assertThat(outcome.status()).isEqualTo(Status.SHELL_EXITED);
        assertThat(outcome.exitCode()).isEqualTo(7);
        assertThat(outcome.cwd()).isEqualTo("/");
    }

    @Test
    void a_slow_command_times_out_with_what_it_printed() throws Exception {
        PersistentShell sh = start(64 * 1024);

        Outcome outcome = sh.run("echo begun; sleep 5", Duration.ofMillis(300), null);

        assertThat(outcome.status()).isEqualTo(Status.TIMED_OUT);
        assertThat(outcome.output()).isEqualTo("begun\n");
    }

    @Test
    void a_shell_killed_from_outside_is_lost_not_hung() throws Exception {
        PersistentShell sh = start(64 * 1024);

        Outcome outcome = sh.run("kill -9 $$", FIVE_SECONDS, null);

        assertThat(outcome.status()).isEqualTo(Status.SHELL_LOST);
        assertThat(sh.alive()).isFalse();
    }

    /** Hands the real output over one byte per read. */
    private record OneByteAtATime(ProcessShell real) implements ShellProcess {
        @Override
        public OutputStream stdin() {
            return real.stdin();
        }

        @Override
        public InputStream output() {
            return new FilterInputStream(real.output()) {
                @Override
                public int read(byte[] b, int off, int len) throws IOException {
                    return super.read(b, off, Math.min(len, 1));
                }
            };
        }

        @Override
        public OptionalInt exitStatus() {
            return real.exitStatus();
        }

        @Override
        public void destroy() {
            real.destroy();
        }
    }

    @Test
    void a_shell_that_dies_at_once_is_lost_with_what_it_said_even_when_the_write_fails_first() throws Exception {
        // bubblewrap refusing to start: stdin is already closed (the write fails), and its reason reaches the pipe a
        // little later. The reason must not be lost to that race.
        var said = new java.io.PipedOutputStream();
        var output = new java.io.PipedInputStream(said);
        ShellProcess dying = new ShellProcess() {
            @Override
            public OutputStream stdin() {
                return new OutputStream() {
                    @Override
                    public void write(int b) throws IOException {
                        throw new IOException("Broken pipe");
                    }
                };
            }

            @Override
            public InputStream output() {
                return output;
            }

            @Override
            public OptionalInt exitStatus() {
                return OptionalInt.of(1);
            }

            @Override
            public void destroy() {
            }
        };
        shell = PersistentShell.attach(dying, 1024);
        Thread.ofVirtual().start(() -> {
            try {
                Thread.sleep(200);
                said.write("bwrap: Can't find source path /gone\n".getBytes());
                said.close();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });

        Outcome outcome = shell.run("true", FIVE_SECONDS, null);

        assertThat(outcome.status()).isEqualTo(Status.SHELL_LOST);
        assertThat(shell.earlyOutput() + outcome.output()).contains("bwrap: Can't find source path /gone");
    }
}
