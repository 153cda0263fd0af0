package dev.agentbus.cli.chat;

import org.jline.reader.CompletingParsedLine;
import org.jline.reader.EOFError;
import org.jline.reader.ParsedLine;
import org.jline.reader.Parser;

import java.util.ArrayList;
import java.util.List;

/**
 * How the line editor reads what is typed at chat's prompt. Messages are prose, so nothing is special but two
 * things: a line that ends with a backslash goes on on the next line (Enter then adds a line instead of sending),
 * and the words are split at white space, for completing slash commands. JLine's own parser would also treat quotes
 * and backslashes as shell syntax, so "don't" would wait for its closing quote.
 */
final class ChatLineParser implements Parser {

    @Override
    public ParsedLine parse(String line, int cursor, ParseContext context) {
        if (context == ParseContext.ACCEPT_LINE && continues(line)) {
            // JLine answers an EOFError on Enter by inserting a newline and showing the secondary prompt.
            throw new EOFError(-1, -1, "the message goes on on the next line", "\\");
        }
        return words(line, cursor);
    }

    /** A message goes on when its last line ends with a backslash (Enter then starts another line). */
    static boolean continues(String buffer) {
        return buffer.endsWith("\\");
    }

    /** The message a multi-line buffer stands for: each backslash that continued a line is dropped. */
    static String message(String buffer) {
        return buffer.replace("\\\n", "\n");
    }

    /** The words of a line, and which one the cursor is in: an empty word when the cursor is in white space. */
    static ParsedLine words(String line, int cursor) {
        List<String> words = new ArrayList<>();
        int wordIndex = -1;
        int wordCursor = 0;
        int before = 0; // words that end before the cursor
        int i = 0;
        while (i < line.length()) {
            while (i < line.length() && Character.isWhitespace(line.charAt(i))) {
                i++;
            }
            if (i >= line.length()) {
                break;
            }
            int start = i;
            while (i < line.length() && !Character.isWhitespace(line.charAt(i))) {
                i++;
            }
            words.add(line.substring(start, i));
            if (cursor >= start && cursor <= i && wordIndex < 0) {
                wordIndex = words.size() - 1;
                wordCursor = cursor - start;
            } else if (i < cursor) {
                before++;
            }
        }
        if (wordIndex < 0) {
            wordIndex = before;
            words.add(before, "");
        }
        return new Words(words.get(wordIndex), wordCursor, wordIndex, List.copyOf(words), line, cursor);
    }

    /** Words are never quoted or escaped here, so a completion is inserted as it is. */
    private record Words(String word, int wordCursor, int wordIndex, List<String> words, String line, int cursor)
            implements CompletingParsedLine {
        @Override
        public CharSequence escape(CharSequence candidate, boolean complete) {
            return candidate;
        }

        @Override
        public int rawWordCursor() {
            return wordCursor;
        }

        @Override
        public int rawWordLength() {
            return word.length();
        }
    }
}
