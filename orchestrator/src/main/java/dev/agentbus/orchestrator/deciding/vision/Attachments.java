package dev.agentbus.orchestrator.deciding.vision;

import java.util.List;

/**
 * The rules of images attached to a message: how many, and what a path may be. The gateway checks the same first
 * (an input written by another client meets the rule here). Whether the model can see them is not decided here: the
 * model-call effect asks the model server, and records a refusal ({@code model_call.refused.v1}) if it cannot.
 */
public final class Attachments {
    /** More would rarely fit a local vision model's context, and each is a record of up to the transfer limit. */
    public static final int MAX_IMAGES = 8;
    public static final int MAX_PATH_CHARS = 1024;

    private Attachments() {
    }

    /** What is wrong with the images of a message, in words for the person; null when nothing is. */
    public static String problem(List<String> images) {
        if (images == null || images.isEmpty()) {
            return null;
        }
        if (images.size() > MAX_IMAGES) {
            return "a message takes at most " + MAX_IMAGES + " images, not " + images.size();
        }
        for (String path : images) {
            if (path == null || path.isBlank()) {
                return "an image path is empty";
            }
            if (path.length() > MAX_PATH_CHARS || path.indexOf('\0') >= 0) {
                return "an image path must be at most " + MAX_PATH_CHARS + " characters and contain no NUL";
            }
        }
        return null;
    }
}
