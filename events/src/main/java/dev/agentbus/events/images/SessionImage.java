package dev.agentbus.events.images;

/**
 * An image attached to a person's message, as the sandbox-worker read it from the session's workspace: a record of
 * the compacted topic {@code agentbus.session-images}, keyed by {@link #key}. The log names the image only by its path
 * ({@code user_message.posted.v1}); its bytes travel here, written only by the sandbox-worker (which owns the
 * workspace) and read by the orchestrator when it builds a model call. So the log stays small and free of file
 * contents, and no service but the worker touches a workspace.
 *
 * @param sessionId the session
 * @param seq       the {@code seq} of the {@code user_message.posted.v1} the image is attached to
 * @param index     its place among that message's images, from 0
 * @param path      the workspace path as the person gave it
 * @param mediaType {@code image/png}, {@code image/jpeg}, {@code image/gif} or {@code image/webp}, from the file's
 *                  first bytes; null when {@code error} is set
 * @param base64    the file's bytes; null when {@code error} is set
 * @param error     why the image could not be read (missing, not an image, too large, outside the workspace); null
 *                  when it was
 */
public record SessionImage(String sessionId, long seq, int index, String path, String mediaType, String base64,
                           String error) {

    /** The topic's key: one record per image of a message, so a message read twice is the same record. */
    public static String key(String sessionId, long seq, int index) {
        return sessionId + "/" + seq + "/" + index;
    }

    public String key() {
        return key(sessionId, seq, index);
    }
}
