package dev.agentbus.modelclient;

import dev.agentbus.testkit.model.ScriptedModelServer;
import dev.agentbus.testkit.model.ScriptedReply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How the orchestrator stops the model stream of a cancelled turn: it interrupts the thread reading it. The read
 * ends at once with an error (not after the stream's end), and the connection is dropped, so the server stops too.
 */
class StoppingAStreamTest {
    private ScriptedModelServer server;
    private ModelClient client;

    @BeforeEach
    void start() {
        server = ScriptedModelServer.start("local-model");
        client = new ModelClient(ModelSettings.of(server.baseUrl(), "local-model").withStream(true));
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    @Test
    void interrupting_the_reading_thread_ends_a_slow_stream_at_once_and_hangs_up_on_the_server() throws Exception {
        // 40 pieces a quarter of a second apart: ten seconds if read to the end.
        server.streamChunkSize(1).reply(ScriptedReply.text("x".repeat(40)).withChunkDelay(Duration.ofMillis(250)));
        CountDownLatch firstDelta = new CountDownLatch(1);
        AtomicReference<Thread> reader = new AtomicReference<>();
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            reader.set(Thread.currentThread());
            try {
                client.complete(List.of(new ChatMessage.User("hi")), List.of(), new DeltaListener() {
                    @Override
                    public void onContent(String text) {
                        firstDelta.countDown();
                    }
                });
                outcome.complete(null);
            } catch (Throwable t) {
                outcome.complete(t);
            }
        });
        assertThat(firstDelta.await(10, TimeUnit.SECONDS)).isTrue();

        long stoppedAt = System.nanoTime();
        reader.get().interrupt();

        Throwable thrown = outcome.get(3, TimeUnit.SECONDS);
        assertThat(thrown).as("the call fails instead of answering").isInstanceOf(ModelCallException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - stoppedAt)).isLessThan(Duration.ofSeconds(2));
        assertThat(server.awaitHangUps(1, Duration.ofSeconds(5))).as("the server saw the client go").isTrue();
    }
}
