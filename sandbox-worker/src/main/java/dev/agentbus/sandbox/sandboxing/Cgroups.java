package dev.agentbus.sandbox.sandboxing;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Control groups for bubblewrap sandboxes: the pids, memory and CPU limits Docker gets from the engine. A sandbox's
 * processes are put in its own group before bubblewrap starts (see {@link BubblewrapHost}), so nothing it forks can
 * be outside; killing every process of the group is how the whole sandbox is stopped.
 *
 * <p>Both layouts are handled: cgroup v2 (one tree; the worker needs a delegated subtree with the pids, memory and
 * cpu controllers enabled) and v1 (one tree per controller). When neither can be written (a worker without root and
 * without delegation) there are no groups, and {@link BubblewrapHost} falls back to rlimits.
 */
final class Cgroups {
    private static final Logger LOG = LoggerFactory.getLogger(Cgroups.class);
    private static final String PARENT = "agentbus-sandboxes";

    private final boolean v2;
    /** v2: the one parent; v1: the parent in the pids, memory and cpu hierarchies. */
    private final List<Path> parents;

    private Cgroups(boolean v2, List<Path> parents) {
        this.v2 = v2;
        this.parents = parents;
    }

    /**
     * The groups under {@code mount} (normally {@code /sys/fs/cgroup}) if this process can create them, in a parent
     * of this worker's own ({@code agentbus-sandboxes/<worker id>}). Empty groups a previous run of the worker left
     * there (it was killed before it could remove them) are removed.
     */
    static Optional<Cgroups> detect(Path mount, String workerId) {
        String own = workerId.replaceAll("[^A-Za-z0-9_.-]", "_");
        try {
            Path unified = mount.resolve("cgroup.controllers");
            if (Files.isRegularFile(unified)) {
                String available = Files.readString(unified);
                if (!available.contains("pids") || !available.contains("memory")) {
                    return Optional.empty();
                }
                String wanted = available.contains("cpu") ? "+pids +memory +cpu" : "+pids +memory";
                Path top = mount.resolve(PARENT);
                Files.createDirectories(top);
                Files.writeString(top.resolve("cgroup.subtree_control"), wanted);
                Path parent = top.resolve(own);
                Files.createDirectories(parent);
                Files.writeString(parent.resolve("cgroup.subtree_control"), wanted);
                removeEmptyChildren(parent);
                return Optional.of(new Cgroups(true, List.of(parent)));
            }
            List<Path> parents = new ArrayList<>();
            for (String controller : List.of("pids", "memory", "cpu")) {
                Path root = mount.resolve(controller);
                if (!Files.isDirectory(root)) {
                    if (controller.equals("cpu")) {
                        continue; // CPU is a nicety; pids and memory are the protection
                    }
                    return Optional.empty();
                }
                Path parent = root.resolve(PARENT).resolve(own);
                Files.createDirectories(parent);
                removeEmptyChildren(parent);
                parents.add(parent);
            }
            return Optional.of(new Cgroups(false, parents));
        } catch (IOException | SecurityException e) {
            LOG.info("cannot create control groups under {} ({}); bubblewrap sandboxes get rlimits instead", mount,
                    e.toString());
            return Optional.empty();
        }
    }

    /** rmdir succeeds only on a group without processes (and children), so a live sandbox's group stays. */
    private static void removeEmptyChildren(Path parent) {
        try (var children = Files.newDirectoryStream(parent, Files::isDirectory)) {
            for (Path child : children) {
                try {
                    Files.deleteIfExists(child);
                } catch (IOException busy) {
                    // Still in use.
                }
            }
        } catch (IOException e) {
            LOG.debug("could not list {}: {}", parent, e.toString());
        }
    }

    /** Removes this worker's parent groups if no sandbox group is left in them (at the worker's stop). */
    void removeParents() {
        for (Path parent : parents) {
            try {
                Files.deleteIfExists(parent);
            } catch (IOException stillUsed) {
                LOG.debug("{} still has sandbox groups", parent);
            }
        }
    }

    /** Creates the group of one sandbox with its limits. */
    Group create(String name, SandboxConfig.Limits limits) throws IOException {
        List<Path> dirs = new ArrayList<>();
        for (Path parent : parents) {
            Path dir = parent.resolve(name);
            Files.createDirectories(dir);
            dirs.add(dir);
        }
        Group group = new Group(v2, dirs);
        group.limit(limits);
        return group;
    }

    /** One sandbox's group (one directory in v2, one per controller in v1). */
    static final class Group {
        private final boolean v2;
        private final List<Path> dirs;

        private Group(boolean v2, List<Path> dirs) {
            this.v2 = v2;
            this.dirs = dirs;
        }

        /** The files a process writes its pid into to join the group (all of them, in v1). */
        List<Path> procsFiles() {
            return dirs.stream().map(dir -> dir.resolve("cgroup.procs")).toList();
        }

        private void limit(SandboxConfig.Limits limits) throws IOException {
            long quota = Math.round(limits.cpus() * 100_000);
            if (v2) {
                Path dir = dirs.getFirst();
                write(dir.resolve("pids.max"), Integer.toString(limits.pids()));
                write(dir.resolve("memory.max"), Long.toString(limits.memoryBytes()));
                writeIfPresent(dir.resolve("memory.swap.max"), "0");
                writeIfPresent(dir.resolve("cpu.max"), quota + " 100000");
                return;
            }
            for (Path dir : dirs) {
                // <mount>/<controller>/agentbus-sandboxes/<worker>/<sandbox>
                switch (dir.getParent().getParent().getParent().getFileName().toString()) {
                    case "pids" -> write(dir.resolve("pids.max"), Integer.toString(limits.pids()));
                    case "memory" -> {
                        write(dir.resolve("memory.limit_in_bytes"), Long.toString(limits.memoryBytes()));
                        // No swap either, where the kernel accounts it: the limit is on memory plus swap.
                        writeIfPresent(dir.resolve("memory.memsw.limit_in_bytes"),
                                Long.toString(limits.memoryBytes()));
                    }
                    case "cpu" -> {
                        writeIfPresent(dir.resolve("cpu.cfs_period_us"), "100000");
                        writeIfPresent(dir.resolve("cpu.cfs_quota_us"), Long.toString(quota));
                    }
                    default -> { }
                }
            }
        }

        /** The processes in the group now. */
        List<Long> pids() {
            Path procs = dirs.getFirst().resolve("cgroup.procs");
            try {
                return Files.readAllLines(procs).stream().filter(line -> !line.isBlank()).map(Long::parseLong)
                        .toList();
            } catch (IOException | NumberFormatException e) {
                return List.of();
            }
        }

        /**
         * SIGKILLs every process in the group until none is left: a fork bomb forks while we kill, but never past
         * the pids limit, so a few rounds empty it.
         */
        void killAll() {
            Path cgroupKill = dirs.getFirst().resolve("cgroup.kill");
            if (v2 && Files.exists(cgroupKill)) {
                writeQuietly(cgroupKill, "1");
            }
            for (int round = 0; round < 200; round++) {
                List<Long> pids = pids();
                if (pids.isEmpty()) {
                    return;
                }
                pids.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
                try {
                    Thread.sleep(round < 10 ? 2 : 20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            LOG.warn("processes still alive in sandbox group {} after killing for seconds", dirs.getFirst());
        }

        /** Kills what is left and removes the group's directories. */
        void remove() {
            killAll();
            for (Path dir : dirs) {
                try {
                    Files.deleteIfExists(dir);
                } catch (IOException e) {
                    LOG.debug("could not remove {}: {}", dir, e.toString());
                }
            }
        }

        private static void write(Path file, String value) throws IOException {
            Files.writeString(file, value);
        }

        private static void writeIfPresent(Path file, String value) {
            if (Files.exists(file)) {
                writeQuietly(file, value);
            }
        }

        private static void writeQuietly(Path file, String value) {
            try {
                Files.writeString(file, value);
            } catch (IOException e) {
                LOG.debug("could not write {} to {}: {}", value, file, e.toString());
            }
        }
    }
}
