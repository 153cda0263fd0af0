package dev.agentbus.systemtests;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.Json;
import dev.agentbus.testkit.Poll;
import dev.agentbus.testkit.model.ScriptedModelServer;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

import static dev.agentbus.systemtests.RaceTargets.SECRET_FILE;
import static dev.agentbus.systemtests.RaceTargets.VICTIM_FILE;

/**
 * The lanes of {@link SymlinkRaceIT}: which route or tool works on which path in which session. Every file route of
 * the gateway (docs/api.md: files, workspace, rewind) and every file tool of the agent (read, write, edit, ls, glob,
 * grep, mkdir, copy, delete) is a probe on {@code race} (swapped with a link to the gateway token) or on
 * {@code d/…} (its directory swapped with a link to a host directory): reads on a name that exists on both sides,
 * writes on a new name per attempt (so a file that lands outside names its probe). The user-only tools upload and
 * download are the file routes; checkpoints are taken after every change and restored by rewind.
 */
final class RaceLanes {
    static final List<String> NAMES = List.of("download", "read-text", "upload", "write-route", "list",
            "delete-route", "rewind", "tool-read", "tool-write", "tool-copy-delete");

    private static final String D_SECRET = "d/" + SECRET_FILE;
    private static final String D_VICTIM = "d/" + VICTIM_FILE;

    private RaceLanes() {
    }

    /** The lane in a few words, for a failure message about its outside directory. */
    static String describe(String lane) {
        return switch (lane) {
            case "download" -> "GET …/files/{path}";
            case "read-text" -> "GET …/workspace/file";
            case "upload" -> "PUT …/files/{path}";
            case "write-route" -> "PUT …/workspace/file";
            case "list" -> "GET …/workspace/list";
            case "delete-route" -> "DELETE …/workspace/file";
            case "rewind" -> "POST …/rewind";
            case "tool-read" -> "the agent's read, ls, glob, grep";
            case "tool-write" -> "the agent's write, edit, mkdir";
            case "tool-copy-delete" -> "the agent's copy, delete";
            default -> lane;
        };
    }

    /** @param rewindTo the checkpoint the rewind lane goes back to, again and again */
    static List<RouteLane> routeLanes(Map<String, String> sessions, String rewindTo) {
        String download = RouteLane.base(sessions.get("download"));
        String readText = RouteLane.base(sessions.get("read-text"));
        String upload = RouteLane.base(sessions.get("upload"));
        String writeRoute = RouteLane.base(sessions.get("write-route"));
        String list = RouteLane.base(sessions.get("list"));
        String deleteRoute = RouteLane.base(sessions.get("delete-route"));
        String rewind = RouteLane.base(sessions.get("rewind"));
        return List.of(
                lane(sessions, "download", List.of(
                        get("GET …/files/race", download + "/files/race"),
                        get("GET …/files/" + D_SECRET, download + "/files/" + D_SECRET))),
                lane(sessions, "read-text", List.of(
                        get("GET …/workspace/file?path=race", readText + "/workspace/file?path=race"),
                        get("GET …/workspace/file?path=" + D_SECRET, readText + "/workspace/file?path=" + D_SECRET))),
                lane(sessions, "upload", List.of(
                        upload("PUT …/files/d/up-N.txt", n -> upload + "/files/d/up-" + n + ".txt"),
                        upload("PUT …/files/race", n -> upload + "/files/race"))),
                lane(sessions, "write-route", List.of(
                        write("PUT …/workspace/file?path=d/w-N.txt",
                                n -> writeRoute + "/workspace/file?path=d/w-" + n + ".txt"),
                        write("PUT …/workspace/file?path=race", n -> writeRoute + "/workspace/file?path=race"))),
                lane(sessions, "list", List.of(get("GET …/workspace/list?path=d", list + "/workspace/list?path=d"))),
                lane(sessions, "delete-route", List.of(
                        delete("DELETE …/workspace/file?path=" + D_VICTIM,
                                deleteRoute + "/workspace/file?path=" + D_VICTIM),
                        delete("DELETE …/workspace/file?path=d&recursive=true",
                                deleteRoute + "/workspace/file?path=d&recursive=true"))),
                lane(sessions, "rewind", List.of(new RouteLane.Probe("POST …/rewind", (bob, n) ->
                        bob.request(rewind + "/rewind").header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString("{\"checkpoint\":\"" + rewindTo + "\"}"))
                                .build()))));
    }

    static List<ToolLane> toolLanes(Map<String, String> sessions, ScriptedModelServer model) {
        return List.of(
                new ToolLane("tool-read", sessions.get("tool-read"), model, List.of(
                        tool("read", "{\"path\":\"race\"}"),
                        tool("read", "{\"path\":\"" + D_SECRET + "\"}"),
                        tool("ls", "{\"path\":\"d\"}"),
                        tool("glob", "{\"pattern\":\"*\",\"path\":\"d\"}"),
                        tool("grep", "{\"pattern\":\"[0-9a-f]\",\"path\":\"race\"}"),
                        tool("grep", "{\"pattern\":\"[0-9a-f]\",\"path\":\"d\"}"))),
                new ToolLane("tool-write", sessions.get("tool-write"), model, List.of(
                        tool("write", "{\"path\":\"d/t-%1$d.txt\",\"content\":\"written by the write tool #%1$d\"}"),
                        tool("write", "{\"path\":\"race\",\"content\":\"written by the write tool #%1$d\"}"),
                        tool("edit", "{\"path\":\"" + D_SECRET + "\",\"old_text\":\"decoy\","
                                + "\"new_text\":\"decoy, edited by the edit tool #%1$d\"}"), // matches again
                        tool("mkdir", "{\"path\":\"d/m-%1$d\"}"))),
                new ToolLane("tool-copy-delete", sessions.get("tool-copy-delete"), model, List.of(
                        tool("copy", "{\"from\":\"race\",\"to\":\"c.txt\",\"overwrite\":true}"),
                        tool("copy", "{\"from\":\"" + D_SECRET + "\",\"to\":\"k.txt\",\"overwrite\":true}"),
                        tool("copy", "{\"from\":\"src.txt\",\"to\":\"d/c-%1$d.txt\"}"),
                        tool("delete", "{\"path\":\"" + D_VICTIM + "\"}"),
                        tool("delete", "{\"path\":\"d\",\"recursive\":true}"))));
    }

    /**
     * Puts a lane's files in place and starts its swapping loop in the sandbox, as bob; answers the checkpoint the
     * rewind lane goes back to (a workspace where {@code d} is a directory with the outside names), else null.
     */
    static String prepare(GatewayClient bob, String sessionId, String lane, String loopScript, String scriptName,
                          String backend) throws InterruptedException {
        String base = RouteLane.base(sessionId);
        expectOk(bob.send(putBytes(bob, base + "/files/" + scriptName, loopScript)), "upload the loop script");
        String checkpoint = null;
        if (lane.equals("rewind")) {
            for (String path : List.of(D_SECRET, D_VICTIM, "race")) {
                JsonNode written = expectOk(bob.send(putText(bob, base + "/workspace/file?path=" + path,
                        path.equals("race") ? "x\n" : "decoy\n")), "write " + path).json();
                checkpoint = written.path("checkpoint").asText();
            }
        }
        if (lane.equals("tool-copy-delete")) {
            expectOk(bob.send(putBytes(bob, base + "/files/src.txt", "a workspace file\n")), "upload src.txt");
        }
        GatewayClient.Response started = bob.post(base + "/workspace/commands", Json.mapper().createObjectNode()
                .put("command", "nice -n 19 perl " + scriptName + " >/dev/null 2>&1 &").put("timeoutSeconds", 60)
                .toString());
        JsonNode run = expectOk(started, "start the swapping loop").json();
        if (!run.path("ok").asBoolean()) {
            String why = run.path("error").asText() + " " + run.path("output").asText();
            if (backend.equals("docker") && !"true".equals(System.getenv("CI")) && why.contains("not available")) {
                Assumptions.abort("Docker backend not available here (and CI is not true): " + why);
            }
            Assertions.fail("the swapping loop of lane " + lane + " did not start: " + why);
        }
        // Sandboxed processes are visible from the host (the sandboxes hide the host from them, not the reverse).
        Poll.until("the swapping loop of lane " + lane + " to run", Duration.ofSeconds(60), () ->
                ProcessHandle.allProcesses().anyMatch(p -> p.info().commandLine().orElse("").contains(scriptName)));
        return checkpoint;
    }

    private static RouteLane lane(Map<String, String> sessions, String lane, List<RouteLane.Probe> probes) {
        return new RouteLane(lane, sessions.get(lane), probes);
    }

    private static ToolLane.Probe tool(String name, String arguments) {
        return new ToolLane.Probe(name, arguments);
    }

    private static RouteLane.Probe get(String name, String path) {
        return new RouteLane.Probe(name, (bob, n) -> bob.request(path).GET().build());
    }

    private static RouteLane.Probe delete(String name, String path) {
        return new RouteLane.Probe(name, (bob, n) -> bob.request(path).DELETE().build());
    }

    private static RouteLane.Probe upload(String name, IntFunction<String> path) {
        return new RouteLane.Probe(name, (bob, n) -> putBytes(bob, path.apply(n),
                "uploaded by " + name + " #" + n + "\n"));
    }

    private static RouteLane.Probe write(String name, IntFunction<String> path) {
        return new RouteLane.Probe(name, (bob, n) -> putText(bob, path.apply(n),
                "written by " + name + " #" + n + "\n"));
    }

    static HttpRequest putBytes(GatewayClient bob, String path, String content) {
        return bob.request(path).header("Content-Type", "application/octet-stream")
                .PUT(HttpRequest.BodyPublishers.ofByteArray(content.getBytes(StandardCharsets.UTF_8))).build();
    }

    static HttpRequest putText(GatewayClient bob, String path, String content) {
        return bob.request(path).header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(
                Json.mapper().createObjectNode().put("content", content).toString())).build();
    }

    private static GatewayClient.Response expectOk(GatewayClient.Response r, String what) {
        if (r.status() != 200) {
            throw new AssertionError(what + ": " + r.status() + " " + r.body());
        }
        return r;
    }
}
