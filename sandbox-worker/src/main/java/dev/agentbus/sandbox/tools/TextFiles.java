package dev.agentbus.sandbox.tools;

import dev.agentbus.sandbox.workspace.PathRejectedException;
import dev.agentbus.sandbox.workspace.SymbolicLinkException;
import dev.agentbus.sandbox.workspace.FileTooLargeException;
import dev.agentbus.sandbox.workspace.WorkspaceDir;
import dev.agentbus.sandbox.workspace.WorkspacePaths;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.ArrayList;
import java.util.List;

/** Loading workspace files as text, with the checks every text tool needs, and small text helpers. */
final class TextFiles {
    /** Git's heuristic: a NUL byte in the first 8000 bytes means binary. */
    private static final int BINARY_SNIFF_BYTES = 8000;

    private TextFiles() {
    }

    /**
     * Reads a whole regular file of the workspace of at most {@code maxBytes}, through its parent's handle (never by
     * name, never through a link), failing with a message that names the file as the model gave it.
     */
    static byte[] load(WorkspacePaths workspace, String given, long maxBytes)
            throws ToolFailure, PathRejectedException, IOException {
        if (workspace.names(given).isEmpty()) {
            throw new ToolFailure("is a directory, not a file: . (use ls to list it)");
        }
        String shown = workspace.display(workspace.resolve(given));
        try (WorkspacePaths.Target file = workspace.target(given, false)) {
            return load(file, maxBytes);
        } catch (NoSuchFileException e) {
            throw new ToolFailure("file not found: " + shown);
        }
    }

    /** {@link #load(WorkspacePaths, String, long)} for an entry already reached. */
    static byte[] load(WorkspacePaths.Target file, long maxBytes) throws ToolFailure, IOException {
        String shown = file.shown();
        PosixFileAttributes attributes = file.parent().stat(file.name());
        if (attributes == null) {
            throw new ToolFailure("file not found: " + shown);
        }
        if (attributes.isSymbolicLink()) {
            throw new SymbolicLinkException(shown);
        }
        if (attributes.isDirectory()) {
            throw new ToolFailure("is a directory, not a file: " + shown + " (use ls to list it)");
        }
        if (!attributes.isRegularFile()) {
            // A FIFO or device would block the read forever and hold a worker slot with it.
            throw new ToolFailure("not a regular file: " + shown);
        }
        try {
            return file.parent().readAll(file.name(), maxBytes);
        } catch (FileTooLargeException e) {
            throw new ToolFailure("file is too large: " + shown + " is " + e.size() + " bytes, the limit is "
                    + maxBytes + "; use shell tools such as head, tail, sed -n or grep to look at parts of it");
        }
    }

    static boolean looksBinary(byte[] bytes) {
        int end = Math.min(bytes.length, BINARY_SNIFF_BYTES);
        for (int i = 0; i < end; i++) {
            if (bytes[i] == 0) {
                return true;
            }
        }
        return false;
    }

    /** For display only: invalid UTF-8 becomes U+FFFD. */
    static String decodeLenient(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /**
     * For files we are going to write back: invalid UTF-8 is refused, because decoding it leniently and saving the
     * result would silently replace bytes the agent never meant to touch.
     */
    static String decodeStrict(byte[] bytes, String shown) throws ToolFailure {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new ToolFailure(shown + " is not valid UTF-8 text; edit will not rewrite it (use shell tools)");
        }
    }

    /** Lines without terminators; a final newline does not start another line; {@code \r\n} counts as one. */
    static List<String> lines(String text) {
        List<String> lines = new ArrayList<>();
        for (String withEnd : UnifiedDiff.splitLines(text)) {
            String line = withEnd.endsWith("\n") ? withEnd.substring(0, withEnd.length() - 1) : withEnd;
            lines.add(line.endsWith("\r") ? line.substring(0, line.length() - 1) : line);
        }
        return lines;
    }

    /** Exact UTF-8 size of a text, without encoding it. */
    static long utf8Length(CharSequence text) {
        long bytes = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < text.length()
                    && Character.isLowSurrogate(text.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }

    /**
     * Cuts {@code text} to at most {@code capBytes} UTF-8 bytes (never inside a character) and appends the same
     * marker the shell uses, so the model always sees how much it is missing.
     */
    static String cap(String text, int capBytes) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (bytes.length <= capBytes) {
            return text;
        }
        int keep = capBytes;
        while (keep > 0 && (bytes[keep] & 0xC0) == 0x80) {
            keep--;
        }
        return new String(bytes, 0, keep, StandardCharsets.UTF_8) + truncationMarker(bytes.length - keep);
    }

    static String truncationMarker(long omittedBytes) {
        return "\n[output truncated: " + omittedBytes + " more bytes not shown]";
    }

    /** Shortens one long line for listings such as grep's, so one minified file cannot fill the whole output. */
    static String shorten(String line, int maxChars) {
        if (line.length() <= maxChars) {
            return line;
        }
        return line.substring(0, maxChars) + "… [" + (line.length() - maxChars) + " more characters]";
    }
}
