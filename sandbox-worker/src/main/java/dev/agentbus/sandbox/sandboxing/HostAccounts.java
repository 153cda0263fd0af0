package dev.agentbus.sandbox.sandboxing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The accounts and groups of the host ({@code /etc/passwd}, {@code /etc/group}), asked whether one has the uid Docker
 * sandboxes run as. It must not: a process that escaped its container would be that account on the host, with its
 * files (issue 28: sandboxes ran as uid 1000, the first user of most hosts).
 */
final class HostAccounts {
    private final Path passwd;
    private final Path group;

    HostAccounts(Path passwd, Path group) {
        this.passwd = passwd;
        this.group = group;
    }

    static HostAccounts ofThisHost() {
        return new HostAccounts(Path.of("/etc/passwd"), Path.of("/etc/group"));
    }

    /** Why {@code uid} cannot be the sandboxes' (an account or a group of the host has it), or empty. */
    Optional<String> conflictWith(int uid) {
        Optional<String> account = nameWithId(passwd, uid);
        if (account.isPresent()) {
            return Optional.of("agentbus.sandbox.docker-uid " + uid + " is the uid of the host account '"
                    + account.get() + "' (" + passwd + "); choose one no account of the host has");
        }
        return nameWithId(group, uid).map(name -> "agentbus.sandbox.docker-uid " + uid + " is the gid of the host "
                + "group '" + name + "' (" + group + "), which the sandboxes' files would belong to; choose a uid "
                + "no account or group of the host has");
    }

    /** The name on the line of {@code file} whose third field is {@code id}. A file that cannot be read has none. */
    private static Optional<String> nameWithId(Path file, int id) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            return Optional.empty();
        }
        String wanted = Integer.toString(id);
        return lines.stream().map(line -> line.split(":", -1)).filter(f -> f.length > 2 && f[2].equals(wanted))
                .map(f -> f[0]).findFirst();
    }
}
