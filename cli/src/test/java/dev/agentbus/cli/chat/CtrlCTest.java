package dev.agentbus.cli.chat;

import dev.agentbus.cli.chat.CtrlC.AtPrompt;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** What Ctrl-C does in chat on a terminal, press by press. */
class CtrlCTest {
    private final CtrlC ctrlC = new CtrlC();

    @Test
    void at_a_prompt_with_text_it_clears_the_line_every_time() {
        assertThat(ctrlC.atPrompt("half a sentence")).isEqualTo(AtPrompt.CLEAR_LINE);
        assertThat(ctrlC.atPrompt("another one")).isEqualTo(AtPrompt.CLEAR_LINE);
    }

    @Test
    void at_an_empty_prompt_the_first_press_explains_and_the_second_in_a_row_leaves() {
        assertThat(ctrlC.atPrompt("")).isEqualTo(AtPrompt.HINT);
        assertThat(ctrlC.atPrompt("")).isEqualTo(AtPrompt.LEAVE);
    }

    @Test
    void clearing_a_line_or_entering_one_starts_the_count_again() {
        assertThat(ctrlC.atPrompt("")).isEqualTo(AtPrompt.HINT);
        assertThat(ctrlC.atPrompt("typed again")).isEqualTo(AtPrompt.CLEAR_LINE);
        assertThat(ctrlC.atPrompt("")).isEqualTo(AtPrompt.HINT);
        ctrlC.lineEntered();
        assertThat(ctrlC.atPrompt(null)).isEqualTo(AtPrompt.HINT);
    }

    @Test
    void one_press_during_a_turn_cancels_it_and_one_more_at_the_empty_prompt_after_it_leaves() {
        assertThat(ctrlC.afterTurn(1)).isFalse();
        assertThat(ctrlC.atPrompt("")).isEqualTo(AtPrompt.LEAVE);
    }

    @Test
    void two_presses_during_one_turn_leave_at_once() {
        assertThat(ctrlC.afterTurn(2)).isTrue();
        assertThat(ctrlC.afterTurn(3)).isTrue();
    }

    @Test
    void a_turn_without_ctrl_c_forgets_an_earlier_press() {
        assertThat(ctrlC.atPrompt("")).isEqualTo(AtPrompt.HINT);
        assertThat(ctrlC.afterTurn(0)).isFalse();
        assertThat(ctrlC.atPrompt("")).isEqualTo(AtPrompt.HINT);
    }
}
