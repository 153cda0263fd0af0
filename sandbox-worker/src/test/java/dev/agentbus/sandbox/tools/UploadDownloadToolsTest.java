package dev.agentbus.sandbox.tools;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Random;

import static dev.agentbus.sandbox.tools.Json.args;
import static org.assertj.core.api.Assertions.assertThat;

/** The user-only transfer tools the gateway's file endpoints run. */
class UploadDownloadToolsTest {
    @TempDir
    Path tmp;
    Path ws;

    private final ToolExecutor tools = new ToolExecutor(SandboxSettings.defaults().withOutputCapBytes(1024)
            .withTransferMaxBytes(64 * 1024), NoSandboxes.INSTANCE);

    @BeforeEach
    void makeWorkspace() throws IOException {
        ws = Files.createDirectories(tmp.resolve("ws"));
    }

    private ToolOutcome run(String tool, Object... keysAndValues) {
        return tools.execute(tool, args(keysAndValues), ws, null);
    }

    @Test
    void binary_content_goes_in_and_comes_out_unchanged_past_the_output_cap() {
        byte[] content = new byte[40_000];
        new Random(7).nextBytes(content);

        ToolOutcome up = run("upload", "path", "data/blob.bin", "content_base64",
                Base64.getEncoder().encodeToString(content));
        ToolOutcome down = run("download", "path", "data/blob.bin");

        assertThat(up.ok()).isTrue();
        assertThat(up.output()).isEqualTo("uploaded data/blob.bin (40000 bytes, sha256 "
                + DownloadTool.sha256(content) + ")");
        assertThat(down.ok()).isTrue();
        assertThat(down.truncated()).isFalse();
        String[] parts = down.output().split("\n", 2);
        assertThat(parts[0]).isEqualTo("sha256:" + DownloadTool.sha256(content) + " bytes:40000");
        assertThat(Base64.getDecoder().decode(parts[1])).isEqualTo(content);
    }

    @Test
    void uploading_over_a_text_file_backs_it_up_and_returns_a_diff() throws IOException {
        Files.writeString(ws.resolve("notes.txt"), "old\n");

        ToolOutcome up = run("upload", "path", "notes.txt", "content_base64",
                Base64.getEncoder().encodeToString("new\n".getBytes(StandardCharsets.UTF_8)));

        assertThat(up.output()).startsWith("replaced notes.txt (4 bytes, sha256 ").contains("[backup: ");
        assertThat(up.diff()).contains("-old\n+new\n");
        assertThat(ws.resolve("notes.txt")).hasContent("new");
    }

    @Test
    void sizes_over_the_transfer_limit_are_refused_both_ways() throws IOException {
        String tooBig = Base64.getEncoder().encodeToString(new byte[64 * 1024 + 1]);
        Files.write(ws.resolve("big.bin"), new byte[64 * 1024 + 1]);

        assertThat(run("upload", "path", "x.bin", "content_base64", tooBig).error())
                .isEqualTo("the upload is 65537 bytes, more than the limit of 65536 bytes");
        assertThat(ws.resolve("x.bin")).doesNotExist();
        assertThat(run("download", "path", "big.bin").error())
                .isEqualTo("file is too large to download: big.bin is 65537 bytes, the limit is 65536");
    }

    @Test
    void bad_input_fails_with_a_message_and_writes_nothing() throws IOException {
        Files.createDirectories(ws.resolve("dir"));

        assertThat(run("upload", "path", "a.txt", "content_base64", "not base64 !").error())
                .startsWith("content_base64 is not valid base64");
        assertThat(run("upload", "path", "dir", "content_base64", "eA==").error())
                .isEqualTo("is a directory, cannot upload a file there: dir");
        assertThat(run("download", "path", "missing.txt").error()).isEqualTo("file not found: missing.txt");
        assertThat(run("download", "path", "dir").error()).startsWith("not a regular file");
        assertThat(ws.resolve("a.txt")).doesNotExist();
    }
}
