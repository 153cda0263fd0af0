package dev.agentbus.systemtests;

import dev.agentbus.cli.AgentbusCli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the agentbus CLI as its own OS process, as a person in a terminal would, and captures what it printed. */
final class CliProcess {
    record Result(int exitCode, String out, String err) {
    }

    static Result run(String gatewayUrl, String token, Path scratch, String... args) throws Exception {
        return runWithInput(gatewayUrl, token, scratch, "", args);
    }

    /** Runs it with {@code stdin} piped in (the REPL reads it line by line, then exits at its end). */
    static Result runWithInput(String gatewayUrl, String token, Path scratch, String stdin, String... args)
            throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
                AgentbusCli.class.getName()));
        command.addAll(List.of(args));
        Files.createDirectories(scratch);
        Path out = Files.createTempFile(scratch, "cli", ".out");
        Path err = Files.createTempFile(scratch, "cli", ".err");
        Path in = Files.writeString(Files.createTempFile(scratch, "cli", ".in"), stdin);
        ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
                .redirectInput(in.toFile());
        pb.environment().put("AGENTBUS_URL", gatewayUrl);
        pb.environment().put("AGENTBUS_TOKEN", token);
        pb.environment().put("NO_COLOR", "1");
        Process p = pb.start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("the CLI did not finish: " + Files.readString(out) + Files.readString(err));
        }
        return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
    }
}
