package dev.agentbus.sandbox.sandboxing;

import dev.agentbus.sandbox.shell.Bubblewrap;
import dev.agentbus.sandbox.shell.ProcessShell;
import dev.agentbus.sandbox.shell.ShellProcess;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Unsafe host mode ({@code AGENTBUS_SANDBOX_UNSAFE_HOST=true}): the shell runs on the host as the worker's user,
 * in the workspace directory, with the same cleared environment as a sandbox but no isolation at all. It leads its
 * own process group (setsid), and that group plus every descendant seen is killed on time-out. A process that
 * detaches into a session of its own escapes: that is what "unsafe" means.
 */
final class HostShellHost implements SandboxHost {
    private final Path workspace;
    private ProcessShell current;
    private final Set<ProcessHandle> seen = new LinkedHashSet<>();

    HostShellHost(Path workspace) {
        this.workspace = workspace.toAbsolutePath();
    }

    @Override
    public String backend() {
        return "host";
    }

    @Override
    public String workspacePath() {
        try {
            return workspace.toRealPath().toString();
        } catch (IOException e) {
            return workspace.toString();
        }
    }

    @Override
    public synchronized ShellProcess startShell() throws SandboxException {
        List<String> argv = new ArrayList<>();
        if (Files.isExecutable(Path.of("/usr/bin/setsid"))) {
            argv.add("/usr/bin/setsid");
        }
        argv.add("/bin/sh");
        ProcessBuilder builder = new ProcessBuilder(argv).directory(workspace.toFile()).redirectErrorStream(true);
        builder.environment().clear();
        builder.environment().put("PATH", Bubblewrap.SANDBOX_PATH);
        builder.environment().put("HOME", workspacePath());
        builder.environment().put("LANG", "C.UTF-8");
        builder.environment().put("TMPDIR", "/tmp");
        try {
            current = new ProcessShell(builder.start());
            return current;
        } catch (IOException e) {
            throw new SandboxException("could not start /bin/sh: " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized void killAll() {
        if (current == null) {
            return;
        }
        Process process = current.process();
        for (int round = 0; round < 3; round++) {
            process.descendants().forEach(seen::add);
            killGroup(process.pid());
            seen.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
        seen.clear();
    }

    /** Java cannot signal a process group; the shell's kill can ({@code -9 -pgid}). */
    private static void killGroup(long pgid) {
        try {
            Process kill = new ProcessBuilder("/bin/sh", "-c", "kill -9 -" + pgid + " 2>/dev/null")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            kill.waitFor(2, TimeUnit.SECONDS);
        } catch (IOException e) {
            // The descendants are still killed one by one.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void moved(Path workspace) {
        // Never pooled: the host shell's paths are the workspace's real path.
    }

    @Override
    public void close() {
        killAll();
    }
}
