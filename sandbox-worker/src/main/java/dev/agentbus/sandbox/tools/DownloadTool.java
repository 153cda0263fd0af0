package dev.agentbus.sandbox.tools;

import dev.agentbus.sandbox.workspace.PathRejectedException;
import dev.agentbus.sandbox.workspace.SymbolicLinkException;
import dev.agentbus.sandbox.workspace.FileTooLargeException;
import dev.agentbus.sandbox.workspace.WorkspaceDir;
import dev.agentbus.sandbox.workspace.WorkspacePaths;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.attribute.PosixFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;

/**
 * {@code download {path}}, run by a person through the gateway ({@code GET …/files/{path}}), never by the model:
 * returns a workspace file whole. The output is one line {@code sha256:<hex> bytes:<n>} and then the content in
 * base64. The checksum lets the gateway prove the bytes arrived unchanged: the worker masks secrets in every output
 * before it is logged, and the gateway answers 502 rather than hand out a file that masking altered.
 *
 * <p>At most {@link SandboxSettings#transferMaxBytes()} bytes, because the result travels in one Kafka record; the
 * generic output cap does not apply to it.
 */
final class DownloadTool implements Tool {
    private final SandboxSettings settings;

    DownloadTool(SandboxSettings settings) {
        this.settings = settings;
    }

    @Override
    public boolean limitsItsOwnOutput() {
        return true;
    }

    @Override
    public ToolOutcome run(Args args, ToolContext ctx) throws ToolFailure, PathRejectedException, IOException {
        WorkspacePaths workspace = ctx.workspace();
        String given = args.requiredString("path");
        String shown = workspace.display(workspace.resolve(given));
        if (workspace.names(given).isEmpty()) {
            throw new ToolFailure("not a regular file, only files can be downloaded: " + shown);
        }
        byte[] bytes;
        try (WorkspacePaths.Target file = workspace.target(given, false)) {
            PosixFileAttributes attributes = file.parent().stat(file.name());
            if (attributes == null) {
                throw new ToolFailure("file not found: " + shown);
            }
            if (attributes.isSymbolicLink()) {
                throw new SymbolicLinkException(shown);
            }
            if (!attributes.isRegularFile()) {
                throw new ToolFailure("not a regular file, only files can be downloaded: " + shown);
            }
            bytes = file.parent().readAll(file.name(), settings.transferMaxBytes());
        } catch (NoSuchFileException e) {
            throw new ToolFailure("file not found: " + shown);
        } catch (FileTooLargeException e) {
            throw new ToolFailure("file is too large to download: " + shown + " is " + e.size()
                    + " bytes, the limit is " + settings.transferMaxBytes());
        }
        return ToolOutcome.success("sha256:" + sha256(bytes) + " bytes:" + bytes.length + "\n"
                + Base64.getEncoder().encodeToString(bytes));
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
