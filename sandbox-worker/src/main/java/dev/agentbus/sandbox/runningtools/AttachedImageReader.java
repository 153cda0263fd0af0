package dev.agentbus.sandbox.runningtools;

import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.images.SessionImage;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.topics.Topics;
import dev.agentbus.sandbox.workspace.PathRejectedException;
import dev.agentbus.sandbox.workspace.SymbolicLinkException;
import dev.agentbus.sandbox.workspace.FileTooLargeException;
import dev.agentbus.sandbox.workspace.WorkspaceDir;
import dev.agentbus.sandbox.workspace.WorkspacePaths;
import org.apache.kafka.clients.producer.ProducerRecord;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Reads the images attached to a person's message from the session's workspace, for the orchestrator's model call:
 * one {@link SessionImage} per image on {@code agentbus.session-images}, sent in the transaction of the poll batch that
 * brought the message. The log names an image only by its path; its bytes travel on that topic, and only the worker,
 * which owns the workspace, reads the file. A file that cannot be sent (missing, outside the workspace, too large, not
 * a PNG, JPEG, GIF or WebP) is reported with the reason instead, so the model call is refused with it at once.
 * Reading a message again after a crash writes the same records under the same keys.
 */
final class AttachedImageReader {
    /**
     * Each image is one Kafka record of at most a megabyte (the broker's default), in base64: 512 KiB of file is
     * about 700 KB of record. Larger photos are to be scaled down before they are attached.
     */
    static final int MAX_BYTES = 512 * 1024;

    private final Workspaces workspaces;

    AttachedImageReader(Workspaces workspaces) {
        this.workspaces = workspaces;
    }

    /** The records for the images of {@code envelope}'s message; none when it has none. */
    List<ProducerRecord<String, byte[]>> read(EnvelopeOfMessage message) {
        List<ProducerRecord<String, byte[]>> records = new ArrayList<>();
        EventEnvelope envelope = message.envelope();
        List<String> paths = message.posted().imagePaths();
        for (int i = 0; i < paths.size(); i++) {
            SessionImage image = read(envelope.userId(), envelope.sessionId(), envelope.seq(), i, paths.get(i));
            records.add(new ProducerRecord<>(Topics.SESSION_IMAGES.name(), image.key(),
                    EventCodec.encodeValue(image)));
        }
        return records;
    }

    record EnvelopeOfMessage(EventEnvelope envelope, UserMessagePosted posted) {
    }

    SessionImage read(String userId, String sessionId, long seq, int index, String path) {
        try {
            WorkspacePaths workspace = WorkspacePaths.open(workspaces.forSession(userId, sessionId));
            byte[] bytes;
            // Through the parent's handle, never by name: the sandbox may swap the path for a link at any moment.
            try (WorkspacePaths.Target file = workspace.target(path, false)) {
                PosixFileAttributes attributes = file.parent().stat(file.name());
                if (attributes != null && attributes.isSymbolicLink()) {
                    throw new SymbolicLinkException(file.shown());
                }
                if (attributes == null || !attributes.isRegularFile()) {
                    return failed(sessionId, seq, index, path, "no such file in the workspace");
                }
                bytes = file.parent().readAll(file.name(), MAX_BYTES);
            } catch (NoSuchFileException e) {
                return failed(sessionId, seq, index, path, "no such file in the workspace");
            } catch (FileTooLargeException e) {
                return failed(sessionId, seq, index, path, "it is " + e.size() + " bytes; an image is at most "
                        + MAX_BYTES + " bytes (scale it down)");
            }
            String type = mediaType(bytes);
            if (type == null) {
                return failed(sessionId, seq, index, path, "it is not a PNG, JPEG, GIF or WebP image");
            }
            return new SessionImage(sessionId, seq, index, path, type, Base64.getEncoder().encodeToString(bytes),
                    null);
        } catch (PathRejectedException e) {
            return failed(sessionId, seq, index, path, e.getMessage());
        } catch (SymbolicLinkException e) {
            return failed(sessionId, seq, index, path, e.getMessage());
        } catch (IOException e) {
            return failed(sessionId, seq, index, path, "it could not be read: " + e.getMessage());
        }
    }

    /** The type the file's first bytes say, whatever its name says; null when not an image a model takes. */
    static String mediaType(byte[] b) {
        if (starts(b, 0x89, 'P', 'N', 'G')) {
            return "image/png";
        }
        if (starts(b, 0xFF, 0xD8, 0xFF)) {
            return "image/jpeg";
        }
        if (starts(b, 'G', 'I', 'F', '8')) {
            return "image/gif";
        }
        if (b.length >= 12 && starts(b, 'R', 'I', 'F', 'F') && b[8] == 'W' && b[9] == 'E' && b[10] == 'B'
                && b[11] == 'P') {
            return "image/webp";
        }
        return null;
    }

    private static boolean starts(byte[] bytes, int... prefix) {
        if (bytes.length < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if ((bytes[i] & 0xFF) != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    private static SessionImage failed(String sessionId, long seq, int index, String path, String why) {
        return new SessionImage(sessionId, seq, index, path, null, null, why);
    }
}
