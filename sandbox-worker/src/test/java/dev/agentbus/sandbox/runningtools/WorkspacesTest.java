package dev.agentbus.sandbox.runningtools;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WorkspacesTest {
    @TempDir
    Path tmp;

    private Path root() {
        return tmp.resolve("workspaces");
    }

    @Test
    void a_session_gets_its_own_directory_under_its_user_inside_the_root() throws IOException {
        Workspaces workspaces = new Workspaces(root());

        Path dir = workspaces.forSession("alice", "s-1");

        assertThat(dir).isEqualTo(root().toAbsolutePath().normalize().resolve("alice").resolve("s-1"));
        assertThat(dir).isDirectory();
        assertThat(dir.startsWith(workspaces.root())).isTrue();
    }

    @Test
    void asking_again_for_the_same_session_gives_the_same_directory_with_its_files() throws IOException {
        Workspaces workspaces = new Workspaces(root());
        Path first = workspaces.forSession("alice", "s-1");
        Files.writeString(first.resolve("notes.txt"), "keep me");

        Path again = workspaces.forSession("alice", "s-1");

        assertThat(again).isEqualTo(first);
        assertThat(again.resolve("notes.txt")).hasContent("keep me");
    }

    @Test
    void the_root_is_made_absolute_and_normalised() {
        Path messy = tmp.resolve("a").resolve("..").resolve("workspaces");

        Workspaces workspaces = new Workspaces(messy);

        assertThat(workspaces.root()).isAbsolute().isEqualTo(root().toAbsolutePath().normalize());
    }

    @Test
    void two_users_sessions_never_share_a_directory_even_with_the_same_session_id() throws IOException {
        Workspaces workspaces = new Workspaces(root());

        Path alice = workspaces.forSession("alice", "s-1");
        Path bob = workspaces.forSession("bob", "s-1");
        Files.writeString(alice.resolve("secret.txt"), "alice only");

        assertThat(alice).isNotEqualTo(bob);
        assertThat(alice.startsWith(bob)).isFalse();
        assertThat(bob.startsWith(alice)).isFalse();
        assertThat(bob.resolve("secret.txt")).doesNotExist();
    }

    @Test
    void ids_may_use_letters_digits_dots_dashes_and_underscores_up_to_128_characters() throws IOException {
        Workspaces workspaces = new Workspaces(root());
        String longest = "a".repeat(128);

        assertThat(workspaces.forSession("Alice_01", "s-1.v2_b")).isDirectory();
        assertThat(workspaces.forSession(longest, longest)).isDirectory();
    }

    static Stream<String> unsafeIds() {
        return Stream.of("..", "../bob", "a/../../etc", "a..b", "a/b", "/etc", ".hidden", "-leading-dash",
                "with space", "a\\b", "a".repeat(129), "naïve");
    }

    @ParameterizedTest
    @NullAndEmptySource
    @MethodSource("unsafeIds")
    void an_unsafe_session_id_is_refused_and_nothing_is_created(String sessionId) throws IOException {
        Workspaces workspaces = new Workspaces(root());

        assertThatThrownBy(() -> workspaces.forSession("alice", sessionId))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("unsafe");
        assertThat(root()).doesNotExist();
        assertThat(tmp.resolve("bob")).doesNotExist();
    }

    @ParameterizedTest
    @NullAndEmptySource
    @MethodSource("unsafeIds")
    void an_unsafe_user_id_is_refused_and_nothing_is_created(String userId) throws IOException {
        Workspaces workspaces = new Workspaces(root());

        assertThatThrownBy(() -> workspaces.forSession(userId, "s-1"))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("unsafe");
        assertThat(root()).doesNotExist();
    }

    @Test
    void a_user_id_cannot_reach_another_users_sessions() throws IOException {
        Workspaces workspaces = new Workspaces(root());
        workspaces.forSession("bob", "s-1");

        assertThatThrownBy(() -> workspaces.forSession("alice", "../bob"))
                .isInstanceOf(IOException.class);
        assertThatThrownBy(() -> workspaces.forSession("..", "bob"))
                .isInstanceOf(IOException.class);
        try (Stream<Path> users = Files.list(root())) {
            assertThat(users.map(p -> p.getFileName().toString())).containsExactly("bob");
        }
    }
}
