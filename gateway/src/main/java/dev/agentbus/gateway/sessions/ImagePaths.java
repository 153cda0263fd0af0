package dev.agentbus.gateway.sessions;

import java.util.List;

/**
 * The images a message may name, checked before the message is sent: the orchestrator's decider applies the same
 * rule ({@code deciding/vision/Attachments}); the files themselves are checked by the sandbox-worker, which reads them.
 */
final class ImagePaths {
    static final int MAX_IMAGES = 8;
    static final int MAX_PATH_CHARS = 1024;

    private ImagePaths() {
    }

    static String problem(List<String> images) {
        if (images.size() > MAX_IMAGES) {
            return "a message takes at most " + MAX_IMAGES + " images, not " + images.size();
        }
        for (String path : images) {
            if (path == null || path.isBlank()) {
                return "an image path is empty: give each image's path in the workspace (upload it first with "
                        + "PUT /api/v1/sessions/{id}/files/{path})";
            }
            if (path.length() > MAX_PATH_CHARS || path.indexOf('\0') >= 0) {
                return "an image path must be at most " + MAX_PATH_CHARS + " characters and contain no NUL";
            }
        }
        return null;
    }
}
