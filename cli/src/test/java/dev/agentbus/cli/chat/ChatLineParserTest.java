package dev.agentbus.cli.chat;

import org.jline.reader.EOFError;
import org.jline.reader.ParsedLine;
import org.jline.reader.Parser.ParseContext;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** How the line editor reads chat's prompt: continuation lines, the message they make, words for completion. */
class ChatLineParserTest {
    private final ChatLineParser parser = new ChatLineParser();

    @Test
    void enter_after_a_trailing_backslash_continues_the_message_instead_of_sending_it() {
        assertThatThrownBy(() -> parser.parse("first line\\", 11, ParseContext.ACCEPT_LINE))
                .isInstanceOf(EOFError.class);
        assertThat(parser.parse("first line\\\nsecond", 18, ParseContext.ACCEPT_LINE).line())
                .isEqualTo("first line\\\nsecond");
        // Only Enter continues: completing a word never waits for more.
        assertThat(parser.parse("first line\\", 11, ParseContext.COMPLETE).words()).containsExactly("first", "line\\");
    }

    @Test
    void quotes_and_backslashes_inside_a_message_are_prose() {
        assertThat(parser.parse("don't \"quote\" me \\o/", 20, ParseContext.ACCEPT_LINE).line())
                .isEqualTo("don't \"quote\" me \\o/");
    }

    @Test
    void the_message_drops_the_backslashes_that_continued_its_lines() {
        assertThat(ChatLineParser.message("first line\\\nsecond\nthird")).isEqualTo("first line\nsecond\nthird");
        assertThat(ChatLineParser.message("a \\o/ b")).isEqualTo("a \\o/ b");
    }

    @Test
    void words_say_which_one_the_cursor_is_in_and_white_space_is_an_empty_word() {
        ParsedLine inFirst = ChatLineParser.words("/mo", 3);
        assertThat(inFirst.words()).containsExactly("/mo");
        assertThat(inFirst.wordIndex()).isZero();
        assertThat(inFirst.word()).isEqualTo("/mo");
        assertThat(inFirst.wordCursor()).isEqualTo(3);

        ParsedLine afterSpace = ChatLineParser.words("/mode ", 6);
        assertThat(afterSpace.words()).containsExactly("/mode", "");
        assertThat(afterSpace.wordIndex()).isEqualTo(1);

        ParsedLine inMiddle = ChatLineParser.words("/mode ma  x", 8);
        assertThat(inMiddle.wordIndex()).isEqualTo(1);
        assertThat(inMiddle.word()).isEqualTo("ma");
        assertThat(inMiddle.wordCursor()).isEqualTo(2);

        ParsedLine between = ChatLineParser.words("/a  /b", 3);
        assertThat(between.words()).containsExactly("/a", "", "/b");
        assertThat(between.wordIndex()).isEqualTo(1);

        assertThat(ChatLineParser.words("", 0).words()).containsExactly("");
    }
}
