package dev.agentbus.systemtests;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.InflaterInputStream;

/**
 * What the attacker in {@link SymlinkRaceIT} aims at outside the workspace, and how to tell that it was reached.
 *
 * <p>Two targets: the real {@code <data dir>/gateway-token} (the file the attacker read, then used as the
 * admin), and one host directory per lane ({@code outside/<lane>}) that holds a secret file, a victim file and a
 * file whose very name is secret. A lane's {@code race} is swapped with a link to the token, its {@code d} with a link
 * to its own directory, so a change in that directory names the lane that made it.
 */
final class RaceTargets {
    /** A secret and the forms it can take in an answer: as is, and base64 at each of the three alignments. */
    record Needle(String what, List<String> forms) {
        static Needle of(String what, String secret) {
            List<String> forms = new ArrayList<>(List.of(secret));
            forms.add(Base64.getEncoder().encodeToString((secret + "\n").getBytes(StandardCharsets.UTF_8)));
            for (int pad = 0; pad < 3; pad++) {
                String encoded = Base64.getEncoder().encodeToString(("ab".substring(0, pad) + secret)
                        .getBytes(StandardCharsets.UTF_8));
                // Drop the group that holds the padding bytes and the last group, which may hold what follows.
                forms.add(encoded.substring(pad == 0 ? 0 : 4, encoded.length() - 4));
            }
            return new Needle(what, List.copyOf(forms));
        }

        boolean foundIn(String text) {
            return text != null && forms.stream().anyMatch(text::contains);
        }
    }

    /** One lane's directory outside the workspace. */
    record Outside(String lane, Path dir, String contentSecret, String nameSecret) {
    }

    static final String SECRET_FILE = "secret.txt";
    static final String VICTIM_FILE = "victim.txt";
    /** What a decoy (in the workspace) and the real secret file (outside) both start with, so edits match both. */
    static final String DECOY = "decoy";

    private static final SecureRandom RANDOM = new SecureRandom();

    final Path gatewayToken;
    final String tokenValue;
    final Map<String, Outside> outside = new LinkedHashMap<>();
    final List<Needle> needles = new ArrayList<>();

    RaceTargets(Path dataDir, Path outsideRoot, List<String> lanes) throws IOException {
        this.gatewayToken = dataDir.resolve("gateway-token");
        this.tokenValue = Files.readString(gatewayToken).trim();
        needles.add(Needle.of("the gateway token (" + gatewayToken + ")", tokenValue));
        for (String lane : lanes) {
            Path dir = Files.createDirectories(outsideRoot.resolve(lane));
            Outside o = new Outside(lane, dir, random(), "outside-only-" + random());
            Files.writeString(dir.resolve(SECRET_FILE), DECOY + "\n" + o.contentSecret() + "\n");
            Files.writeString(dir.resolve(VICTIM_FILE), DECOY + " victim of lane " + lane + "\n");
            Files.writeString(dir.resolve(o.nameSecret()), "its name is the secret\n");
            outside.put(lane, o);
            needles.add(Needle.of("the content of " + dir.resolve(SECRET_FILE), o.contentSecret()));
            needles.add(Needle.of("the name of " + dir.resolve(o.nameSecret()), o.nameSecret()));
        }
    }

    static String random() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    /** The secrets found in {@code text}, by what they are; empty when none. */
    List<String> secretsIn(String text) {
        return needles.stream().filter(n -> n.foundIn(text)).map(Needle::what).toList();
    }

    /**
     * The swapping loop of one lane, as a Perl script (perl-base is in every Debian, so in the sandbox image and
     * on a host that bubblewrap shows): system calls only, no process starts, so in a burst each name changes every
     * few dozen microseconds, and a worker's check-then-open often sees both states. {@code race} is a file ("x")
     * or a link to the gateway token; {@code d} is a directory with decoys of the outside names (renamed in and
     * out of place; one a tool made meanwhile is put aside) or a link to the lane's directory. The pause between
     * bursts keeps ten loops from taking the machine the services run on. A script, not a command line: the
     * safety layer reads a command line for absolute paths outside the workspace, and the attacker does not mind.
     */
    String loopScript(String lane, int pauseMicros) {
        return """
                # SymlinkRaceIT: swap race and d between the real thing and a link out of the workspace, forever.
                use strict;
                my ($token, $outside, $pause, $old) = (%s, %s, %d / 1e6, 0);
                sub put { my ($path, $text) = @_; open(my $f, '>', $path) or return; print $f $text; close $f; }
                while (1) {
                    for (1 .. 100) {
                        unlink 'race'; symlink($token, 'race');
                        rename('d', 'd.real') or rename('d', 'd.old' . ++$old) unless -l 'd';
                        symlink($outside, 'd');
                        mkdir 'd.real' unless -d 'd.real';
                        put('d.real/%s', "%s\\n") unless -e 'd.real/%s';
                        put('d.real/%s', "%s\\n") unless -e 'd.real/%s';
                        unlink 'race'; put('race', "x\\n");
                        unlink 'd' if -l 'd';
                        rename('d.real', 'd') unless -e 'd';
                    }
                    # The rest is in the real state: a check passes then, and the next burst may fall into its use.
                    select(undef, undef, undef, $pause);
                }
                """.formatted(quote(gatewayToken.toString()), quote(outside.get(lane).dir().toString()),
                pauseMicros, SECRET_FILE, DECOY, SECRET_FILE, VICTIM_FILE, DECOY, VICTIM_FILE);
    }

    private static String quote(String s) {
        return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"; // a Perl string
    }

    /**
     * Every entry under {@code dir}, links not followed, as "type size sha256 mtime": a read leaves it as it was,
     * a write, a new file or a deletion does not.
     */
    static Map<String, String> snapshot(Path dir) {
        Map<String, String> entries = new TreeMap<>();
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.toList()) {
                BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                String type = a.isSymbolicLink() ? "link->" + Files.readSymbolicLink(p)
                        : a.isDirectory() ? "dir" : "file";
                String hash = a.isRegularFile() ? sha256(Files.readAllBytes(p)) : "-";
                String name = dir.relativize(p).toString();
                entries.put(name.isEmpty() ? "." : name, type + " " + a.size() + " " + hash + " "
                        + a.lastModifiedTime().toMillis());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return entries;
    }

    /** What differs between two snapshots, one line per path. */
    static List<String> changes(Map<String, String> before, Map<String, String> after) {
        List<String> changes = new ArrayList<>();
        before.forEach((path, was) -> {
            String now = after.get(path);
            if (now == null) {
                changes.add("deleted " + path);
            } else if (!now.equals(was)) {
                changes.add("changed " + path + " (" + was + " -> " + now + ")");
            }
        });
        after.keySet().stream().filter(p -> !before.containsKey(p)).forEach(p -> changes.add("created " + p));
        return changes;
    }

    /**
     * Files under {@code dir} (links not followed; {@code skip} left out) that hold a secret: copies the worker made
     * where the user does not see them directly (backups, checkpoints), or files a tool brought into a workspace.
     * Checkpoint objects are zlib-compressed loose git objects, so each file is also read inflated.
     */
    List<String> secretsStoredUnder(Path dir, List<Path> skip) throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.filter(f -> Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS))
                    .filter(f -> skip.stream().noneMatch(f::startsWith)).toList()) {
                byte[] bytes;
                try (InputStream in = Files.newInputStream(p, LinkOption.NOFOLLOW_LINKS)) {
                    bytes = in.readAllBytes();
                } catch (IOException gone) {
                    continue; // removed while we looked (a backup rotated away)
                }
                List<String> secrets = new ArrayList<>(secretsIn(new String(bytes, StandardCharsets.ISO_8859_1)));
                secrets.addAll(secretsIn(inflated(bytes)));
                if (!secrets.isEmpty()) {
                    found.add(dir.relativize(p) + " holds " + String.join(", ", secrets.stream().distinct().toList()));
                }
            }
        }
        return found;
    }

    private static String inflated(byte[] bytes) {
        if (bytes.length < 2 || (bytes[0] & 0xFF) != 0x78) {
            return "";
        }
        try (InputStream in = new InflaterInputStream(new java.io.ByteArrayInputStream(bytes))) {
            return new String(in.readNBytes(4 << 20), StandardCharsets.ISO_8859_1);
        } catch (IOException notZlib) {
            return "";
        }
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
