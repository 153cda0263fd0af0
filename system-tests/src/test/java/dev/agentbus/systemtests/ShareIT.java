package dev.agentbus.systemtests;

import dev.agentbus.events.session.SessionEvent.TurnEnded;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Read-only share links and the Markdown export on the standalone stack: a link shows the conversation to anyone
 * who has it, without a login, until its owner revokes it; nobody else can make or revoke links for the session.
 * And a group member who writes to a shared session never gets the owner's memory into a model request.
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

    /**
     * Issue 28, failure 12 in the orchestrator: a group member with write access to the owner's session asks the
     * agent what it remembers about the owner. The scripted model server records every request: the one made for
     * the member's turn carries neither the owner's memory document nor its marker, while the owner's turns before
     * and after it do.
     */
    @Test
    void a_group_member_writing_to_a_shared_session_never_gets_the_owners_memory_into_a_model_request()
            throws Exception {
        String memory = "owner-memory-marker-" + UUID.randomUUID();
        String mark = "shared-memory-" + UUID.randomUUID();
        GatewayClient owner = new GatewayClient(stack.stack.gatewayUrl(), TeamsIT.newUserKey("mem-owner"));
        GatewayClient member = new GatewayClient(stack.stack.gatewayUrl(), TeamsIT.newUserKey("mem-member"));
        GatewayClient.Response put = owner.send(owner.request("/api/v1/memory")
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"content\":\"I am the owner. " + memory + "\"}")).build());
        assertThat(put.status()).as(put.body()).isEqualTo(200);
        model.conversation(mark).replyText("Hello, owner.").replyText("Hello, member.").replyText("Hello again.");
        String id = owner.createSession("shared with my memory");
        owner.postMessage(id, "first, from the owner " + mark);
        owner.awaitLog(id, e -> e.event() instanceof TurnEnded, Duration.ofSeconds(60));

        assertThat(stack.gateway.post("/api/v1/admin/groups", "{\"groupId\":\"mem-team\"}").status())
                .isEqualTo(201);
        for (GatewayClient person : List.of(owner, member)) {
            String userId = person.get("/api/v1/me").json().get("userId").asText();
            assertThat(stack.gateway.send(stack.gateway.request("/api/v1/admin/groups/mem-team/members/" + userId)
                    .PUT(HttpRequest.BodyPublishers.noBody()).build()).status()).isEqualTo(204);
        }
        GatewayClient.Response shared = owner.send(owner.request("/api/v1/sessions/" + id + "/shares/mem-team")
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"mode\":\"write\"}")).build());
        assertThat(shared.status()).as(shared.body()).isEqualTo(200);

        member.postMessage(id, "what do you remember about the owner of this session?");
        owner.awaitLog(id, e -> e.event() instanceof TurnEnded t && "Hello, member.".equals(t.answer()),
                Duration.ofSeconds(60));
        owner.postMessage(id, "and now for me again");
        owner.awaitLog(id, e -> e.event() instanceof TurnEnded t && "Hello again.".equals(t.answer()),
                Duration.ofSeconds(60));

        List<String> requests = model.requests().stream().map(Object::toString).filter(r -> r.contains(mark))
                .toList();
        assertThat(requests).hasSize(3);
        assertThat(requests.get(0)).as("the owner's turn").contains(memory);
        assertThat(requests.get(1)).as("the member's turn").contains("what do you remember about the owner")
                .doesNotContain(memory);
        assertThat(requests.get(2)).as("the owner's next turn").contains(memory);
    }

    private static GatewayClient.Response anonymous(String path) {
        return stack.gateway.send(HttpRequest.newBuilder(URI.create(stack.stack.gatewayUrl() + path)).GET().build());
    }
}
