package dev.agentbus.systemtests;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.events.Json;
import dev.agentbus.testkit.model.ScriptedReply;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The OpenAI-compatible endpoint on the standalone stack: the wire shape over plain HTTP, streamed and not, a
 * conversation continued through OpenAI's {@code user} field, bad requests, and the real {@code openai} npm client
 * (which needs node and npm, and the npm registry, as CI has).
 */
class OpenAiEndpointIT extends OnStandaloneStack {
    static final String CHAT = "/v1/chat/completions";

    GatewayClient gw;

    @BeforeEach
    void client() {
        model.reset();
        gw = stack.gateway;
    }

    @Test
    void a_request_is_one_agent_turn_whose_tool_calls_show_as_reasoning() {
        model.replyToolCall("ls", "{}");
        model.replyText("The workspace is empty.");

        GatewayClient.Response r = gw.post(CHAT, """
                {"model":"agentbus-agent","messages":[{"role":"user","content":"what is in the workspace?"}]}""");

        assertThat(r.status()).as(r.body()).isEqualTo(200);
        JsonNode body = r.json();
        assertThat(body.get("object").asText()).isEqualTo("chat.completion");
        assertThat(body.get("id").asText()).startsWith("chatcmpl-");
        JsonNode choice = body.get("choices").get(0);
        assertThat(choice.get("message").get("role").asText()).isEqualTo("assistant");
        assertThat(choice.get("message").get("content").asText()).isEqualTo("The workspace is empty.");
        assertThat(choice.get("message").get("reasoning_content").asText()).contains("→ ls {}").contains("← ls ok");
        assertThat(choice.get("finish_reason").asText()).isEqualTo("stop");
        assertThat(body.get("usage").has("total_tokens")).isTrue();
        String session = r.headers().get("x-agentbus-session").getFirst();
        assertThat(gw.get("/api/v1/sessions/" + session).status()).isEqualTo(200);
    }

    @Test
    void a_streamed_turn_arrives_as_chunks_and_the_same_user_continues_the_same_session() throws Exception {
        model.reply(ScriptedReply.textInChunks("Hel", "lo ", "there."));
        model.replyText("Again.");

        GatewayClient.Response first = streamed("hi");
        GatewayClient.Response second = streamed("and again");

        List<JsonNode> chunks = dataOf(first.body());
        assertThat(first.headers().get("content-type").getFirst()).startsWith("text/event-stream");
        assertThat(first.body().strip()).endsWith("data: [DONE]");
        assertThat(chunks.getFirst().get("choices").get(0).get("delta").get("role").asText()).isEqualTo("assistant");
        StringBuilder content = new StringBuilder();
        String finish = null;
        for (JsonNode c : chunks) {
            assertThat(c.get("object").asText()).isEqualTo("chat.completion.chunk");
            for (JsonNode choice : c.get("choices")) {
                content.append(choice.get("delta").path("content").asText(""));
                if (!choice.get("finish_reason").isNull()) {
                    finish = choice.get("finish_reason").asText();
                }
            }
        }
        assertThat(content.toString()).isEqualTo("Hello there.");
        assertThat(finish).isEqualTo("stop");
        assertThat(chunks.getLast().get("choices")).isEmpty(); // the usage chunk asked for, last
        assertThat(chunks.getLast().get("usage").has("total_tokens")).isTrue();
        assertThat(second.headers().get("x-agentbus-session"))
                .isEqualTo(first.headers().get("x-agentbus-session"));
        assertThat(dataOf(second.body()).stream().map(c -> c.get("choices"))
                .filter(ch -> !ch.isEmpty()).map(ch -> ch.get(0).get("delta").path("content").asText(""))
                .reduce("", String::concat)).isEqualTo("Again.");
    }

    private GatewayClient.Response streamed(String text) {
        return gw.send(gw.request(CHAT).header("Content-Type", "application/json").timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofString("""
                        {"messages":[{"role":"user","content":"%s"}],"stream":true,
                         "stream_options":{"include_usage":true},"user":"conversation-1"}""".formatted(text)))
                .build());
    }

    private static List<JsonNode> dataOf(String sse) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (String line : sse.split("\n")) {
            if (line.startsWith("data:") && !line.substring(5).strip().equals("[DONE]")) {
                out.add(Json.mapper().readTree(line.substring(5).strip()));
            }
        }
        return out;
    }

    @Test
    void bad_requests_get_openais_error_shape_and_no_turn_starts() {
        GatewayClient.Response empty = gw.post(CHAT, "{\"messages\":[]}");
        GatewayClient.Response notJson = gw.post(CHAT, "{nope");
        GatewayClient.Response unknown = gw.send(gw.request(CHAT).header("Content-Type", "application/json")
                .header("X-Agentbus-Session", "no-such-session")
                .POST(HttpRequest.BodyPublishers.ofString("{\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}"))
                .build());
        GatewayClient.Response anonymous = new GatewayClient(stack.stack.gatewayUrl(), "wrong-token").post(CHAT,
                "{\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}");

        assertThat(empty.status()).isEqualTo(400);
        assertThat(empty.json().get("error").get("type").asText()).isEqualTo("invalid_request_error");
        assertThat(empty.json().get("error").get("message").asText()).contains("messages must be a non-empty array");
        assertThat(notJson.status()).isEqualTo(400);
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(anonymous.status()).isEqualTo(401);
        assertThat(model.requestCount()).isZero();
    }

    @Test
    void the_real_openai_npm_client_lists_the_model_and_completes_streamed_and_not(@TempDir Path dir)
            throws Exception {
        model.replyToolCall("ls", "{}");
        model.replyText("Nothing here yet.");
        model.reply(ScriptedReply.textInChunks("One, ", "two, ", "three."));
        for (String file : List.of("package.json", "check.mjs")) {
            try (InputStream in = OpenAiEndpointIT.class.getResourceAsStream("/openai-client/" + file)) {
                Files.copy(in, dir.resolve(file));
            }
        }
        run(dir, "npm", "install", "--no-audit", "--no-fund", "--loglevel=error");

        String out = run(dir, "node", "check.mjs", stack.stack.gatewayUrl() + "/v1", StandaloneStack.TOKEN);

        JsonNode got = Json.mapper().readTree(out.lines().reduce((a, b) -> b).orElseThrow());
        assertThat(got.get("models").get(0).asText()).isEqualTo("agentbus-agent");
        assertThat(got.get("whole").get("object").asText()).isEqualTo("chat.completion");
        assertThat(got.get("whole").get("content").asText()).isEqualTo("Nothing here yet.");
        assertThat(got.get("whole").get("reasoning").asText()).contains("→ ls");
        assertThat(got.get("whole").get("finish").asText()).isEqualTo("stop");
        assertThat(got.get("stream").get("content").asText()).isEqualTo("One, two, three.");
        assertThat(got.get("stream").get("finish").asText()).isEqualTo("stop");
        assertThat(got.get("stream").get("chunks").asInt()).isGreaterThan(3);
        assertThat(got.get("stream").get("usage").has("total_tokens")).isTrue();
        assertThat(got.get("refused").get("status").asInt()).isEqualTo(400);
        assertThat(got.get("refused").get("type").asText()).isEqualTo("invalid_request_error");
    }

    /** Runs a program in {@code dir}; its stdout, or a failure with both its streams. */
    private static String run(Path dir, String... command) throws Exception {
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile()).start();
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not finish in 5 minutes");
        }
        String stdout = Files.readString(out, StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new AssertionError(String.join(" ", command) + " exited " + p.exitValue() + ":\n" + stdout + "\n"
                    + Files.readString(err, StandardCharsets.UTF_8));
        }
        return stdout;
    }
}
