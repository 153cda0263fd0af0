package dev.agentbus.sandbox.shell;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.OptionalInt;

/** A shell that is a child process of the worker (bubblewrap, or the host in unsafe mode). */
public final class ProcessShell implements ShellProcess {
    private final Process process;

    public ProcessShell(Process process) {
        this.process = process;
    }

    public Process process() {
        return process;
    }

    @Override
    public OutputStream stdin() {
        return process.getOutputStream();
    }

    @Override
    public InputStream output() {
        return process.getInputStream();
    }

    @Override
    public OptionalInt exitStatus() {
        try {
            // The output ends a moment before the process is reaped; give it that moment.
            if (process.waitFor(200, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                return OptionalInt.of(process.exitValue());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return OptionalInt.empty();
    }

    @Override
    public void destroy() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }
}
