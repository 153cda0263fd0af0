package dev.agentbus.events.state;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentbus.events.Json;
import org.junit.jupiter.api.Test;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Snapshots are read back only when they are exactly what this code's fold would have computed. */
class SessionSnapshotTest {
    private static final Instant NOW = Instant.parse("2025-03-14T10:00:00Z");

    @Test
    void a_snapshot_reads_back_equal() {
        SessionState state = SessionFold.fold(FoldScenario.SESSION, SessionStateJsonTest.richHistory());
        SessionSnapshot snapshot = SessionSnapshot.of(2, 4711, 4000, 17, NOW, state);

        SessionSnapshot read = SessionSnapshot.decode(FoldScenario.SESSION, snapshot.encode());

        assertThat(read).isEqualTo(snapshot);
        assertThat(read.schemaVersion()).isEqualTo(SessionSnapshot.SCHEMA_VERSION);
        assertThat(read.seq()).isEqualTo(state.lastSeq());
        assertThat(read.state()).isEqualTo(state);
    }

    @Test
    void bytes_that_are_not_json_are_unusable() {
        assertThatThrownBy(() -> SessionSnapshot.decode(FoldScenario.SESSION, "{not json".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(SessionSnapshot.UnusableSnapshotException.class).hasMessageContaining("not JSON");
        assertThatThrownBy(() -> SessionSnapshot.decode(FoldScenario.SESSION, "[1,2]".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(SessionSnapshot.UnusableSnapshotException.class);
    }

    @Test
    void a_snapshot_of_another_schema_version_is_unusable_even_when_it_parses() {
        ObjectNode tree = tree(snapshot());
        tree.put("schemaVersion", SessionSnapshot.SCHEMA_VERSION + 1);

        assertThatThrownBy(() -> SessionSnapshot.decode(FoldScenario.SESSION, bytes(tree)))
                .isInstanceOf(SessionSnapshot.UnusableSnapshotException.class).hasMessageContaining("schema version");
    }

    @Test
    void a_snapshot_without_a_schema_version_is_unusable() {
        ObjectNode tree = tree(snapshot());
        tree.remove("schemaVersion");

        assertThatThrownBy(() -> SessionSnapshot.decode(FoldScenario.SESSION, bytes(tree)))
                .isInstanceOf(SessionSnapshot.UnusableSnapshotException.class);
    }

    @Test
    void a_state_that_does_not_parse_is_unusable() {
        ObjectNode tree = tree(snapshot());
        ((ObjectNode) tree.get("state")).put("messages", "not a list");

        assertThatThrownBy(() -> SessionSnapshot.decode(FoldScenario.SESSION, bytes(tree)))
                .isInstanceOf(SessionSnapshot.UnusableSnapshotException.class).hasMessageContaining("does not parse");
    }

    @Test
    void a_snapshot_under_another_sessions_key_is_unusable() {
        assertThatThrownBy(() -> SessionSnapshot.decode("ses-other", snapshot().encode()))
                .isInstanceOf(SessionSnapshot.UnusableSnapshotException.class).hasMessageContaining("ses-other");
    }

    @Test
    void a_snapshot_whose_seq_is_not_its_states_seq_is_unusable() {
        ObjectNode tree = tree(snapshot());
        tree.put("seq", 999);

        assertThatThrownBy(() -> SessionSnapshot.decode(FoldScenario.SESSION, bytes(tree)))
                .isInstanceOf(SessionSnapshot.UnusableSnapshotException.class).hasMessageContaining("seq 999");
    }

    /**
     * A snapshot holds what the fold computed when it was written. If SessionState changes shape, snapshots written
     * before must be ignored, so SCHEMA_VERSION must go up: this test fails until it does (then pin the new shape).
     * A change in how events fold without a change of shape shows in the golden state files; bump the version then
     * too.
     */
    @Test
    void the_schema_version_goes_up_when_the_state_changes_shape() throws Exception {
        String shape = shape(SessionState.class, new TreeSet<>());
        String fingerprint = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(shape.getBytes(StandardCharsets.UTF_8))).substring(0, 16);

        assertThat(SessionSnapshot.SCHEMA_VERSION + ":" + fingerprint)
                .as("SessionState's shape changed: raise SessionSnapshot.SCHEMA_VERSION and pin the new fingerprint. "
                        + "Shape now: %s", shape)
                .isEqualTo("9:" + PINNED_FINGERPRINT_OF_VERSION_9);
    }

    // Version 2: the permission mode, pending approvals and always-allowed tools (approvals).
    // Version 3: queued whispers, the turn's loop warnings, the LOOP_DETECTED outcome (steering and loop guards).
    // Version 4: the DELETED status (deleting a session).
    // Version 5: the context (system prompt, context files, gauge, summary of compacted messages).
    // Version 6: planning (plan-first mode, todos, the plan, the task state).
    // Version 7: models (the session's own model and sampling, what the latest model call asked for).
    // Version 8: sub-agents (the session's parent link and its children), the MCP servers and their tools (mcp),
    // images attached to user messages, reasoning effort and thinking budget, the model warning given.
    // Version 9: the context's injected memory insights and the incognito flag (memory insights).
    private static final String PINNED_FINGERPRINT_OF_VERSION_9 = "f5fef07ddd389712";

    /** Names and types of every record component reachable from the type, enum constants and sealed subtypes. */
    private static String shape(Type type, Set<String> seen) {
        if (type instanceof ParameterizedType p) {
            StringBuilder s = new StringBuilder(shape(p.getRawType(), seen)).append('<');
            for (Type arg : p.getActualTypeArguments()) {
                s.append(shape(arg, seen)).append(',');
            }
            return s.append('>').toString();
        }
        Class<?> c = (Class<?>) type;
        String name = c.getName();
        if (!name.startsWith("dev.agentbus.") || !seen.add(name)) {
            return c.getSimpleName();
        }
        StringBuilder s = new StringBuilder(c.getSimpleName());
        if (c.isEnum()) {
            s.append(Arrays.toString(c.getEnumConstants()));
        } else if (c.isRecord()) {
            s.append('(');
            for (RecordComponent rc : c.getRecordComponents()) {
                s.append(rc.getName()).append(':').append(shape(rc.getGenericType(), seen)).append(';');
            }
            s.append(')');
        } else if (c.isSealed()) {
            s.append('{');
            for (Class<?> sub : c.getPermittedSubclasses()) {
                s.append(shape(sub, seen)).append('|');
            }
            s.append('}');
        }
        return s.toString();
    }

    private static SessionSnapshot snapshot() {
        return SessionSnapshot.of(0, 10, 0, 1, NOW,
                SessionFold.fold(FoldScenario.SESSION, SessionStateJsonTest.richHistory()));
    }

    private static ObjectNode tree(SessionSnapshot s) {
        return Json.mapper().valueToTree(s);
    }

    private static byte[] bytes(ObjectNode tree) {
        return tree.toString().getBytes(StandardCharsets.UTF_8);
    }
}
