package dev.agentbus.bench.steps;

import java.util.List;

/**
 * The tools a step can ask for, with the arguments the scripted model sends: {@code ls} starts no process and
 * changes no file; {@code shell} runs {@code true} in the session's sandbox (a warm one after the first step);
 * {@code write} changes a file, so the worker takes a checkpoint after it.
 */
record ToolUnderTest(String name, String argumentsJson) {
    static final List<String> NAMES = List.of("ls", "shell", "write");

    static ToolUnderTest named(String name) {
        return switch (name) {
            case "ls" -> new ToolUnderTest("ls", "{}");
            case "shell" -> new ToolUnderTest("shell", "{\"command\":\"true\"}");
            case "write" -> new ToolUnderTest("write", "{\"path\":\"step.txt\",\"content\":\"a step\\n\"}");
            default -> throw new IllegalArgumentException("unknown tool " + name);
        };
    }
}
