package dev.agentbus.eventbus;

import java.nio.file.Path;

/** Where a service keeps files on disk: {@code agentbus.data-dir} ({@code AGENTBUS_DATA_DIR}), else ~/.agentbus. */
public final class DataDir {
    private DataDir() {
    }

    public static Path of(String configured) {
        return configured == null || configured.isBlank()
                ? Path.of(System.getProperty("user.home"), ".agentbus") : Path.of(configured);
    }
}
