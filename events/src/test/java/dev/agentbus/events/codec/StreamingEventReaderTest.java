package dev.agentbus.events.codec;

import dev.agentbus.events.Json;
import dev.agentbus.events.Samples;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one-pass reader is only a faster way to the same answer: for every record it either returns exactly what
 * the tree reader does, or nothing (and the tree reader decides).
 */
class StreamingEventReaderTest {

    private static EventEnvelope streaming(String json) {
        return StreamingEventReader.read(json.getBytes(StandardCharsets.UTF_8), Json.mapper(), EventCodec.EVENT_TYPES);
    }

    @Test
    void every_event_type_and_every_golden_record_reads_the_same_both_ways() throws Exception {
        List<String> records = new ArrayList<>(goldenRecords());
        EventCodec.EVENT_TYPES.all().values().forEach(c -> records.add(EventCodec.eventToJson(new EventEnvelope(
                "e-1", "s-1", 7, Instant.parse("2026-01-02T03:04:05.123Z"), "i-1", "u-1", Samples.of(c)))));
        assertThat(records).hasSizeGreaterThan(30);

        for (String json : records) {
            EventEnvelope byTree = EventCodec.eventFromNode(Json.mapper().readTree(json));
            EventEnvelope fast = streaming(json);
            if (byTree.event() instanceof SessionEvent.UnknownEvent) {
                assertThat(fast).as("an unknown type is the tree reader's: %s", json).isNull();
            } else {
                assertThat(fast).as("read in one pass: %s", json).isEqualTo(byTree);
            }
            assertThat(EventCodec.decodeEvent(json.getBytes(StandardCharsets.UTF_8))).isEqualTo(byTree);
        }
    }

    @Test
    void anything_unusual_is_left_to_the_tree_reader() {
        String data = "\"data\":{\"title\":\"t\"}";
        List<String> unusual = List.of(
                "{\"type\":\"future.thing.v9\",\"id\":\"e\",\"sessionId\":\"s\",\"seq\":1,\"data\":{}}",
                "{" + data + ",\"type\":\"session.created.v1\",\"id\":\"e\",\"sessionId\":\"s\",\"seq\":1}",
                "{\"type\":\"session.created.v1\",\"type\":\"session.created.v1\",\"id\":\"e\",\"sessionId\":\"s\",\"seq\":1,"
                        + data + "}",
                "{\"type\":\"session.created.v1\",\"id\":\"e\",\"sessionId\":\"s\",\"seq\":\"1\"," + data + "}",
                "{\"type\":\"session.created.v1\",\"id\":7,\"sessionId\":\"s\",\"seq\":1," + data + "}",
                "{\"type\":\"session.created.v1\",\"id\":\"e\",\"sessionId\":\"s\",\"seq\":1,\"data\":[]}",
                "{\"type\":\"turn.ended.v1\",\"id\":\"e\",\"sessionId\":\"s\",\"seq\":1,\"data\":{\"outcome\":\"NEW\"}}",
                "{\"type\":\"session.created.v1\",\"id\":\"e\",\"sessionId\":\"s\",\"seq\":1,\"time\":\"soon\"," + data + "}",
                "{\"type\":\"session.created.v1\",\"id\":\"e\",\"sessionId\":\"s\"," + data + "}",
                "{\"type\":\"session.created.v1\",\"id\":\"e\",\"sessionId\":\"s\",\"seq\":1," + data + "} trailing",
                "not json");
        for (String json : unusual) {
            assertThat(streaming(json)).as(json).isNull();
        }
        // and the tree reader's answers stand: an unknown type or unreadable payload is kept, the rest refused
        assertThat(EventCodec.decodeEvent(unusual.get(0)).event()).isInstanceOf(SessionEvent.UnknownEvent.class);
        assertThat(EventCodec.decodeEvent(unusual.get(1)).event()).isInstanceOf(SessionEvent.SessionCreated.class);
        assertThat(EventCodec.decodeEvent(unusual.get(6)).event()).isInstanceOf(SessionEvent.UnknownEvent.class);
    }

    private static List<String> goldenRecords() throws IOException, URISyntaxException {
        Path dir = Path.of(StreamingEventReaderTest.class.getResource("/golden").toURI());
        try (Stream<Path> files = Files.list(dir)) {
            List<String> lines = new ArrayList<>();
            for (Path f : files.filter(f -> f.toString().endsWith(".jsonl")).sorted().toList()) {
                Files.readAllLines(f).stream().filter(l -> !l.isBlank()).forEach(lines::add);
            }
            return lines;
        }
    }
}
