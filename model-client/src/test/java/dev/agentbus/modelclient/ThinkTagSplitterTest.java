package dev.agentbus.modelclient;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ThinkTagSplitterTest {

    /** Records what the splitter passed on, piece by piece. */
    private static final class Recorder implements ThinkTagSplitter.Sink {
        final StringBuilder content = new StringBuilder();
        final StringBuilder reasoning = new StringBuilder();
        final List<String> contentPieces = new ArrayList<>();

        @Override
        public void content(String text) {
            content.append(text);
            contentPieces.add(text);
        }

        @Override
        public void reasoning(String text) {
            reasoning.append(text);
        }
    }

    private static Recorder split(String... pieces) {
        Recorder recorder = new Recorder();
        ThinkTagSplitter splitter = new ThinkTagSplitter(recorder);
        for (String piece : pieces) {
            splitter.feed(piece);
        }
        splitter.finish();
        return recorder;
    }

    @Test
    void text_without_tags_passes_through_unchanged() {
        Recorder r = split("  Hello", " world,", " a < b and c > d\n");

        assertThat(r.content).hasToString("  Hello world, a < b and c > d\n");
        assertThat(r.reasoning).isEmpty();
    }

    @Test
    void leading_think_block_becomes_reasoning_and_layout_whitespace_is_dropped() {
        Recorder r = split("<think>\nI should greet.\n</think>\n\nHello!");

        assertThat(r.reasoning).hasToString("I should greet.");
        assertThat(r.content).hasToString("Hello!");
    }

    @Test
    void tags_split_at_every_possible_position_give_the_same_result() {
        String text = "<think>Plan: list files.</think>\n\nHere they are.";
        for (int cut = 0; cut <= text.length(); cut++) {
            Recorder r = split(text.substring(0, cut), text.substring(cut));
            assertThat(r.reasoning).as("cut at %d", cut).hasToString("Plan: list files.");
            assertThat(r.content).as("cut at %d", cut).hasToString("Here they are.");
        }
    }

    @Test
    void one_character_at_a_time_works() {
        String text = "<think>a</think>b<think>c</think>d";
        Recorder r = split(text.split(""));

        assertThat(r.reasoning).hasToString("ac");
        assertThat(r.content).hasToString("bd");
    }

    @Test
    void think_block_inside_the_content_is_removed_from_it() {
        Recorder r = split("First part.\n<think>reconsider</think>\nSecond part.");

        assertThat(r.content).hasToString("First part.Second part.");
        assertThat(r.reasoning).hasToString("reconsider");
    }

    @Test
    void unclosed_think_block_is_reasoning_to_the_end() {
        Recorder r = split("<think>still thinking when the tokens ran ou", "t");

        assertThat(r.reasoning).hasToString("still thinking when the tokens ran out");
        assertThat(r.content).isEmpty();
    }

    @Test
    void a_lone_angle_bracket_at_the_end_of_a_piece_is_held_then_released() {
        Recorder r = split("x <", "y");

        assertThat(r.content).hasToString("x <y");
        assertThat(r.contentPieces).containsExactly("x", " <y");
    }

    @Test
    void trailing_text_that_looks_like_a_partial_tag_is_content_at_the_end() {
        Recorder r = split("ends with <thi");

        assertThat(r.content).hasToString("ends with <thi");
    }
}
