package dev.agentbus.sandbox.checkpointing;

import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Checkpoints start no process: every process the JVM starts is a {@code jdk.ProcessStart} event of the flight
 * recorder, and a recording around checkpoints, a rewind and a fork's restore holds only the one this test starts
 * itself (which shows the recording sees processes at all).
 */
class NoGitProcessTest {
    @TempDir
    Path root;

    @Test
    void taking_rewinding_and_forking_checkpoints_starts_no_process() throws Exception {
        List<String> started;
        try (Recording recording = new Recording()) {
            recording.enable("jdk.ProcessStart");
            recording.start();

            Checkpoints checkpoints = new Checkpoints(root, Clock.systemUTC());
            Path workspace = Files.createDirectories(root.resolve("alice").resolve("s1"));
            Files.writeString(workspace.resolve("a.txt"), "one\n");
            String first = checkpoints.record("alice", "s1", workspace, "shell", "c1").orElseThrow();
            Files.writeString(workspace.resolve("a.txt"), "two\n");
            checkpoints.record("alice", "s1", workspace, "write", "c2", List.of(workspace.resolve("a.txt")));
            checkpoints.rewind("alice", "s1", workspace, first);
            checkpoints.record("alice", "s1", workspace, "rewind", "u1");
            Path fork = Files.createDirectories(root.resolve("bob").resolve("f1"));
            checkpoints.startFork("alice", "s1", first, "bob", "f1", fork);
            new ProcessBuilder("true").start().waitFor(); // the control

            recording.stop();
            Path file = root.resolve("recording.jfr");
            recording.dump(file);
            started = RecordingFile.readAllEvents(file).stream()
                    .filter(e -> e.getEventType().getName().equals("jdk.ProcessStart"))
                    .map(NoGitProcessTest::command)
                    .toList();
        }

        assertThat(started).containsExactly("true");
    }

    private static String command(RecordedEvent event) {
        return event.getString("command").strip();
    }
}
