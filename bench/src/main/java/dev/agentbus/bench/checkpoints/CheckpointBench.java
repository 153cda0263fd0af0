package dev.agentbus.bench.checkpoints;

import dev.agentbus.bench.Stats;
import dev.agentbus.sandbox.checkpointing.Checkpoints;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;

/**
 * What a workspace checkpoint costs, old and new side by side in one run (docs/benchmarks.md, "Checkpoints"):
 * <ul>
 *   <li><b>git processes</b>: the implementation before (a copy in {@link GitProcessCheckpoints}), about six
 *       {@code git} processes per checkpoint;</li>
 *   <li><b>in-process, stat walk</b>: {@link Checkpoints} after a call that cannot say what it changed (shell,
 *       run_command): every entry of the workspace is stat'ed, changed files read;</li>
 *   <li><b>in-process, paths reported</b>: {@link Checkpoints} after a file tool, which reports the paths it wrote:
 *       only those are looked at.</li>
 * </ul>
 * On workspaces of 10, 100 and 1,000 files of 1–6 KB in up to 30 directories, the time of: a checkpoint when
 * nothing changed, after one file was changed in place (same size, so only the times and the content differ), after
 * one file was added; a rewind to the checkpoint before the last change; and the first checkpoint after a restart
 * of the worker (nothing in memory yet). Workspaces are made from a fixed seed, so every run measures the same
 * files. {@code bin/bench CheckpointBench [samples]}, 200 by default (the restart case: a quarter of that).
 * Goals (issue 9): a checkpoint after a call that changed nothing well under 1 ms; one after a changed file at most
 * 10 ms p50 at 1,000 files.
 */
public final class CheckpointBench {
    private static final int[] SIZES = {10, 100, 1_000};
    private static final int WARMUP = 20;

    private CheckpointBench() {
    }

    /** One way to take checkpoints of one workspace. */
    private interface Store {
        /** @param changed the paths the call changed, as a file tool reports them */
        Optional<String> record(String callId, Collection<Path> changed) throws Exception;

        void rewind(String checkpoint) throws Exception;
    }

    private enum Mode {
        GIT_PROCESSES("git processes (before)"),
        STAT_WALK("in-process, stat walk"),
        REPORTED("in-process, paths reported");

        final String title;

        Mode(String title) {
            this.title = title;
        }
    }

    private enum Case {
        NOTHING_CHANGED("nothing changed"),
        ONE_CHANGED("one file changed"),
        ONE_ADDED("one file added"),
        REWIND("rewind (one file differs)"),
        AFTER_RESTART("nothing changed, first after a restart");

        final String title;

        Case(String title) {
            this.title = title;
        }
    }

    public static void main(String[] args) throws Exception {
        int samples = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        Path base = Files.createTempDirectory("agentbus-checkpoint-bench");
        System.out.println("Workspace checkpoints, " + samples + " samples per cell (" + WARMUP + " untimed first); "
                + Stats.machine() + "; git " + gitVersion());
        Map<String, double[]> results = new LinkedHashMap<>();
        try {
            // The JIT first: otherwise the first cells measured (the small workspaces) pay for compiling.
            for (Case c : List.of(Case.NOTHING_CHANGED, Case.ONE_CHANGED, Case.ONE_ADDED, Case.REWIND)) {
                measure(base.resolve("warm-up"), 100, Mode.STAT_WALK, c, 300, false);
                measure(base.resolve("warm-up"), 100, Mode.REPORTED, c == Case.REWIND ? Case.ONE_CHANGED : c, 300,
                        false);
            }
            for (int files : SIZES) {
                for (Mode mode : Mode.values()) {
                    for (Case c : Case.values()) {
                        if (mode == Mode.REPORTED && (c == Case.REWIND || c == Case.AFTER_RESTART)) {
                            continue; // a rewind and a restart look at the whole workspace whatever the tool said
                        }
                        int n = c == Case.AFTER_RESTART ? Math.max(10, samples / 4) : samples;
                        results.put(key(files, mode, c), measure(base, files, mode, c, n, true));
                    }
                }
            }
        } finally {
            deleteTree(base);
        }
        print(results);
    }

    private static String key(int files, Mode mode, Case c) {
        return files + "|" + mode.name() + "|" + c.name();
    }

    private static double[] measure(Path base, int files, Mode mode, Case c, int samples, boolean show)
            throws Exception {
        Path root = Files.createDirectories(base.resolve(files + "-" + mode.name() + "-" + c.name()));
        Path workspace = Files.createDirectories(root.resolve("bench").resolve("s1"));
        List<Path> paths = makeWorkspace(workspace, files);
        Checkpoints[] checkpoints = {new Checkpoints(root, Clock.systemUTC())};
        Store store = switch (mode) {
            case GIT_PROCESSES -> {
                GitProcessCheckpoints git = new GitProcessCheckpoints(
                        root.resolve(".checkpoints").resolve("bench").resolve("s1.git"), workspace);
                yield new Store() {
                    public Optional<String> record(String callId, Collection<Path> changed) throws Exception {
                        return git.commitIfChanged("after write " + callId + "\n\nsession s1",
                                java.time.Instant.now());
                    }

                    public void rewind(String checkpoint) throws Exception {
                        git.restore(checkpoint);
                    }
                };
            }
            case STAT_WALK, REPORTED -> new Store() {
                public Optional<String> record(String callId, Collection<Path> changed) throws Exception {
                    return checkpoints[0].record("bench", "s1", workspace, "write", callId,
                            mode == Mode.REPORTED ? changed : null);
                }

                public void rewind(String checkpoint) throws Exception {
                    checkpoints[0].rewind("bench", "s1", workspace, checkpoint);
                }
            };
        };
        String first = store.record("c0", null).orElseThrow(); // every file, untimed
        Random random = new Random(7);
        double[] ms = new double[samples];
        String before = null;
        String after = null;
        if (c == Case.REWIND) {
            before = first;
            rewrite(paths.get(0), random);
            after = store.record("r1", List.of(paths.get(0))).orElseThrow();
        }
        for (int i = -WARMUP; i < samples; i++) {
            long start;
            switch (c) {
                case NOTHING_CHANGED -> {
                    start = System.nanoTime();
                    expect(store.record("n" + i, List.of()), false);
                }
                case ONE_CHANGED -> {
                    Path file = paths.get(Math.floorMod(i, paths.size()));
                    rewrite(file, random);
                    start = System.nanoTime();
                    expect(store.record("c" + i, List.of(file)), true);
                }
                case ONE_ADDED -> {
                    Path file = workspace.resolve("added").resolve("file-" + (i + WARMUP) + ".txt");
                    Files.createDirectories(file.getParent());
                    Files.writeString(file, text(random, 1024 + random.nextInt(5 * 1024)));
                    start = System.nanoTime();
                    expect(store.record("a" + i, List.of(file)), true);
                }
                case REWIND -> {
                    String to = (i & 1) == 0 ? before : after;
                    start = System.nanoTime();
                    store.rewind(to);
                    long took = System.nanoTime() - start;
                    store.record("w" + i, null); // the rewind's own checkpoint, untimed
                    start = System.nanoTime() - took;
                }
                case AFTER_RESTART -> {
                    if (mode != Mode.GIT_PROCESSES) {
                        checkpoints[0] = new Checkpoints(root, Clock.systemUTC()); // nothing in memory
                    }
                    start = System.nanoTime();
                    expect(store.record("s" + i, null), false);
                }
                default -> throw new IllegalStateException();
            }
            double took = (System.nanoTime() - start) / 1e6;
            if (i >= 0) {
                ms[i] = took;
            }
        }
        if (show) {
            System.out.printf("  %5d files, %-28s %-40s p50 %8.3f ms%n", files, mode.title, c.title,
                    Stats.median(ms));
        }
        return ms;
    }

    private static void expect(Optional<String> checkpoint, boolean wanted) {
        if (checkpoint.isPresent() != wanted) {
            throw new IllegalStateException("expected " + (wanted ? "a checkpoint" : "none") + ", got " + checkpoint);
        }
    }

    /** {@code files} files of 1–6 KB of text, in up to 30 directories two levels deep; the same every run. */
    private static List<Path> makeWorkspace(Path workspace, int files) throws IOException {
        Random random = new Random(42);
        int dirs = Math.min(30, files);
        List<Path> paths = new ArrayList<>();
        for (int i = 0; i < files; i++) {
            int d = i % dirs;
            Path file = workspace.resolve("src").resolve("m" + d % 5).resolve("p" + d).resolve("File" + i + ".java");
            Files.createDirectories(file.getParent());
            Files.writeString(file, text(random, 1024 + random.nextInt(5 * 1024)));
            paths.add(file);
        }
        return paths;
    }

    /** New content of the same size, written in place: same inode, same size; only the times and bytes differ. */
    private static void rewrite(Path file, Random random) throws IOException {
        Files.writeString(file, text(random, (int) Files.size(file)));
    }

    private static String text(Random random, int length) {
        StringBuilder s = new StringBuilder(length);
        while (s.length() < length) {
            s.append(random.nextInt(10) == 0 ? '\n' : (char) ('a' + random.nextInt(26)));
        }
        return s.toString();
    }

    private static void print(Map<String, double[]> results) {
        System.out.println();
        System.out.println("| files | what | git processes (before) p50 / p99 | in-process, stat walk p50 / p99 "
                + "| in-process, paths reported p50 / p99 |");
        System.out.println("|---:|---|---:|---:|---:|");
        for (int files : SIZES) {
            for (Case c : Case.values()) {
                StringBuilder row = new StringBuilder("| " + String.format("%,d", files) + " | " + c.title + " |");
                for (Mode mode : Mode.values()) {
                    double[] ms = results.get(key(files, mode, c));
                    row.append(ms == null ? " — |" : String.format(" %s / %s |", fmt(Stats.median(ms)),
                            fmt(Stats.percentile(ms, 99))));
                }
                System.out.println(row);
            }
        }
        System.out.println();
        double reported = Stats.median(results.get(key(1_000, Mode.REPORTED, Case.NOTHING_CHANGED)));
        double walked = Stats.median(results.get(key(1_000, Mode.STAT_WALK, Case.NOTHING_CHANGED)));
        double changedReported = Stats.median(results.get(key(1_000, Mode.REPORTED, Case.ONE_CHANGED)));
        double changedWalked = Stats.median(results.get(key(1_000, Mode.STAT_WALK, Case.ONE_CHANGED)));
        System.out.printf("goal: nothing changed, well under 1 ms: %s ms with the paths reported -> %s; "
                + "%s ms with a stat walk of 1,000 files -> %s%n", fmt(reported), reported < 0.5 ? "met" : "NOT met",
                fmt(walked), walked < 0.5 ? "met" : "NOT met");
        System.out.printf("goal: one file changed, at most 10 ms p50 at 1,000 files: %s ms with the paths reported, "
                + "%s ms with a stat walk -> %s%n", fmt(changedReported), fmt(changedWalked),
                Math.max(changedReported, changedWalked) <= 10 ? "met" : "NOT met");
    }

    private static String fmt(double ms) {
        return ms < 1 ? String.format("%.3f", ms) : ms < 100 ? String.format("%.2f", ms) : String.format("%.0f", ms);
    }

    private static String gitVersion() {
        try {
            Process p = new ProcessBuilder("git", "--version").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            p.waitFor();
            return out.replace("git version ", "");
        } catch (IOException | InterruptedException e) {
            return "not found (the 'before' column needs it)";
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
