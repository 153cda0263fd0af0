package dev.agentbus.events;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.codec.WireTypes;
import dev.agentbus.events.topics.TopicSpec;
import dev.agentbus.events.topics.Topics;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/events.md is the catalogue of every topic and record type (section 4). This test keeps it from drifting:
 * every wire type and topic of the code must be in it, with the payload fields the record really has, and the doc
 * must not name a wire type or topic the code does not have.
 */
class EventCatalogueDocTest {
    private static final Pattern WIRE_NAME_IN_TEXT = Pattern.compile("(?<![\\w.])[a-z_]+(?:\\.[a-z_]+)*\\.v[0-9]+\\b");
    private static final Pattern TOPIC_IN_TEXT = Pattern.compile("(?<![\\w.])agentbus\\.[a-z][a-z-]*[a-z](?![\\w-]|\\.[a-z])");
    private static final Pattern BACKTICKED = Pattern.compile("`([^`]+)`");
    private static final Pattern JSON_BLOCK = Pattern.compile("```json\\n(.*?)```", Pattern.DOTALL);

    private static Path docPath;
    private static String doc;
    private static List<String> lines;

    @BeforeAll
    static void readDoc() throws IOException {
        // Under Maven the working directory is the module directory; docs/ is beside the modules.
        docPath = Paths.get("").toAbsolutePath().getParent().resolve("docs").resolve("events.md");
        assertThat(docPath).as("the event catalogue").exists();
        doc = Files.readString(docPath, StandardCharsets.UTF_8).replace("\r\n", "\n");
        lines = doc.lines().toList();
    }

    @Test
    void every_wire_type_has_one_table_row_with_its_record_and_its_payload_fields() {
        SoftAssertions softly = new SoftAssertions();
        for (WireTypes<?> registry : List.of(EventCodec.EVENT_TYPES, EventCodec.INPUT_TYPES,
                EventCodec.MEMORY_COMMAND_TYPES)) {
            for (Map.Entry<String, ? extends Class<?>> type : registry.all().entrySet()) {
                List<String> rows = lines.stream().filter(l -> l.startsWith("| `" + type.getKey() + "` |")).toList();
                softly.assertThat(rows).as("table rows for %s in %s", type.getKey(), docPath).hasSize(1);
                if (rows.size() != 1) {
                    continue;
                }
                List<String> cells = cells(rows.getFirst());
                softly.assertThat(backticked(cells.get(1)))
                        .as("record column of %s", type.getKey())
                        .anySatisfy(name -> assertThat(name).endsWith(type.getValue().getSimpleName()));
                softly.assertThat(backticked(cells.getLast()))
                        .as("payload fields column of %s (the last column) must list exactly the record's components",
                                type.getKey())
                        .containsExactlyInAnyOrderElementsOf(componentNames(type.getValue()));
            }
        }
        softly.assertAll();
    }

    @Test
    void the_doc_names_no_wire_type_the_code_does_not_have() {
        Set<String> known = new TreeSet<>();
        known.addAll(EventCodec.EVENT_TYPES.all().keySet());
        known.addAll(EventCodec.INPUT_TYPES.all().keySet());
        known.addAll(EventCodec.MEMORY_COMMAND_TYPES.all().keySet());

        Set<String> named = matches(WIRE_NAME_IN_TEXT, doc);

        assertThat(named).as("wire types named in %s", docPath).isNotEmpty();
        assertThat(named).as("wire types named in %s but unknown to the code", docPath).isSubsetOf(known);
        assertThat(named).as("every wire type of the code is named in %s", docPath).containsAll(known);
    }

    @Test
    void every_topic_has_a_section_with_its_key_value_retention_and_cleanup() {
        SoftAssertions softly = new SoftAssertions();
        for (TopicSpec topic : Topics.ALL) {
            String section = section(topic.name());
            softly.assertThat(section).as("a section whose heading names %s", topic.name()).isNotNull();
            if (section == null) {
                continue;
            }
            softly.assertThat(section).as("key of " + topic.name()).contains("**Key:** " + topic.key());
            softly.assertThat(section).as("value of " + topic.name())
                    .contains("**Value:** `" + topic.valueType().getSimpleName() + "`");
            softly.assertThat(section).as("retention of " + topic.name())
                    .contains("**Retention:** " + retention(topic.retention()));
            softly.assertThat(section).as("cleanup of " + topic.name())
                    .contains("**Cleanup:** " + (topic.compacted() ? "compact" : "delete"));
        }
        softly.assertAll();
    }

    @Test
    void the_doc_names_no_topic_the_code_does_not_have() {
        Set<String> known = new TreeSet<>();
        Topics.ALL.forEach(t -> known.add(t.name()));

        assertThat(matches(TOPIC_IN_TEXT, doc)).as("topics named in %s", docPath).isEqualTo(known);
    }

    @Test
    void every_json_example_is_a_record_the_codec_reads() {
        Matcher m = JSON_BLOCK.matcher(doc);
        List<String> blocks = new ArrayList<>();
        while (m.find()) {
            blocks.add(m.group(1));
        }
        assertThat(blocks).as("```json examples in %s", docPath).isNotEmpty();
        for (String block : blocks) {
            JsonNode node = readJson(block);
            String type = node.path("type").asText();
            if (node.has("seq")) {
                assertThat(EventCodec.decodeEvent(block).event().getClass())
                        .as(block).isEqualTo(EventCodec.EVENT_TYPES.classOf(type));
            } else if (EventCodec.INPUT_TYPES.classOf(type) != null) {
                assertThat(EventCodec.decodeInput(block.getBytes(StandardCharsets.UTF_8)).input().getClass())
                        .as(block).isEqualTo(EventCodec.INPUT_TYPES.classOf(type));
            } else {
                assertThat(EventCodec.decodeMemoryCommand(block.getBytes(StandardCharsets.UTF_8)))
                        .as("example of an unknown type: %s", block).isNotNull();
            }
        }
    }

    // ---- helpers ------------------------------------------------------------------------------------------------------

    /** The text from the heading that names the topic to the next heading of the same or a higher level. */
    private static String section(String topic) {
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.startsWith("#") && line.contains("`" + topic + "`")) {
                int level = line.indexOf(' ');
                StringBuilder sb = new StringBuilder();
                for (int j = i + 1; j < lines.size(); j++) {
                    String next = lines.get(j);
                    if (next.startsWith("#") && next.indexOf(' ') <= level) {
                        break;
                    }
                    sb.append(next).append('\n');
                }
                return sb.toString();
            }
        }
        return null;
    }

    static String retention(Duration d) {
        if (d == null) {
            return "forever";
        }
        if (d.toDays() > 0 && d.equals(Duration.ofDays(d.toDays()))) {
            return d.toDays() + (d.toDays() == 1 ? " day" : " days");
        }
        if (d.toHours() > 0 && d.equals(Duration.ofHours(d.toHours()))) {
            return d.toHours() + (d.toHours() == 1 ? " hour" : " hours");
        }
        return d.toMinutes() + " minutes";
    }

    private static List<String> cells(String row) {
        String inner = row.strip();
        inner = inner.substring(1, inner.length() - (inner.endsWith("|") ? 1 : 0));
        List<String> out = new ArrayList<>();
        for (String cell : inner.split("(?<!\\\\)\\|", -1)) {
            out.add(cell.strip());
        }
        return out;
    }

    private static Set<String> backticked(String text) {
        return matches(BACKTICKED, text, 1);
    }

    private static Set<String> matches(Pattern p, String text) {
        return matches(p, text, 0);
    }

    private static Set<String> matches(Pattern p, String text, int group) {
        Set<String> out = new LinkedHashSet<>();
        Matcher m = p.matcher(text);
        while (m.find()) {
            out.add(m.group(group));
        }
        return out;
    }

    private static List<String> componentNames(Class<?> record) {
        List<String> names = new ArrayList<>();
        for (RecordComponent c : record.getRecordComponents()) {
            names.add(c.getName());
        }
        return names;
    }

    private static JsonNode readJson(String text) {
        try {
            return Json.mapper().readTree(text);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + text, e);
        }
    }
}
