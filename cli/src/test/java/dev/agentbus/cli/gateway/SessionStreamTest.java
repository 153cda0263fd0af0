package dev.agentbus.cli.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentbus.cli.Events;
import dev.agentbus.cli.FakeGateway;
import dev.agentbus.cli.FakeGateway.SseScript;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.TurnOutcome;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The follower's resilience: silence, a vanished gateway, and answers that are not worth retrying. */
class SessionStreamTest {
    private static final String EVENTS = "/api/v1/sessions/s1/events";

    FakeGateway gateway;

    @BeforeEach
    void setUp() throws Exception {
        gateway = new FakeGateway();
    }

    @AfterEach
    void tearDown() {
        gateway.close();
    }

    /** Collects seqs and stops at the given one. */
    private static SessionStream.Listener until(long lastSeq, List<Long> seen) {
        return new SessionStream.Listener() {
            @Override
            public Integer onEvent(JsonNode envelope) {
                long seq = envelope.get("seq").asLong();
                seen.add(seq);
                return seq == lastSeq ? 0 : null;
            }
        };
    }

    @Test
    void a_silent_connection_is_dropped_by_the_watchdog_and_resumed() {
        List<EventEnvelope> turn = Events.turn(TurnOutcome.COMPLETED, "ok", null);
        // The first connection goes quiet after seq 2 without closing (a half-open TCP connection looks like this).
        gateway.sse(EVENTS, SseScript.thenHold(Events.sse(turn, 1, 2)), SseScript.thenHold(Events.sse(turn, 3, 10)));
        GatewayClient client = new GatewayClient(gateway.url(), null);
        SessionStream stream = new SessionStream(client, "s1", 0, Duration.ofMillis(300), Duration.ofMillis(10), 3);

        List<Long> seen = new CopyOnWriteArrayList<>();
        assertThat(stream.follow(until(10, seen))).isZero();

        assertThat(seen).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L);
        assertThat(gateway.requests("GET", EVENTS).get(1).header("Last-Event-ID")).isEqualTo("2");
    }

    @Test
    void pings_keep_a_connection_alive() throws Exception {
        List<EventEnvelope> turn = Events.turn(TurnOutcome.COMPLETED, "ok", null);
        String[] chunks = new String[12];
        chunks[0] = FakeGateway.event(turn.get(0));
        for (int i = 1; i < 11; i++) {
            chunks[i] = FakeGateway.ping();
        }
        chunks[11] = FakeGateway.event(turn.get(1));
        gateway.sse(EVENTS, SseScript.thenHold(chunks));
        SessionStream stream = new SessionStream(new GatewayClient(gateway.url(), null), "s1", 0,
                Duration.ofSeconds(5), Duration.ofMillis(10), 3);

        List<Long> seen = new CopyOnWriteArrayList<>();
        assertThat(stream.follow(until(2, seen))).isZero();
        assertThat(gateway.requests("GET", EVENTS)).hasSize(1);
    }

    @Test
    void it_gives_up_when_the_gateway_stays_away() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        SessionStream stream = new SessionStream(new GatewayClient("http://127.0.0.1:" + port, null), "s1", 0,
                Duration.ofSeconds(5), Duration.ofMillis(5), 2);

        assertThatThrownBy(() -> stream.follow(until(1, new CopyOnWriteArrayList<>())))
                .isInstanceOf(GatewayException.class)
                .hasMessageContaining("cannot reach the gateway at http://127.0.0.1:" + port);
    }

    @Test
    void a_404_is_not_retried() {
        // no stream route: the fake answers 404
        SessionStream stream = new SessionStream(new GatewayClient(gateway.url(), null), "s1", 0,
                Duration.ofSeconds(5), Duration.ofMillis(5), 5);

        assertThatThrownBy(() -> stream.follow(until(1, new CopyOnWriteArrayList<>())))
                .isInstanceOf(GatewayException.class).hasMessage("no session s1");
        assertThat(gateway.requests("GET", EVENTS)).hasSize(1);
    }

    @Test
    void replaying_old_events_and_closing_is_not_progress() {
        List<EventEnvelope> turn = Events.turn(TurnOutcome.COMPLETED, "ok", null);
        String[] replay = Events.sse(turn, 1, 3); // seq 1..3 plus a delta and a ping, again and again
        gateway.sse(EVENTS, SseScript.thenClose(replay), SseScript.thenClose(replay), SseScript.thenClose(replay),
                SseScript.thenClose(replay), SseScript.thenClose(replay));
        SessionStream stream = new SessionStream(new GatewayClient(gateway.url(), null), "s1", 0,
                Duration.ofSeconds(5), Duration.ofMillis(5), 2);

        List<Long> seen = new CopyOnWriteArrayList<>();
        assertThatThrownBy(() -> stream.follow(until(4, seen)))
                .isInstanceOf(GatewayException.class).hasMessageContaining("keeps closing");
        assertThat(seen).containsExactly(1L, 2L, 3L);
        assertThat(gateway.requests("GET", EVENTS)).hasSize(3);
    }

    @Test
    void a_stream_that_keeps_closing_empty_is_given_up_on() {
        gateway.sse(EVENTS, SseScript.thenClose(), SseScript.thenClose(), SseScript.thenClose(), SseScript.thenClose());
        SessionStream stream = new SessionStream(new GatewayClient(gateway.url(), null), "s1", 0,
                Duration.ofSeconds(5), Duration.ofMillis(5), 2);

        assertThatThrownBy(() -> stream.follow(until(1, new CopyOnWriteArrayList<>())))
                .isInstanceOf(GatewayException.class).hasMessageContaining("keeps closing");
        assertThat(gateway.requests("GET", EVENTS)).hasSize(3);
    }
}
