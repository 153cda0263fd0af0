package dev.agentbus.sandbox.tools;

import dev.agentbus.sandbox.workspace.PathRejectedException;
import dev.agentbus.sandbox.workspace.SymbolicLinkException;
import dev.agentbus.sandbox.workspace.WorkspacePaths;

import java.io.IOException;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.Base64;

/**
 * {@code upload {path, content_base64}}, run by a person through the gateway ({@code PUT …/files/{path}}), never
 * by the model: writes the decoded bytes to a workspace file, atomically, after a backup of any file it replaces.
 * At most {@link SandboxSettings#transferMaxBytes()} bytes, because the content travels inside one Kafka record.
 */
final class UploadTool implements Tool {
    private final SandboxSettings settings;

    UploadTool(SandboxSettings settings) {
        this.settings = settings;
    }

    @Override
    public ToolOutcome run(Args args, ToolContext ctx) throws ToolFailure, PathRejectedException, IOException {
        WorkspacePaths workspace = ctx.workspace();
        String given = args.requiredString("path");
        String shown = workspace.display(workspace.resolve(given));
        byte[] bytes;
        try {
            bytes = Base64.getMimeDecoder().decode(args.requiredString("content_base64"));
        } catch (IllegalArgumentException e) {
            throw new ToolFailure("content_base64 is not valid base64: " + e.getMessage());
        }
        if (bytes.length > settings.transferMaxBytes()) {
            throw new ToolFailure("the upload is " + bytes.length + " bytes, more than the limit of "
                    + settings.transferMaxBytes() + " bytes");
        }
        if (workspace.names(given).isEmpty()) {
            throw new ToolFailure("is a directory, cannot upload a file there: " + shown);
        }
        try (WorkspacePaths.Target file = workspace.target(given, true)) {
            PosixFileAttributes old = file.parent().stat(file.name());
            if (old != null && old.isSymbolicLink()) {
                throw new SymbolicLinkException(shown);
            }
            if (old != null && old.isDirectory()) {
                throw new ToolFailure("is a directory, cannot upload a file there: " + shown);
            }
            if (old != null && !old.isRegularFile()) {
                throw new ToolFailure("not a regular file, cannot upload over it: " + shown);
            }
            boolean existed = old != null;
            String before = existed ? FileChanges.textOrNull(file, settings.maxFileBytes()) : null;
            String backup = existed ? FileChanges.backUp(settings, workspace, file) : "";
            file.parent().writeAtomically(file.name(), bytes);
            String after = FileChanges.textOrNull(bytes, settings.maxFileBytes());
            String diff = after == null || (existed && before == null) ? null
                    : FileChanges.diffOrNull(before, after, shown);
            return new ToolOutcome(true, (existed ? "replaced " : "uploaded ") + shown + " (" + bytes.length
                    + " bytes, sha256 " + DownloadTool.sha256(bytes) + ")" + backup, null, diff, false)
                    .changing(file.path());
        }
    }
}
