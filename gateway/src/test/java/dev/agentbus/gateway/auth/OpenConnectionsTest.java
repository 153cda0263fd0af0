package dev.agentbus.gateway.auth;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The registry of open connections: what closes when a user's credentials change, and what stays. */
class OpenConnectionsTest {
    private static Caller key(String user, String keyId) {
        return new Caller(user, user, Role.USER, Caller.Via.API_KEY, keyId, null, false);
    }

    @Test
    void only_the_connections_whose_credential_is_gone_are_closed() {
        OpenConnections open = new OpenConnections();
        List<String> closed = new ArrayList<>();
        open.register(key("ada", "k1"), () -> closed.add("ada/k1"));
        open.register(key("ada", "k2"), () -> closed.add("ada/k2"));
        open.register(key("bob", "k1"), () -> closed.add("bob/k1"));
        Set<String> revoked = Set.of("k1");

        open.closeRevoked("ada", c -> !revoked.contains(c.credentialId()));

        assertThat(closed).containsExactly("ada/k1");
    }

    @Test
    void a_connection_that_ended_by_itself_is_forgotten_and_a_failing_check_keeps_it_open() {
        OpenConnections open = new OpenConnections();
        List<String> closed = new ArrayList<>();
        Runnable forget = open.register(key("ada", "k1"), () -> closed.add("k1"));
        open.register(key("ada", "k2"), () -> closed.add("k2"));
        forget.run();
        assertThat(open.count()).isEqualTo(1);

        open.closeAllRevoked(c -> {
            throw new IllegalStateException("the database is away");
        });
        assertThat(closed).isEmpty();

        open.closeAllRevoked(c -> false);
        assertThat(closed).containsExactly("k2");
    }
}
