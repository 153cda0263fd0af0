package dev.agentbus.sandbox.checkpointing;

import org.eclipse.jgit.lib.Config;
import org.eclipse.jgit.storage.file.FileBasedConfig;
import org.eclipse.jgit.util.FS;
import org.eclipse.jgit.util.SystemReader;

/**
 * JGit, as the checkpoints use it, reads no configuration but the shadow repository's own: not the system's
 * ({@code /etc/gitconfig}), not the worker user's ({@code ~/.gitconfig}, {@code ~/.config/git}), not JGit's (which
 * it would also write, to remember a file system's timestamp resolution). Its default would even start a
 * {@code git} process once, to ask where the system configuration is. Environment variables ({@code GIT_DIR} and
 * the like) are never read: repositories are opened by their path only.
 *
 * <p>What the old {@code git} processes were protected from on their command lines (hooks, filters, line-ending
 * conversion, fsmonitor) does not arise in-process: checkpoints write and read objects and refs directly, and never
 * run a hook, a filter or an attribute. JGit's configuration reader is process-wide; this worker uses JGit for
 * checkpoints only.
 */
final class IsolatedJGit {
    private static boolean installed;

    private IsolatedJGit() {
    }

    /** Installs the reader once per JVM; harmless to call again. */
    static synchronized void install() {
        if (installed) {
            return;
        }
        SystemReader.setInstance(new SystemReader.Delegate(SystemReader.getInstance()) {
            @Override
            public FileBasedConfig openUserConfig(Config parent, FS fs) {
                return new EmptyConfig(parent, fs);
            }

            @Override
            public FileBasedConfig openSystemConfig(Config parent, FS fs) {
                return new EmptyConfig(parent, fs);
            }

            @Override
            public FileBasedConfig openJGitConfig(Config parent, FS fs) {
                return new EmptyConfig(parent, fs);
            }
        });
        installed = true;
    }

    /** A configuration with no file: nothing to load, nothing saved. */
    private static final class EmptyConfig extends FileBasedConfig {
        EmptyConfig(Config parent, FS fs) {
            super(parent, null, fs);
        }

        @Override
        public void load() {
            // nothing to read
        }

        @Override
        public void save() {
            // nothing kept
        }

        @Override
        public boolean isOutdated() {
            return false;
        }
    }
}
