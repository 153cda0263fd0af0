package dev.agentbus.cli.chat;

import dev.agentbus.cli.Printer;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The slash-command table: parsing a line, running its command, refusals, help rows and tab completion. */
class SlashCommandsTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private final Printer printer = new Printer(new PrintWriter(out, true), new PrintWriter(err, true), false);
    private final List<String> ran = new ArrayList<>();

    private final SlashCommands table = new SlashCommands()
            .add(SlashCommand.of("/whisper", "/whisper TEXT", "a note for the turn", arg -> {
                if (arg.isEmpty()) {
                    throw new SlashCommand.Refused();
                }
                ran.add("whisper:" + arg);
            }))
            .add(SlashCommand.of("/mode", "/mode [auto|normal|manual]", "the permission mode", arg -> {
                if (!arg.isEmpty() && !List.of("auto", "normal", "manual").contains(arg)) {
                    throw new SlashCommand.Refused(arg + " is not a mode");
                }
                ran.add("mode:" + arg);
            }).choices("auto", "normal", "manual"))
            .add(SlashCommand.of("/memory", "/memory", "print it", arg -> ran.add("memory:" + arg))
                    .also("/memory set TEXT", "replace it").choices("set", "reset"))
            .add(SlashCommand.leaving("/quit", "/quit", "leave", arg -> false).alias("/exit"));

    @Test
    void a_line_runs_its_command_with_the_rest_of_the_line_stripped_and_the_name_in_any_case() {
        assertThat(table.run("/WHISPER   use the   staging db  ", printer)).isTrue();
        assertThat(table.run("/mode", printer)).isTrue();

        assertThat(ran).containsExactly("whisper:use the   staging db", "mode:");
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void only_a_command_that_says_so_ends_chat_and_an_alias_runs_the_same_command() {
        assertThat(table.run("/quit", printer)).isFalse();
        assertThat(table.run("/Exit", printer)).isFalse();
        assertThat(table.find("/exit")).get().extracting(SlashCommand::name).isEqualTo("/quit");
    }

    @Test
    void an_unknown_command_says_so_and_chat_goes_on() {
        assertThat(table.run("/frobnicate now", printer)).isTrue();

        assertThat(err.toString()).contains("unknown command /frobnicate; type /help for the list",
                "type // instead");
        assertThat(ran).isEmpty();
    }

    @Test
    void a_refused_argument_prints_the_usage_or_the_handlers_message_and_chat_goes_on() {
        assertThat(table.run("/whisper", printer)).isTrue();
        assertThat(table.run("/mode sideways", printer)).isTrue();

        assertThat(err.toString()).contains("usage: /whisper TEXT", "sideways is not a mode");
        assertThat(ran).isEmpty();
    }

    @Test
    void help_rows_come_from_the_table_in_its_order_with_every_way_to_call_a_command() {
        assertThat(table.helpLines()).extracting(SlashCommand.HelpLine::usage)
                .containsExactly("/whisper TEXT", "/mode [auto|normal|manual]", "/memory", "/memory set TEXT", "/quit");
    }

    @Test
    void completion_offers_the_command_names_for_the_first_word_and_the_choices_for_the_second() {
        assertThat(table.complete(List.of("/m"), 0)).containsExactly("/mode", "/memory");
        assertThat(table.complete(List.of("/"), 0)).containsExactly("/whisper", "/mode", "/memory", "/quit");
        assertThat(table.complete(List.of("/E"), 0)).as("aliases are not offered").isEmpty();
        assertThat(table.complete(List.of("/MODE", "ma"), 1)).containsExactly("manual");
        assertThat(table.complete(List.of("/mode", ""), 1)).containsExactly("auto", "normal", "manual");
        assertThat(table.complete(List.of("/memory", "set", ""), 2)).isEmpty();
        assertThat(table.complete(List.of("hello"), 0)).as("a message is not completed").isEmpty();
        assertThat(table.complete(List.of("/nothing", ""), 1)).isEmpty();
    }

    @Test
    void two_commands_cannot_share_a_name_and_names_are_lower_case_words_with_a_slash() {
        assertThatThrownBy(() -> table.add(SlashCommand.of("/exit", "/exit", "again", arg -> { })))
                .hasMessageContaining("/exit");
        assertThatThrownBy(() -> SlashCommand.of("help", "help", "no slash", arg -> { }))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SlashCommand.of("/Help", "/Help", "upper case", arg -> { }))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
