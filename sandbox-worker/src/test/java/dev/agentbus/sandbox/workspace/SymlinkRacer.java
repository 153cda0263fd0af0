package dev.agentbus.sandbox.workspace;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The attack of issue 28, failure 1, as a test fixture: a program left running in the sandbox swaps workspace paths
 * for symbolic links to a host directory, in a tight loop, while the worker (root on the host) acts on them.
 *
 * <p>The workspace gets a directory {@code dir/} and a file {@code file.txt}; the host directory {@code outside/}
 * holds files of the same names whose content contains {@link #SECRET}, and one whose name does. The racer thread, until {@link #close},
 * does what the shell loop of the issue does ({@code ln -sfn outside race; rm race; ...}) to both:
 * <ul>
 *   <li>{@code dir} is renamed away, a link to {@code outside} renamed in its place, then the directory put back;</li>
 *   <li>{@code file.txt} likewise, with a link to {@code outside/secret.txt}.</li>
 * </ul>
 * A test runs an operation a fixed number of times while this runs, then checks that no output held the secret
 * and that {@link #outsideSnapshot} is what it was ({@link #assertOutsideUntouched}).
 */
public final class SymlinkRacer implements AutoCloseable {
    /** What only the host files hold: seeing it in any output means a host file was read. */
    public static final String SECRET = "HOST-SECRET-7f3a9c";
    /** A PNG header followed by the secret: an image a model call would accept. */
    public static final byte[] SECRET_PNG = png(SECRET);
    public static final byte[] INSIDE_PNG = png("inside image");

    private final Path workspace;
    private final Path outside;
    private final Map<String, String> before;
    private final AtomicBoolean stop = new AtomicBoolean();
    private final AtomicLong swaps = new AtomicLong();
    private final Thread thread;

    /**
     * @param workspace the workspace (made here if missing)
     * @param outside   a host directory beside it, not inside it (made and filled here)
     */
    public SymlinkRacer(Path workspace, Path outside) throws IOException {
        this.workspace = Files.createDirectories(workspace);
        this.outside = Files.createDirectories(outside);
        for (Path base : new Path[] {outside, workspace.resolve("dir")}) {
            boolean host = base.equals(outside);
            String content = host ? SECRET + "\n" : "inside\n";
            Files.createDirectories(base);
            Files.writeString(base.resolve("secret.txt"), content);
            Files.writeString(base.resolve("victim.txt"), content);
            Files.write(base.resolve("image.png"), host ? SECRET_PNG : INSIDE_PNG);
            Files.createDirectories(base.resolve("tree"));
            Files.writeString(base.resolve("tree").resolve("leaf.txt"), content);
        }
        Files.writeString(workspace.resolve("file.txt"), "inside\n");
        // A name only the host directory has: a listing (ls, glob) that went through a link shows it.
        Files.writeString(outside.resolve(SECRET + ".txt"), SECRET + "\n");
        this.before = snapshot(outside);
        this.thread = Thread.ofPlatform().daemon().name("symlink-racer").start(this::race);
    }

    public Path outside() {
        return outside;
    }

    /** How many swaps were made: a test checks the racer really ran while the operation did. */
    public long swaps() {
        return swaps.get();
    }

    private void race() {
        Path dir = workspace.resolve("dir");
        Path parked = workspace.resolve(".dir-parked");
        Path dirLink = workspace.resolve(".dir-link");
        Path file = workspace.resolve("file.txt");
        Path fileParked = workspace.resolve(".file-parked");
        Path fileLink = workspace.resolve(".file-link");
        while (!stop.get()) {
            // Renames, as "ln -sfn" does: the path is a real directory or a link to the host, each about half the
            // time, and never missing for long.
            swap(dir, parked, dirLink, outside);
            swap(file, fileParked, fileLink, outside.resolve("secret.txt"));
            swaps.incrementAndGet();
        }
    }

    /** {@code path} becomes the link to {@code target}, then itself again. */
    private static void swap(Path path, Path parked, Path link, Path target) {
        try {
            if (!Files.isSymbolicLink(link)) {
                Files.createSymbolicLink(link, target); // made once, or again after a tool removed it
            }
            Files.move(path, parked, StandardCopyOption.ATOMIC_MOVE);
            Files.move(link, path, StandardCopyOption.ATOMIC_MOVE);
            Files.move(path, link, StandardCopyOption.ATOMIC_MOVE);
            Files.move(parked, path, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | RuntimeException e) {
            // A tool changed the path meanwhile (deleted it, made it): put things back as well as we can.
            putBack(path, parked, link);
        }
    }

    private static void putBack(Path path, Path parked, Path link) {
        try {
            if (Files.isSymbolicLink(path)) {
                Files.move(path, link, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            }
            if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS) && Files.exists(parked, LinkOption.NOFOLLOW_LINKS)) {
                Files.move(parked, path, StandardCopyOption.ATOMIC_MOVE);
            }
        } catch (IOException | RuntimeException ignored) {
            // next round
        }
    }

    /** Every file and directory under {@code dir}, with the content of files and the target of links. */
    public static Map<String, String> snapshot(Path dir) throws IOException {
        Map<String, String> all = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.toList()) {
                String rel = dir.relativize(p).toString();
                if (Files.isSymbolicLink(p)) {
                    all.put(rel, "link " + Files.readSymbolicLink(p));
                } else if (Files.isDirectory(p)) {
                    all.put(rel, "dir " + Files.getPosixFilePermissions(p) + " " + Files.getOwner(p));
                } else {
                    all.put(rel, "file " + Files.getPosixFilePermissions(p) + " " + Files.getOwner(p) + " "
                            + new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1));
                }
            }
        }
        return all;
    }

    /** The host directory holds exactly what it held at the start: nothing created, changed or deleted. */
    public void assertOutsideUntouched() {
        try {
            Map<String, String> now = snapshot(outside);
            if (!now.equals(before)) {
                throw new AssertionError("the host directory changed during the race:\nbefore " + before + "\nafter  "
                        + now);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Fails when {@code text} holds the secret: a host file was read. */
    public static void assertNoSecret(String what, String text) {
        if (text != null && text.contains(SECRET)) {
            throw new AssertionError(what + " read a host file through a swapped link: " + text);
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop.set(true);
        thread.join();
        putBack(workspace.resolve("dir"), workspace.resolve(".dir-parked"), workspace.resolve(".dir-link"));
        putBack(workspace.resolve("file.txt"), workspace.resolve(".file-parked"), workspace.resolve(".file-link"));
    }

    private static byte[] png(String text) {
        byte[] body = text.getBytes(StandardCharsets.US_ASCII);
        byte[] bytes = new byte[8 + body.length];
        byte[] header = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
        System.arraycopy(header, 0, bytes, 0, 8);
        System.arraycopy(body, 0, bytes, 8, body.length);
        return bytes;
    }
}
