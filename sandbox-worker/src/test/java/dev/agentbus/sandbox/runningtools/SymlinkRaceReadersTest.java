package dev.agentbus.sandbox.runningtools;

import dev.agentbus.events.images.SessionImage;
import dev.agentbus.events.session.ContextFile;
import dev.agentbus.sandbox.workspace.SymlinkRacer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 28, failure 1, for what the worker reads from a workspace on its own: the images attached to a message (sent
 * to the model) and the context files (put in the system prompt). A path swapped for a link to a host file while it
 * reads must never put the host file's bytes in a record.
 */
class SymlinkRaceReadersTest {
    /** Reading an image is cheap, and the window of the old check-then-read code was small: many rounds. */
    private static final int ITERATIONS = 4000;

    @TempDir
    Path tmp;

    @Test
    void an_attached_image_swapped_for_a_link_is_never_read_from_the_host() throws Exception {
        Workspaces workspaces = new Workspaces(tmp.resolve("workspaces"));
        Path workspace = workspaces.forSession("bob", "s1");
        AttachedImageReader reader = new AttachedImageReader(workspaces);
        try (SymlinkRacer racer = new SymlinkRacer(workspace, tmp.resolve("outside"))) {
            Files.write(workspace.resolve("file.png"), SymlinkRacer.INSIDE_PNG);
            int read = 0;
            for (int i = 0; i < ITERATIONS; i++) {
                SessionImage image = reader.read("bob", "s1", 5, 0, "dir/image.png");
                if (image.base64() != null) {
                    read++;
                    SymlinkRacer.assertNoSecret("the attached image",
                            new String(Base64.getDecoder().decode(image.base64()), StandardCharsets.ISO_8859_1));
                }
                SymlinkRacer.assertNoSecret("the image's error", image.error());
            }
            assertThat(read).as("the image was read when no link was in the way").isPositive();
            racer.assertOutsideUntouched();
        }
    }

    @Test
    void a_workspace_swapped_for_a_link_gives_no_context_file_from_the_host() throws Exception {
        Workspaces workspaces = new Workspaces(tmp.resolve("workspaces"));
        Path workspace = workspaces.forSession("bob", "s1");
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("AGENTS.md"), SymlinkRacer.SECRET);
        Files.writeString(workspace.resolve(".soul.md"), "inside");
        ContextFiles contextFiles = new ContextFiles(ContextFiles.DEFAULT_MAX_CHARS);
        // A user-scope container sees its user's directory, so it can swap a whole session directory for a link.
        Files.move(workspace, workspace.resolveSibling("parked"));
        Files.createSymbolicLink(workspace, outside);

        for (ContextFile file : contextFiles.read(workspace)) {
            SymlinkRacer.assertNoSecret("a context file", file.content());
        }
        assertThat(contextFiles.read(workspace)).isEmpty();
    }
}
