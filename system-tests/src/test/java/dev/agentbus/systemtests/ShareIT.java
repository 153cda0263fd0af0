package dev.agentbus.systemtests;

import dev.agentbus.events.session.SessionEvent.TurnEnded;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Read-only share links and the Markdown export on the standalone stack: a link shows the conversation to anyone
 * who has it, without a login, until its owner revokes it; nobody else can make or revoke links for the session.
 */
class ShareIT extends OnStandaloneStack {

    @Test
    void a_link_shows_the_conversation_without_a_login_until_it_is_revoked() throws Exception {
        model.replyText("The answer is **42**.");
        String id = stack.gateway.createSession("deep thought");
        stack.gateway.postMessage(id, "what is the answer?");
        stack.gateway.awaitLog(id, e -> e.event() instanceof TurnEnded, Duration.ofSeconds(60));

        GatewayClient.Response created = stack.gateway.post("/api/v1/sessions/" + id + "/share-links", "");
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        String token = created.json().get("token").asText();
        assertThat(created.json().get("path").asText()).isEqualTo("/share.html#" + token);

        GatewayClient.Response shared = anonymous("/api/v1/shared/" + token);
        assertThat(shared.status()).as(shared.body()).isEqualTo(200);
        assertThat(shared.json().get("title").asText()).isEqualTo("deep thought");
        assertThat(shared.json().get("markdown").asText()).contains("what is the answer?")
                .contains("The answer is **42**.");

        String linkId = created.json().get("linkId").asText();
        GatewayClient.Response listed = stack.gateway.get("/api/v1/sessions/" + id + "/share-links");
        assertThat(listed.body()).contains(linkId).doesNotContain(token);

        GatewayClient bob = new GatewayClient(stack.stack.gatewayUrl(), TeamsIT.newUserKey("share-bob"));
        assertThat(bob.post("/api/v1/sessions/" + id + "/share-links", "").status()).isEqualTo(404);
        assertThat(bob.send(bob.request("/api/v1/sessions/" + id + "/share-links/" + linkId).DELETE().build())
                .status()).isEqualTo(404);
        assertThat(anonymous("/api/v1/shared/" + token).status()).as("bob could not revoke it").isEqualTo(200);

        GatewayClient.Response revoked = stack.gateway.send(stack.gateway.request(
                "/api/v1/sessions/" + id + "/share-links/" + linkId).DELETE().build());
        assertThat(revoked.status()).isEqualTo(204);
        GatewayClient.Response gone = anonymous("/api/v1/shared/" + token);
        assertThat(gone.status()).isEqualTo(404);
        assertThat(gone.json().get("error").asText()).isEqualTo("not_found");
        assertThat(anonymous("/api/v1/shared/sh_not-a-token").status()).isEqualTo(404);
    }

    @Test
    void a_session_exports_as_a_markdown_file() throws Exception {
        model.replyText("Plain and simple.");
        String id = stack.gateway.createSession("export me");
        stack.gateway.postMessage(id, "say something");
        stack.gateway.awaitLog(id, e -> e.event() instanceof TurnEnded, Duration.ofSeconds(60));

        GatewayClient.Response md = stack.gateway.get("/api/v1/sessions/" + id + "/export.md");

        assertThat(md.status()).isEqualTo(200);
        assertThat(md.headers().get("content-type").getFirst()).startsWith("text/markdown");
        assertThat(md.headers().get("content-disposition").getFirst()).contains("session-" + id + ".md");
        assertThat(md.body()).startsWith("# export me\n").contains("## You\n\nsay something")
                .contains("## Agent\n\nPlain and simple.");
    }

    private static GatewayClient.Response anonymous(String path) {
        return stack.gateway.send(HttpRequest.newBuilder(URI.create(stack.stack.gatewayUrl() + path)).GET().build());
    }
}
