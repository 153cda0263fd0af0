package dev.agentbus.sandbox.checkpointing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the host's {@code git} for the shadow repositories, never inside the sandbox and never with anything the
 * agent could have influenced:
 * <ul>
 *   <li>the environment is cleared (no {@code GIT_DIR}, {@code GIT_CONFIG_*}, proxy or credential variables of the
 *       worker leak in), and neither the system nor the global configuration is read;</li>
 *   <li>hooks, fsmonitor and every conversion of file content are switched off on the command line, so even a
 *       repository whose config someone edited could not run a program or change a file on its way in or out;</li>
 *   <li>the repository is always named explicitly with {@code --git-dir}, so a {@code .git} the agent planted in
 *       the workspace is never mistaken for it.</li>
 * </ul>
 */
final class Git {
    private static final Duration TIMEOUT = Duration.ofMinutes(2);

    /**
     * Settings on every command line. Command-line settings win over the repository's config. Among them:
     * {@code core.protectNTFS/HFS} off, because on the Linux hosts the worker runs on a file named like a Windows
     * short name is an ordinary file that must be checkpointed, not refused; and {@code safe.directory=*}, because a
     * workspace written by a sandbox may belong to another uid, which must not make git refuse our own repository.
     */
    private static final List<String> SAFE_CONFIG = List.of(
            "core.hooksPath=/dev/null",
            "core.fsmonitor=false",
            "core.autocrlf=false",
            "core.safecrlf=false",
            "core.symlinks=true",
            "core.filemode=true",
            "core.ignorecase=false",
            "core.precomposeunicode=false",
            "core.protectNTFS=false",
            "core.protectHFS=false",
            "core.quotepath=false",
            "core.untrackedCache=false",
            "core.splitIndex=false",
            "gc.auto=0",
            "maintenance.auto=false",
            "commit.gpgSign=false",
            "protocol.file.allow=always",
            "advice.detachedHead=false",
            "safe.directory=*");

    private final String executable;

    Git(String executable) {
        this.executable = executable;
    }

    /** True when the git executable runs at all. */
    boolean available() {
        try {
            run(null, null, null, Map.of(), "--version");
            return true;
        } catch (CheckpointException e) {
            return false;
        }
    }

    /**
     * Runs git and returns its standard output.
     *
     * @param gitDir   the repository ({@code --git-dir}), or null
     * @param workTree the work tree ({@code --work-tree}), or null
     * @param stdin    bytes for standard input, or null for none
     * @param env      extra environment variables (author, dates)
     */
    String run(Path gitDir, Path workTree, byte[] stdin, Map<String, String> env, String... args)
            throws CheckpointException {
        List<String> command = new ArrayList<>();
        command.add(executable);
        for (String setting : SAFE_CONFIG) {
            command.add("-c");
            command.add(setting);
        }
        if (gitDir != null) {
            command.add("--git-dir=" + gitDir);
        }
        if (workTree != null) {
            command.add("--work-tree=" + workTree);
        }
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command);
        Map<String, String> environment = pb.environment();
        environment.clear();
        environment.put("PATH", "/usr/local/bin:/usr/bin:/bin");
        environment.put("HOME", "/nonexistent");
        environment.put("LC_ALL", "C");
        environment.put("GIT_CONFIG_NOSYSTEM", "1");
        environment.put("GIT_CONFIG_GLOBAL", "/dev/null");
        environment.put("GIT_TERMINAL_PROMPT", "0");
        environment.put("GIT_NO_REPLACE_OBJECTS", "1");
        environment.putAll(env);
        if (workTree != null) {
            pb.directory(workTree.toFile());
        } else if (gitDir != null) {
            pb.directory(gitDir.toFile());
        }
        Process process;
        try {
            process = pb.start();
        } catch (IOException e) {
            throw new CheckpointException("cannot run git (" + executable + "): " + e.getMessage(), e);
        }
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Thread errReader = Thread.ofVirtual().start(() -> copy(process.getErrorStream(), err));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Thread outReader = Thread.ofVirtual().start(() -> copy(process.getInputStream(), out));
        try (OutputStream in = process.getOutputStream()) {
            if (stdin != null) {
                in.write(stdin);
            }
        } catch (IOException e) {
            // git exited early; its status and stderr below say why
        }
        try {
            if (!process.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new CheckpointException("git " + args[0] + " did not finish within " + TIMEOUT.toSeconds() + " s");
            }
            outReader.join();
            errReader.join();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new CheckpointException("interrupted while git " + args[0] + " ran", e);
        }
        if (process.exitValue() != 0) {
            throw new CheckpointException("git " + args[0] + " failed (exit " + process.exitValue() + "): "
                    + err.toString(StandardCharsets.UTF_8).strip());
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private static void copy(InputStream from, ByteArrayOutputStream to) {
        try (from) {
            from.transferTo(to);
        } catch (IOException ignored) {
            // the process ended; what was read is kept
        }
    }
}
