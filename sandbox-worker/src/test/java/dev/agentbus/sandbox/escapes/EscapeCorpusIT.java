package dev.agentbus.sandbox.escapes;

import dev.agentbus.sandbox.sandboxing.BackendsUnderTest;
import dev.agentbus.sandbox.sandboxing.CommandResult;
import dev.agentbus.sandbox.sandboxing.Sandbox;
import dev.agentbus.sandbox.sandboxing.SandboxConfig;
import dev.agentbus.sandbox.sandboxing.SandboxSpec;
import dev.agentbus.sandbox.sandboxing.Sandboxes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The escape corpus: commands a hostile or confused model might run to get out of its sandbox, run against both
 * backends. Each attempt must fail (its check says what failing means), and afterwards the worker must still
 * start processes, another session's sandbox must still answer with its files intact, and the attacking session
 * must get a working sandbox again. docs/sandbox.md lists the attempts and what each proves.
 */
class EscapeCorpusIT {
    private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
    /** A file on the host that no sandbox may read. */
    private static final Path HOST_MARKER = Path.of("/tmp", "agentbus-escape-marker-" + RUN);
    private static final String HOST_SECRET = "HOST-SECRET-" + UUID.randomUUID();
    private static final String VICTIM_SECRET = "VICTIM-SECRET-" + UUID.randomUUID();
    /** Names of files the attempts try to create outside the workspace. */
    private static final String PLANTED = "agentbus-escape-planted-" + RUN;
    private static final long WORKER_PID = ProcessHandle.current().pid();
    private static final Duration SHORT = Duration.ofSeconds(15);

    private static Path root;
    private static final Map<String, Victim> VICTIMS = new ConcurrentHashMap<>();

    /** Another user's session whose files the attacker goes after. */
    private record Victim(SandboxSpec spec, Sandbox sandbox) {
    }

    /** What the check of an attempt gets to look at. */
    record Seen(CommandResult result, String backend, Path attackerWorkspace, Victim victim) {
        String output() {
            return result.output();
        }

        /**
         * The uid commands run as: bubblewrap's 1000 (mapped to the worker's uid); Docker's dedicated uid when the
         * worker is root, else the worker's own (the workspace's owner).
         */
        String sandboxUid() throws Exception {
            if (!backend.equals(BackendsUnderTest.DOCKER)) {
                return "1000";
            }
            int worker = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
            return Integer.toString(worker == 0 ? SandboxConfig.DEFAULT_DOCKER_UID : worker);
        }
    }

    @FunctionalInterface
    interface Check {
        void verify(Seen seen) throws Exception;
    }

    record Attempt(String name, String command, Duration timeout, Check check) {
        @Override
        public String toString() {
            return name;
        }
    }

    @BeforeAll
    static void plantHostSecrets() throws Exception {
        root = Files.createTempDirectory("agentbus-escapes");
        Files.writeString(HOST_MARKER, HOST_SECRET);
    }

    @AfterAll
    static void removeHostSecrets() throws Exception {
        Files.deleteIfExists(HOST_MARKER);
        for (String planted : List.of("/etc/", "/usr/", "/", "/tmp/")) {
            Files.deleteIfExists(Path.of(planted + PLANTED));
        }
    }

    static List<Attempt> corpus() {
        List<Attempt> corpus = new ArrayList<>();
        // --- reading host files
        corpus.add(new Attempt("read /etc/shadow", "cat /etc/shadow", SHORT, seen -> {
            assertThat(seen.result().exitCode()).isNotZero();
            assertThat(seen.output()).containsAnyOf("Permission denied", "No such file");
        }));
        corpus.add(new Attempt("read a host file in /tmp", "cat " + HOST_MARKER, SHORT,
                seen -> assertThat(seen.output()).doesNotContain(HOST_SECRET)));
        corpus.add(new Attempt("read a host file through /proc/1/root", "cat /proc/1/root" + HOST_MARKER
                + "; cat /proc/1/root/etc/shadow", SHORT, seen -> {
            assertThat(seen.output()).doesNotContain(HOST_SECRET).doesNotContain("root:$");
        }));
        corpus.add(new Attempt("search the whole file system for a host file", "find / -name '"
                + HOST_MARKER.getFileName() + "' 2>/dev/null; echo searched", Duration.ofSeconds(60),
                seen -> assertThat(seen.output()).isEqualTo("searched\n")));
        corpus.add(new Attempt("read the host's root and home directories", "ls -a /root /home 2>&1; ls /proc/1/root/"
                + "root 2>&1", SHORT, seen -> assertThat(seen.output()).doesNotContain(".bashrc", ".m2")));
        corpus.add(new Attempt("reach the Docker socket", "ls -l /var/run/docker.sock /run/docker.sock 2>&1; "
                + "python3 -c \"import socket; s=socket.socket(socket.AF_UNIX); s.connect('/var/run/docker.sock'); "
                + "print('CONNECTED')\" 2>&1", SHORT, seen -> assertThat(seen.output()).doesNotContain("CONNECTED")));
        corpus.add(new Attempt("read the worker's environment", "env; cat /proc/[0-9]*/environ 2>/dev/null | tr '\\0' "
                + "'\\n'", SHORT, seen -> {
            Set<String> allowed = Set.of("PATH", "HOME", "LANG", "TMPDIR", "PWD", "OLDPWD", "SHLVL", "_", "HOSTNAME",
                    "TERM");
            List<String> names = seen.output().lines().filter(line -> line.contains("="))
                    .map(line -> line.substring(0, line.indexOf('='))).toList();
            assertThat(names).isNotEmpty();
            for (String name : System.getenv().keySet()) {
                if (!allowed.contains(name)) {
                    assertThat(names).as("worker variable " + name).doesNotContain(name);
                }
            }
        }));
        corpus.add(new Attempt("read raw disks and kernel memory", "ls /dev; cat /dev/vda /dev/sda /dev/mem "
                + "/dev/kmem 2>&1 | head -c 300", SHORT, seen -> {
            assertThat(seen.output().lines().filter(l -> l.matches("(sd|vd|nvme|xvd)[a-z0-9]*|k?mem"))).isEmpty();
            assertThat(seen.output()).doesNotContain("\0");
        }));
        // --- writing outside the workspace
        corpus.add(new Attempt("write into /etc, /usr and /", "touch /etc/" + PLANTED + "; echo x > /usr/" + PLANTED
                + "; touch /" + PLANTED, SHORT, seen -> {
            assertThat(Path.of("/etc", PLANTED)).doesNotExist();
            assertThat(Path.of("/usr", PLANTED)).doesNotExist();
            assertThat(Path.of("/", PLANTED)).doesNotExist();
        }));
        corpus.add(new Attempt("write into the host's /tmp, directly and through /proc/1/root", "touch /tmp/"
                + PLANTED + " /proc/1/root/tmp/" + PLANTED + "-2", SHORT, seen -> {
            assertThat(Path.of("/tmp", PLANTED)).doesNotExist();
            assertThat(Path.of("/tmp", PLANTED + "-2")).doesNotExist();
        }));
        corpus.add(new Attempt("plant an ssh key for root", "mkdir -p /root/.ssh; echo 'ssh-ed25519 " + PLANTED
                + "' >> /root/.ssh/authorized_keys", SHORT, seen -> {
            Path keys = Path.of("/root/.ssh/authorized_keys");
            if (Files.exists(keys)) {
                assertThat(Files.readString(keys)).doesNotContain(PLANTED);
            }
        }));
        corpus.add(new Attempt("change kernel settings through /proc/sys and /sys", "echo pwned > "
                + "/proc/sys/kernel/hostname; echo 1 > /proc/sys/vm/drop_caches; echo b > /proc/sysrq-trigger; "
                + "echo pwned > /sys/kernel/uevent_helper; hostname pwned", SHORT,
                seen -> assertThat(Files.readString(Path.of("/proc/sys/kernel/hostname")).strip())
                        .isNotEqualTo("pwned")));
        // --- other tenants
        corpus.add(new Attempt("read another session's workspace by its host path", "cat @VICTIM@/secret.txt 2>&1; "
                + "ls @VICTIM@ 2>&1", SHORT, seen -> assertThat(seen.output()).doesNotContain(VICTIM_SECRET)));
        corpus.add(new Attempt("read another session's workspace through ..", "cat /workspace/../*/secret.txt "
                + "/workspace/../../*/*/secret.txt 2>&1; ls -R /workspace/.. 2>&1 | head -50", SHORT,
                seen -> assertThat(seen.output()).doesNotContain(VICTIM_SECRET)));
        corpus.add(new Attempt("write into another session's workspace", "echo pwned > @VICTIM@/secret.txt; "
                + "echo pwned > /workspace/../@VICTIM_NAME@/secret.txt", SHORT,
                seen -> assertThat(seen.victim().spec().workspace().resolve("secret.txt")).hasContent(VICTIM_SECRET)));
        corpus.add(new Attempt("symlink to another session's workspace", "ln -s @VICTIM@ victim; cat victim/secret.txt "
                + "2>&1; ln -s / hostroot; cat hostroot" + HOST_MARKER + " 2>&1", SHORT, seen -> {
            assertThat(seen.output()).doesNotContain(VICTIM_SECRET).doesNotContain(HOST_SECRET);
        }));
        corpus.add(new Attempt("symlink to /proc/1/root", "ln -s /proc/1/root pidroot; cat pidroot" + HOST_MARKER
                + " 2>&1; ls pidroot/", SHORT, seen -> assertThat(seen.output()).doesNotContain(HOST_SECRET)));
        // --- limits
        corpus.add(new Attempt("fork bomb", "b() { b | b & }; b; sleep 30", Duration.ofSeconds(5),
                seen -> assertThat(seen.result().timedOut() || seen.result().exitCode() != 0).isTrue()));
        // Each process started is noted in the workspace; dash gives up (and exits) when a fork fails.
        corpus.add(new Attempt("more processes than the pids limit", "i=0; while [ $i -lt 300 ]; do sleep 60 & "
                + "echo $! >> started; i=$((i+1)); done; echo all-started", Duration.ofSeconds(30), seen -> {
            assertThat(seen.output()).doesNotContain("all-started");
            assertThat(Files.readAllLines(seen.attackerWorkspace().resolve("started"))).hasSizeLessThan(128);
        }));
        corpus.add(new Attempt("memory bomb", "python3 -c \"\nimport sys\nheld = []\nwhile len(held) < 64:\n"
                + "    held.append(bytearray(32 * 1024 * 1024))\n    print(len(held) * 32, flush=True)\n\" 2>&1 | "
                + "tail -1", Duration.ofSeconds(60), seen -> {
            String last = seen.output().strip().lines().reduce((a, b) -> b).orElse("0");
            // It never got more than the 512 MiB limit (the last line is the MiB it held, or its error).
            if (last.matches("\\d+")) {
                assertThat(Integer.parseInt(last)).isLessThanOrEqualTo(512);
            }
        }));
        corpus.add(new Attempt("fill /tmp (a tmpfs) past the memory limit", "head -c 1500m /dev/zero > /tmp/fill; "
                + "wc -c < /tmp/fill", Duration.ofSeconds(60), seen -> {
            String last = seen.output().strip().lines().reduce((a, b) -> b).orElse("0");
            if (last.matches("\\d+")) {
                assertThat(Long.parseLong(last)).isLessThan(1500L * 1024 * 1024);
            }
        }));
        corpus.add(new Attempt("a command that outlives its time-out", "setsid sleep 3001 & nohup sleep 3002 "
                + ">/dev/null 2>&1 & (trap '' HUP TERM INT; exec sleep 3003) & sleep 3004", Duration.ofSeconds(1),
                seen -> {
                    assertThat(seen.result().timedOut()).isTrue();
                    // killing is asynchronous: wait (bounded) until none of them is left on the host
                    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
                    while (System.nanoTime() < deadline && ProcessHandle.allProcesses()
                            .anyMatch(p -> p.info().commandLine().orElse("").matches(".*sleep 300[1-4].*"))) {
                        Thread.sleep(50);
                    }
                    assertThat(ProcessHandle.allProcesses().map(p -> p.info().commandLine().orElse(""))
                            .filter(cmd -> cmd.matches(".*sleep 300[1-4].*"))).isEmpty();
                }));
        // --- network
        corpus.add(new Attempt("connect out by IP address", "python3 -c \"import socket; "
                + "socket.create_connection(('1.1.1.1', 80), 3); print('CONNECTED')\" 2>&1; python3 -c \"import "
                + "socket; socket.create_connection(('172.17.0.1', 2375), 3); print('CONNECTED')\" 2>&1", SHORT,
                seen -> assertThat(seen.output()).doesNotContain("CONNECTED")));
        corpus.add(new Attempt("resolve a name", "python3 -c \"import socket; print('RESOLVED', "
                + "socket.gethostbyname('deb.debian.org'))\" 2>&1", SHORT,
                seen -> assertThat(seen.output()).doesNotContain("RESOLVED")));
        corpus.add(new Attempt("find a network interface", "cat /proc/net/dev", SHORT, seen ->
                assertThat(seen.output().lines().skip(2).map(l -> l.trim().split(":")[0])).containsOnly("lo")));
        // --- privileges
        corpus.add(new Attempt("mount a file system", "mkdir -p m; mount -t tmpfs none m 2>&1; mount --bind /workspace "
                + "/usr 2>&1; grep -c ' /workspace/m ' /proc/mounts", SHORT,
                seen -> assertThat(seen.output().strip()).endsWith("0")));
        corpus.add(new Attempt("unshare a user namespace to become root", "unshare -r id -u 2>&1; unshare -U -r "
                + "sh -c 'mount -t tmpfs none /tmp && echo MOUNTED' 2>&1", SHORT, seen -> {
            assertThat(seen.output().lines()).doesNotContain("0");
            assertThat(seen.output()).doesNotContain("MOUNTED");
        }));
        corpus.add(new Attempt("unshare mount and network namespaces", "unshare -m -n true 2>&1 && echo UNSHARED",
                SHORT, seen -> assertThat(seen.output()).doesNotContain("UNSHARED")));
        corpus.add(new Attempt("ptrace the worker", "python3 -c \"import ctypes; libc = ctypes.CDLL(None); "
                + "print('ATTACHED' if libc.ptrace(16, " + WORKER_PID + ", 0, 0) == 0 else 'refused')\" 2>&1",
                SHORT, seen -> assertThat(seen.output()).doesNotContain("ATTACHED")));
        corpus.add(new Attempt("kill every process it can see, the worker's included", "kill -9 " + WORKER_PID
                + " 2>&1; kill -9 -1; echo unreachable", SHORT,
                seen -> assertThat(ProcessHandle.current().isAlive()).isTrue()));
        corpus.add(new Attempt("use a setuid program to become root", "su root -c 'echo ROOTED' </dev/null 2>&1; "
                + "for p in $(find / -xdev -perm -4000 -type f 2>/dev/null); do \"$p\" --help </dev/null >/dev/null "
                + "2>&1; done; id -u", Duration.ofSeconds(60), seen -> {
            assertThat(seen.output()).doesNotContain("ROOTED");
            assertThat(seen.output().strip()).endsWith(seen.sandboxUid());
        }));
        corpus.add(new Attempt("make a setuid shell in the workspace", "cp /bin/sh rootsh && chmod 4755 rootsh && "
                + "./rootsh -c 'id -u'", SHORT, seen -> {
            assertThat(seen.output().strip()).isEqualTo(seen.sandboxUid());
            Path shell = seen.attackerWorkspace().resolve("rootsh");
            int owner = (Integer) Files.getAttribute(shell, "unix:uid");
            if (owner == 0) {
                // Root's file on the host: nobody else may reach it (see BubblewrapHost).
                Set<PosixFilePermission> parent = Files.getPosixFilePermissions(seen.attackerWorkspace()
                        .getParent());
                assertThat(parent).noneMatch(p -> p.name().startsWith("GROUP") || p.name().startsWith("OTHERS"));
            }
        }));
        corpus.add(new Attempt("gain capabilities", "grep -E '^(CapEff|CapPrm|CapBnd|NoNewPrivs)' /proc/self/status",
                SHORT, seen -> assertThat(seen.output()).contains("CapEff:\t0000000000000000",
                "CapPrm:\t0000000000000000", "NoNewPrivs:\t1")));
        corpus.add(new Attempt("chroot out", "chroot / true 2>&1 && echo CHROOTED", SHORT,
                seen -> assertThat(seen.output()).doesNotContain("CHROOTED")));
        corpus.add(new Attempt("load a kernel module", "insmod /nonexistent.ko 2>&1; modprobe dummy 2>&1; "
                + "grep -c dummy /proc/modules", SHORT, seen -> assertThat(seen.output()).doesNotContain("\n1\n")));
        return corpus;
    }

    static Stream<Arguments> attempts() {
        return Stream.of(BackendsUnderTest.BUBBLEWRAP, BackendsUnderTest.DOCKER)
                .flatMap(backend -> corpus().stream().map(attempt -> Arguments.of(backend, attempt)));
    }

    private static Victim victim(String backend, Sandboxes sandboxes) {
        return VICTIMS.computeIfAbsent(backend, b -> {
            try {
                Path workspace = Files.createDirectories(root.resolve("victim-user").resolve("victim-" + b));
                Files.writeString(workspace.resolve("secret.txt"), VICTIM_SECRET);
                SandboxSpec spec = new SandboxSpec("victim-user", "victim-" + b, workspace, null);
                return new Victim(spec, sandboxes.acquire(spec));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("attempts")
    void the_attempt_fails_and_the_worker_and_other_sessions_keep_working(String backend, Attempt attempt)
            throws Exception {
        Sandboxes sandboxes = BackendsUnderTest.shared(backend);
        Victim victim = victim(backend, sandboxes);
        String session = "attacker-" + UUID.randomUUID().toString().substring(0, 8);
        Path workspace = Files.createDirectories(root.resolve("attacker-user").resolve(session));
        SandboxSpec spec = new SandboxSpec("attacker-user", session, workspace, null);
        String command = attempt.command().replace("@VICTIM@", victim.spec().workspace().toString())
                .replace("@VICTIM_NAME@", victim.spec().sessionId());

        CommandResult result = sandboxes.acquire(spec).shell(command, attempt.timeout(), null);

        attempt.check().verify(new Seen(result, backend, workspace, victim));
        // The worker can still start processes.
        assertThat(new ProcessBuilder("true").start().waitFor()).isZero();
        // Another tenant's sandbox still answers, with its files intact.
        CommandResult victimNow = victim.sandbox().shell("cat secret.txt", SHORT, null);
        assertThat(victimNow.output()).isEqualTo(VICTIM_SECRET);
        // The attacker's session gets a working sandbox again.
        CommandResult again = sandboxes.acquire(spec).shell("echo still-working", SHORT, null);
        assertThat(again.output()).isEqualTo("still-working\n");
        sandboxes.acquire(spec).close(); // containers cost memory: free this one now, not when reaped
    }
}
