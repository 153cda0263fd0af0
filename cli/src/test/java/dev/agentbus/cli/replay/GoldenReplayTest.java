package dev.agentbus.cli.replay;

import dev.agentbus.cli.TestCli;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.state.SessionFold;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every golden history of the events module (recorded sessions kept as regression fixtures) replays through the
 * CLI, offline, to the state the fold gives: the replay reads real logs, not only the ones these tests build.
 */
class GoldenReplayTest {
    @TempDir
    Path home;

    @TestFactory
    Stream<DynamicTest> every_golden_history_replays_offline_to_its_folded_state() throws IOException {
        Path dir = Path.of("../events/src/test/resources/golden");
        List<Path> histories;
        try (Stream<Path> files = Files.list(dir)) {
            histories = files.filter(p -> p.toString().endsWith(".jsonl")).sorted().toList();
        }
        assertThat(histories).as("golden histories in " + dir.toAbsolutePath()).hasSizeGreaterThanOrEqualTo(2);
        return histories.stream().map(h -> DynamicTest.dynamicTest(h.getFileName().toString(), () -> replay(h)));
    }

    private void replay(Path history) throws Exception {
        List<EventEnvelope> log = SessionLog.parse(history.toString(),
                Files.readAllLines(history, StandardCharsets.UTF_8));
        TestCli cli = new TestCli(home);
        cli.env.put("AGENTBUS_URL", "http://127.0.0.1:9"); // nothing listens there: a file needs no gateway

        assertThat(cli.run("replay", history.toString())).as(cli.err()).isZero();

        var state = SessionFold.fold(log.getFirst().sessionId(), log);
        assertThat(cli.out()).contains("State at seq " + log.size() + " of " + log.size())
                .contains("status   " + state.status());
        assertThat(cli.out().lines().filter(l -> l.matches("\\s*\\d+  \\d\\d:\\d\\d:\\d\\d\\.\\d{3}.*")).count())
                .as("one timeline entry per event").isEqualTo(log.size());
        if (state.checkpoint() != null) {
            assertThat(cli.out()).contains(state.checkpoint());
        }
    }
}
