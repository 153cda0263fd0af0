package dev.agentbus.orchestrator.running;

import dev.agentbus.eventbus.CompactedTopicView;
import dev.agentbus.events.images.SessionImage;
import dev.agentbus.events.state.Message;
import dev.agentbus.modelclient.ChatMessage;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The images attached to a session's messages, for its model calls: read from {@code agentbus.session-images}, where
 * the sandbox-worker puts each image it read from the workspace once it saw the message in the log. The orchestrator
 * never reads a workspace itself. A model call made right after the message waits here until the worker's record
 * arrives (the worker reads it in the same moment the call is decided), up to a limit.
 */
final class AttachedImages {
    private final CompactedTopicView<SessionImage> view;
    private final Duration wait;

    AttachedImages(CompactedTopicView<SessionImage> view, Duration wait) {
        this.view = view;
        this.wait = wait;
    }

    /** Why an image cannot be sent: the worker's reason, or that it never came. */
    static final class Unreadable extends Exception {
        Unreadable(String message) {
            super(message);
        }
    }

    /** The images of one message, in order, waiting for those not read yet. */
    List<ChatMessage.Image> of(String sessionId, Message.User message) throws Unreadable, InterruptedException {
        List<ChatMessage.Image> images = new ArrayList<>();
        List<String> paths = message.imagePaths();
        for (int i = 0; i < paths.size(); i++) {
            Optional<SessionImage> image = view.await(SessionImage.key(sessionId, message.seq(), i), wait);
            if (image.isEmpty()) {
                throw new Unreadable("the image " + paths.get(i) + " was not read from the workspace within "
                        + wait.toSeconds() + " s (is a sandbox-worker running?)");
            }
            if (image.get().error() != null) {
                throw new Unreadable("the image " + paths.get(i) + " cannot be sent: " + image.get().error());
            }
            images.add(new ChatMessage.Image(image.get().mediaType(), image.get().base64()));
        }
        return images;
    }
}
