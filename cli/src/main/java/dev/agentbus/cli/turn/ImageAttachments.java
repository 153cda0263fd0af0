package dev.agentbus.cli.turn;

import dev.agentbus.cli.gateway.GatewayClient;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Images a person attaches to a message from the terminal ({@code run --image}, chat's {@code /image}): a local file is
 * uploaded to the session's workspace under {@code uploads/} and named by that path; {@code workspace:PATH} names a
 * file already in the workspace. The message then carries only the paths: the sandbox-worker reads the files.
 */
public final class ImageAttachments {
    /** Marks a path in the session's workspace rather than on this machine. */
    public static final String WORKSPACE = "workspace:";
    /** The gateway's default upload limit; a larger file is refused here, before the upload. */
    static final long MAX_BYTES = 512 * 1024;

    private ImageAttachments() {
    }

    /** What is wrong with an argument before any session exists (a missing local file); null when nothing is. */
    public static String problem(String argument) {
        if (argument == null || argument.isBlank() || argument.equals(WORKSPACE)) {
            return "an image needs a path: a local file, or workspace:PATH for a file in the session's workspace";
        }
        if (argument.startsWith(WORKSPACE)) {
            return null;
        }
        Path file = Path.of(argument);
        if (!Files.isRegularFile(file)) {
            return "no such file: " + argument + " (for a file in the session's workspace, write workspace:"
                    + argument + ")";
        }
        try {
            if (Files.size(file) > MAX_BYTES) {
                return argument + " is " + Files.size(file) + " bytes; an image is at most " + MAX_BYTES
                        + " bytes (scale it down)";
            }
        } catch (IOException e) {
            return "cannot read " + argument + ": " + e.getMessage();
        }
        return null;
    }

    /** The workspace paths of {@code arguments}, uploading the local files to the session first. */
    public static List<String> attach(GatewayClient gateway, String sessionId, List<String> arguments) {
        List<String> paths = new ArrayList<>();
        for (String argument : arguments) {
            if (argument.startsWith(WORKSPACE)) {
                paths.add(argument.substring(WORKSPACE.length()));
                continue;
            }
            Path file = Path.of(argument);
            String target = "uploads/" + file.getFileName();
            try {
                gateway.files().upload(sessionId, target, Files.readAllBytes(file));
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot read " + argument + ": " + e.getMessage(), e);
            }
            paths.add(target);
        }
        return paths;
    }
}
