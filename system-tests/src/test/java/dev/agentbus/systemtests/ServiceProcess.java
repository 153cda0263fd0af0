package dev.agentbus.systemtests;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One Agentbus service as its own OS process, started from this test's class path with its own {@code main}, the
 * way a deployment runs it. Output goes to a log file under target/ for post-mortems.
 */
final class ServiceProcess implements AutoCloseable {
    private final String name;
    private final String mainClass;
    private final Map<String, String> env;
    private final Path logDir;
    private Process process;
    private int starts;

    ServiceProcess(String name, String mainClass, Map<String, String> env, Path logDir) {
        this.name = name;
        this.mainClass = mainClass;
        this.env = env;
        this.logDir = logDir;
    }

    ServiceProcess start() throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        ProcessBuilder pb = new ProcessBuilder(List.of(java, "-Xmx256m", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), mainClass));
        pb.environment().putAll(env);
        Files.createDirectories(logDir);
        Path log = logDir.resolve(name + "-" + (++starts) + ".log");
        pb.redirectErrorStream(true).redirectOutput(log.toFile());
        process = pb.start();
        return this;
    }

    /** SIGKILL: no shutdown hook, no flush, no goodbye — a crash. */
    void kill9() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    boolean isAlive() {
        return process != null && process.isAlive();
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }
}
