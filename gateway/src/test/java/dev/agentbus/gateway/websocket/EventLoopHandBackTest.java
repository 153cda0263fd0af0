package dev.agentbus.gateway.websocket;

import io.netty.channel.DefaultEventLoop;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class EventLoopHandBackTest {
    private final DefaultEventLoop loop = new DefaultEventLoop();

    @AfterEach
    void stop() {
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }

    /** Lets the loop run what it has queued, twice, so a completion it would make early has been made. */
    private void letTheLoopRun() throws Exception {
        loop.submit(() -> { }).get(10, TimeUnit.SECONDS);
        loop.schedule(() -> { }, 1, TimeUnit.MILLISECONDS).get(10, TimeUnit.SECONDS);
    }

    @Test
    void a_value_handed_back_is_not_completed_before_something_waits_for_it() throws Exception {
        CompletableFuture<String> future = EventLoopHandBack.to(loop, "request", Duration.ofMinutes(1));

        letTheLoopRun();

        // Done already, a caller would go on in its own thread: the race this class exists to close.
        assertThat(future).isNotDone();
    }

    @Test
    void what_waits_for_the_value_runs_on_the_loop() throws Exception {
        CompletableFuture<String> future = EventLoopHandBack.to(loop, "request", Duration.ofMinutes(1));
        letTheLoopRun();

        CompletableFuture<Boolean> onLoop = future.thenApply(v -> loop.inEventLoop());

        assertThat(onLoop.get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(future.get()).isEqualTo("request");
    }

    @Test
    void on_the_loop_itself_the_value_is_there_at_once() throws Exception {
        String now = loop.submit(() -> EventLoopHandBack.to(loop, "request").getNow(null)).get(10, TimeUnit.SECONDS);

        assertThat(now).isEqualTo("request");
    }

    @Test
    void when_nothing_ever_waits_it_completes_after_the_grace_period_rather_than_never() {
        CompletableFuture<String> future = EventLoopHandBack.to(loop, "request", Duration.ofMillis(1));

        assertThat(future).succeedsWithin(Duration.ofSeconds(10)).isEqualTo("request");
    }
}
