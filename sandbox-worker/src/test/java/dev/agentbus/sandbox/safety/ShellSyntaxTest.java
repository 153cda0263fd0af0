package dev.agentbus.sandbox.safety;

import dev.agentbus.sandbox.safety.ShellSyntax.SimpleCommand;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ShellSyntaxTest {
    private static List<List<String>> commands(String line) throws Exception {
        return ShellSyntax.parse(line).stream().map(SimpleCommand::words).toList();
    }

    @Test
    void operators_separate_simple_commands() throws Exception {
        assertThat(commands("a 1; b 2 && c || d | e & f\ng (h) |& i"))
                .containsExactly(List.of("a", "1"), List.of("b", "2"), List.of("c"), List.of("d"), List.of("e"),
                        List.of("f"), List.of("g"), List.of("h"), List.of("i"));
    }

    @Test
    void quotes_and_escapes_make_one_word_and_hide_operators() throws Exception {
        assertThat(commands("echo 'a; b' \"c | $HOME\" d\\;e"))
                .containsExactly(List.of("echo", "a; b", "c | $HOME", "d;e"));
    }

    @Test
    void substitutions_are_read_as_commands_of_their_own() throws Exception {
        assertThat(commands("echo $(sudo id) \"x`whoami`\" <(cat f)"))
                .contains(List.of("sudo", "id"), List.of("whoami"), List.of("cat", "f"));
    }

    @Test
    void redirections_name_files_but_descriptor_duplication_does_not() throws Exception {
        List<SimpleCommand> parsed = ShellSyntax.parse("make >out.log 2>&1 </dev/null 2>>err &>all");

        assertThat(parsed).singleElement().satisfies(c -> {
            assertThat(c.words()).containsExactly("make");
            assertThat(c.redirectTargets()).containsExactly("out.log", "/dev/null", "err", "all");
        });
    }

    @Test
    void here_document_bodies_are_data_not_commands() throws Exception {
        assertThat(commands("cat <<EOF > f.txt\nsudo rm -rf /\nEOF\necho done"))
                .containsExactly(List.of("cat"), List.of("echo", "done"));
    }

    @Test
    void comments_are_skipped() throws Exception {
        assertThat(commands("ls # sudo reboot\npwd")).containsExactly(List.of("ls"), List.of("pwd"));
    }

    @Test
    void an_unterminated_quote_cannot_be_checked() {
        assertThatThrownBy(() -> ShellSyntax.parse("echo 'oops")).isInstanceOf(ShellSyntax.UncheckableException.class)
                .hasMessageContaining("single quote");
        assertThatThrownBy(() -> ShellSyntax.parse("echo $(date")).isInstanceOf(ShellSyntax.UncheckableException.class);
    }
}
