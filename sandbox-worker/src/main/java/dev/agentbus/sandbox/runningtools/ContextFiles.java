package dev.agentbus.sandbox.runningtools;

import dev.agentbus.eventbus.redacting.SecretRedactor;
import dev.agentbus.events.session.ContextFile;
import dev.agentbus.sandbox.workspace.WorkspaceDir;
import dev.agentbus.sandbox.workspace.WorkspacePaths;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Finds the context files of a session's workspace ({@code .soul.md}, {@code AGENTS.md}, {@code .agentbus.md}) for
 * the orchestrator's system prompt, which cannot read the workspace itself: the worker owns it, and services talk only
 * through Kafka. The worker looks after each call that may have changed files and reports the set when it differs
 * from the last one it reported ({@code record_context_files.v1}); the orchestrator records it in the log, so every
 * prompt can be rebuilt from the log alone.
 *
 * <p>Only regular files in the workspace root count (a symbolic link could point out of the workspace). Each is cut
 * at {@code maxChars} characters and has its secrets masked, like a tool's output: the log is kept forever.
 */
final class ContextFiles {
    /** About 2,000 tokens a file: standing instructions, not a manual. */
    static final int DEFAULT_MAX_CHARS = 8192;

    private final int maxChars;
    /** What was last reported per session, once its transaction committed. Lost on restart: one repeat, then known. */
    private final Map<String, List<ContextFile>> reported = new ConcurrentHashMap<>();

    ContextFiles(int maxChars) {
        this.maxChars = maxChars;
    }

    /** The context files now in {@code workspace}, if they differ from those last reported for the session. */
    Optional<List<ContextFile>> changed(String sessionId, Path workspace) {
        List<ContextFile> now = read(workspace);
        List<ContextFile> before = reported.get(sessionId);
        if (now.equals(before) || (before == null && now.isEmpty())) {
            // A session never reported has none recorded yet: an empty set is no news to it.
            return Optional.empty();
        }
        return Optional.of(now);
    }

    /** After the commit of a {@code record_context_files.v1}. */
    void reported(String sessionId, List<ContextFile> files) {
        reported.put(sessionId, List.copyOf(files));
    }

    List<ContextFile> read(Path workspace) {
        List<ContextFile> found = new ArrayList<>();
        // Through the root's handle: a file, or the whole session directory in a user-scope container, swapped for a
        // link is never followed.
        try (WorkspaceDir root = WorkspacePaths.open(workspace).openRoot()) {
            for (String name : ContextFile.NAMES) {
                PosixFileAttributes attributes = root.stat(name);
                if (attributes == null || !attributes.isRegularFile()) {
                    continue;
                }
                try {
                    found.add(readOne(name, root));
                } catch (IOException e) {
                    // Unreadable or not text: left out, as if absent; the agent can still read it with its tools.
                }
            }
        } catch (IOException noWorkspace) {
            // missing, or a link: no context files
        }
        return List.copyOf(found);
    }

    private ContextFile readOne(String name, WorkspaceDir root) throws IOException {
        byte[] bytes;
        // A UTF-8 character takes at most four bytes: this many bytes always hold maxChars characters and one more.
        int limit = maxChars * 4 + 4;
        try (InputStream in = Channels.newInputStream(root.openForReading(name))) {
            bytes = in.readNBytes(limit);
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            if (bytes.length < limit) {
                throw e; // not text
            }
            // Cut in the middle of a character: decode leniently, the cut drops the broken end anyway.
            text = new String(bytes, StandardCharsets.UTF_8);
        }
        boolean truncated = text.length() > maxChars || bytes.length >= limit;
        if (text.length() > maxChars) {
            text = text.substring(0, maxChars);
        }
        return new ContextFile(name, SecretRedactor.redact(text), truncated);
    }
}
