package dev.agentbus.events;

import dev.agentbus.events.planning.TodoStatus;
import dev.agentbus.events.session.PermissionMode;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class EnumNamesTest {
    @Test
    void a_name_is_read_in_any_case_with_spaces_around_it() {
        assertThat(EnumNames.parse(PermissionMode.class, " Manual ")).contains(PermissionMode.MANUAL);
        assertThat(EnumNames.parse(PermissionMode.class, "AUTO")).contains(PermissionMode.AUTO);
    }

    @Test
    void null_blank_and_unknown_names_are_nothing() {
        assertThat(EnumNames.parse(PermissionMode.class, null)).isEmpty();
        assertThat(EnumNames.parse(PermissionMode.class, " ")).isEmpty();
        assertThat(EnumNames.parse(PermissionMode.class, "strict")).isEmpty();
    }

    @Test
    void todo_states_are_also_read_with_a_hyphen() {
        assertThat(TodoStatus.parse("in-progress")).contains(TodoStatus.IN_PROGRESS);
    }
}
