package dev.agentbus.events.codec;

import dev.agentbus.events.WireType;
import dev.agentbus.events.input.SessionInput;
import dev.agentbus.events.session.SessionEvent;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Wire names are explicit, versioned, unique and never derived from Java names (section 4). */
class WireTypesTest {
    static final Pattern WIRE_NAME = Pattern.compile("^[a-z_]+(\\.[a-z_]+)*\\.v[0-9]+$");

    private static List<String> allWireNames() {
        List<String> names = new ArrayList<>();
        names.addAll(EventCodec.EVENT_TYPES.all().keySet());
        names.addAll(EventCodec.INPUT_TYPES.all().keySet());
        names.addAll(EventCodec.MEMORY_COMMAND_TYPES.all().keySet());
        return names;
    }

    @Test
    void every_wire_name_is_lower_case_dotted_and_versioned() {
        assertThat(allWireNames()).isNotEmpty().allSatisfy(name -> assertThat(name).matches(WIRE_NAME));
    }

    @Test
    void wire_names_are_unique_across_all_streams() {
        assertThat(allWireNames()).doesNotHaveDuplicates();
    }

    @Test
    void wire_names_are_the_annotated_ones_and_map_both_ways() {
        for (var registry : List.of(EventCodec.EVENT_TYPES, EventCodec.INPUT_TYPES, EventCodec.MEMORY_COMMAND_TYPES)) {
            for (Map.Entry<String, ? extends Class<?>> e : registry.all().entrySet()) {
                assertThat(e.getValue().getAnnotation(WireType.class).value()).isEqualTo(e.getKey());
                assertThat(registry.nameOf(e.getValue())).isEqualTo(e.getKey());
                assertThat((Object) registry.classOf(e.getKey())).isEqualTo(e.getValue());
            }
        }
    }

    @Test
    void a_wire_name_does_not_depend_on_the_java_class_name() {
        for (var e : EventCodec.EVENT_TYPES.all().entrySet()) {
            assertThat(e.getKey()).doesNotContain(e.getValue().getSimpleName());
        }
        assertThat(EventCodec.EVENT_TYPES.classOf("SessionCreated")).isNull();
        assertThat(EventCodec.EVENT_TYPES.classOf("dev.agentbus.events.session.SessionEvent$SessionCreated")).isNull();
    }

    @Test
    void events_are_named_in_the_past_tense() {
        // The verb is the segment before the version: tool_call.requested.v1 -> "requested". Events are facts.
        assertThat(EventCodec.EVENT_TYPES.all().keySet())
                .allSatisfy(name -> assertThat(verb(name)).as(name).endsWith("ed"));
    }

    @Test
    void unknown_names_have_no_class_and_the_unknown_records_have_no_name() {
        assertThat(EventCodec.EVENT_TYPES.classOf("future_thing.happened.v9")).isNull();
        assertThat(EventCodec.INPUT_TYPES.classOf("future_thing.happen.v9")).isNull();
        assertThat(EventCodec.MEMORY_COMMAND_TYPES.classOf("memory.set.v2")).isNull();
        assertThat(SessionEvent.UnknownEvent.class.getAnnotation(WireType.class)).isNull();
        assertThat(SessionInput.UnknownInput.class.getAnnotation(WireType.class)).isNull();
        assertThatThrownBy(() -> EventCodec.INPUT_TYPES.nameOf(SessionInput.UnknownInput.class))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void the_name_table_is_read_only() {
        assertThatThrownBy(() -> EventCodec.EVENT_TYPES.all().put("x.v1", SessionEvent.WaitEnded.class))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    // ---- the table refuses records it cannot name ----------------------------------------------------------------

    sealed interface Unnamed {
        @WireType("thing.named.v1")
        record Named() implements Unnamed {
        }

        record Forgotten() implements Unnamed {
        }
    }

    sealed interface Twice {
        @WireType("thing.happened.v1")
        record First() implements Twice {
        }

        @WireType("thing.happened.v1")
        record Second() implements Twice {
        }
    }

    @Test
    void a_record_without_a_wire_name_fails_when_the_table_is_built() {
        assertThatThrownBy(() -> new WireTypes<>(Unnamed.class))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Forgotten has no @WireType");
        assertThat(new WireTypes<>(Unnamed.class, Unnamed.Forgotten.class).all()).containsOnlyKeys("thing.named.v1");
    }

    @Test
    void two_records_with_the_same_wire_name_fail_when_the_table_is_built() {
        assertThatThrownBy(() -> new WireTypes<>(Twice.class))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("duplicate wire type thing.happened.v1");
    }

    private static String verb(String wireName) {
        String[] parts = wireName.split("\\.");
        return parts[parts.length - 2];
    }
}
