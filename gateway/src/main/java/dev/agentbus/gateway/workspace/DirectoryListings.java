package dev.agentbus.gateway.workspace;

import dev.agentbus.api.workspace.WorkspaceListing;
import dev.agentbus.api.workspace.WorkspaceListing.Entry;
import dev.agentbus.gateway.errors.ApiException;
import io.micronaut.http.HttpStatus;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the output of the worker's {@code ls} tool back into entries. The tool answers the model in text
 * (docs/tools.md): one entry per line, sorted, directories with a trailing {@code /}, links as
 * {@code name -> target}, a last line {@code [N more entries not shown; …]} past 1000 entries, and
 * {@code <path>: empty directory} or {@code <path> (file, N bytes)} instead of entries. People get the same
 * listing as the model, as data. A name holding a newline cannot be told apart from two names; such names are rare
 * enough that the text format stays the one contract.
 */
final class DirectoryListings {
    private static final Pattern MORE = Pattern.compile("\\[\\d+ more entries not shown.*]");
    private static final Pattern CUT = Pattern.compile("\\[output truncated: \\d+ more bytes not shown]");
    private static final Pattern A_FILE = Pattern.compile("(.*) \\(file, \\d+ bytes\\)");
    private static final String LINK_ARROW = " -> ";

    private DirectoryListings() {
    }

    /**
     * @param cut the worker cut the output to its cap: the last entry may be cut in the middle, so it is left out,
     *            and the listing says it is incomplete
     */
    static WorkspaceListing parse(String path, String output, boolean cut, String callId) {
        String text = output == null ? "" : output.strip();
        Matcher file = A_FILE.matcher(text);
        if (file.matches() && !text.contains("\n")) {
            throw new ApiException(HttpStatus.UNPROCESSABLE_ENTITY, file.group(1) + " is a file, not a directory");
        }
        List<Entry> entries = new ArrayList<>();
        boolean truncated = false;
        if (text.isEmpty() || (text.endsWith(": empty directory") && !text.contains("\n"))) {
            return new WorkspaceListing(path, entries, false, callId);
        }
        for (String line : text.split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            if (MORE.matcher(line).matches() || CUT.matcher(line).matches()) {
                truncated = true;
            } else if (line.contains(LINK_ARROW)) {
                int arrow = line.indexOf(LINK_ARROW);
                entries.add(new Entry(line.substring(0, arrow), Entry.LINK,
                        line.substring(arrow + LINK_ARROW.length())));
            } else if (line.endsWith("/") && line.length() > 1) {
                entries.add(new Entry(line.substring(0, line.length() - 1), Entry.DIRECTORY, null));
            } else {
                entries.add(new Entry(line, Entry.FILE, null));
            }
        }
        if (cut && !entries.isEmpty()) {
            entries.removeLast();
        }
        return new WorkspaceListing(path, entries, truncated || cut, callId);
    }
}
