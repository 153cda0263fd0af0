package dev.agentbus.events.state;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import dev.agentbus.events.Json;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.codec.MalformedRecordException;
import dev.agentbus.events.session.EventEnvelope;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Golden histories (section 7): recorded sessions replayed through today's fold must give the state recorded next
 * to them. Each {@code golden/NAME.jsonl} holds one event envelope per line in the wire format; its folded state is
 * kept in {@code golden/NAME.state.json}.
 *
 * <p>When the fold changes on purpose, regenerate with
 * {@code ./mvnw -o -pl events test -Dtest=GoldenHistoryTest -Dgolden.update=true}, read the diff of the
 * {@code .state.json} files, and commit them only if every change is intended. The test fails after writing so that a
 * regenerated fixture is never silently accepted.
 */
class GoldenHistoryTest {
    private static final String UPDATE_PROPERTY = "golden.update";

    /**
     * The wire mapper plus what a readable, stable fixture needs: indented with '\n' on every platform, properties in
     * alphabetical order (independent of how Jackson orders record components), nulls written out so every field of
     * the state is visible, and each message labelled with its kind (User, Assistant, Tool, Notice). Map entries keep
     * the fold's order (tool calls in the order they were proposed), which is part of the behaviour under test.
     */
    static final ObjectWriter STATE_JSON = stateWriter();

    @SuppressWarnings("deprecation") // configuring a copy is the only way to derive from Json.mapper()
    private static ObjectWriter stateWriter() {
        ObjectMapper mapper = Json.mapper().copy()
                .configure(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY, true)
                .setSerializationInclusion(JsonInclude.Include.ALWAYS)
                .addMixIn(Message.class, MessageKind.class);
        DefaultIndenter indenter = new DefaultIndenter("  ", "\n");
        return mapper.writer(new DefaultPrettyPrinter()
                .withObjectIndenter(indenter)
                .withArrayIndenter(indenter));
    }

    @JsonTypeInfo(use = JsonTypeInfo.Id.SIMPLE_NAME, include = JsonTypeInfo.As.PROPERTY, property = "kind")
    private interface MessageKind {
    }

    @TestFactory
    Stream<DynamicTest> every_golden_history_folds_to_its_recorded_state() throws IOException {
        Path dir = goldenDir();
        List<Path> histories;
        try (Stream<Path> files = Files.list(dir)) {
            histories = files.filter(p -> p.getFileName().toString().endsWith(".jsonl")).sorted().toList();
        }
        assertThat(histories).as("golden histories in " + dir.toAbsolutePath()).isNotEmpty();
        return histories.stream().map(h -> DynamicTest.dynamicTest(h.getFileName().toString(), () -> check(h)));
    }

    private static void check(Path history) throws IOException {
        List<EventEnvelope> events = read(history);
        String sessionId = events.getFirst().sessionId();
        for (int i = 0; i < events.size(); i++) {
            EventEnvelope e = events.get(i);
            assertThat(e.seq()).as("%s: seq of event %d (invariant 1: 1, 2, 3 … without gaps)", history, i + 1)
                    .isEqualTo(i + 1);
            assertThat(e.sessionId()).as("%s line %d: one session per history", history, i + 1).isEqualTo(sessionId);
        }

        SessionState state = SessionFold.fold(sessionId, events);
        assertThat(state.lastSeq()).isEqualTo(events.size());
        String actual = STATE_JSON.writeValueAsString(state) + "\n";

        String name = history.getFileName().toString();
        Path expectedFile = history.resolveSibling(name.substring(0, name.length() - ".jsonl".length()) + ".state.json");
        boolean update = Boolean.getBoolean(UPDATE_PROPERTY);
        if (update || !Files.exists(expectedFile)) {
            Files.writeString(expectedFile, actual, StandardCharsets.UTF_8);
            fail("%s %s from %s. Review it (for example with `git diff -- %s`): every change must be an intended change "
                            + "of the fold. Commit it if it is right, then run the tests again without -D%s=true.",
                    update ? "Rewrote" : "Wrote the missing", expectedFile.toAbsolutePath(), name,
                    expectedFile, UPDATE_PROPERTY);
        }
        String expected = Files.readString(expectedFile, StandardCharsets.UTF_8).replace("\r\n", "\n");
        assertThat(actual)
                .as("state folded from %s differs from %s; if the fold changed on purpose, rerun with -D%s=true "
                        + "and review the fixture diff", name, expectedFile.getFileName(), UPDATE_PROPERTY)
                .isEqualTo(expected);
    }

    private static List<EventEnvelope> read(Path history) throws IOException {
        List<EventEnvelope> events = new ArrayList<>();
        List<String> lines = Files.readAllLines(history, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank()) {
                continue;
            }
            try {
                events.add(EventCodec.decodeEvent(line));
            } catch (MalformedRecordException e) {
                throw new AssertionError(history.getFileName() + " line " + (i + 1) + " is not an event envelope: "
                        + e.getMessage(), e);
            }
        }
        assertThat(events).as("events in " + history).isNotEmpty();
        return events;
    }

    /** The fixtures in the source tree, so a rewrite lands where it can be reviewed and committed. */
    private static Path goldenDir() {
        for (Path candidate : List.of(Paths.get("src/test/resources/golden"),
                Paths.get("events/src/test/resources/golden"))) {
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        throw new AssertionError("no golden directory under " + Paths.get("").toAbsolutePath()
                + "; run the tests from the events module directory");
    }
}
