package dev.agentbus.gateway.auth;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class RequestRateLimiterTest {
    static final Instant T0 = Instant.parse("2026-11-24T10:00:00Z");

    @Test
    void a_burst_of_a_minutes_worth_passes_then_the_next_request_waits_for_the_refill() {
        RequestRateLimiter limiter = new RequestRateLimiter(60);
        for (int i = 0; i < 60; i++) {
            assertThat(limiter.take("key-1", T0)).as("request " + i).isEmpty();
        }

        assertThat(limiter.take("key-1", T0)).hasValue(Duration.ofSeconds(1));
        assertThat(limiter.take("key-1", T0.plusSeconds(1))).as("one request refilled a second later").isEmpty();
    }

    @Test
    void each_credential_has_its_own_bucket() {
        RequestRateLimiter limiter = new RequestRateLimiter(1);
        assertThat(limiter.take("key-1", T0)).isEmpty();
        assertThat(limiter.take("key-1", T0)).isPresent();
        assertThat(limiter.take("key-2", T0)).isEmpty();
    }

    @Test
    void an_idle_bucket_refills_only_to_its_capacity() {
        RequestRateLimiter limiter = new RequestRateLimiter(2);
        limiter.take("key-1", T0);
        Instant muchLater = T0.plus(Duration.ofHours(1));
        assertThat(limiter.take("key-1", muchLater)).isEmpty();
        assertThat(limiter.take("key-1", muchLater)).isEmpty();
        assertThat(limiter.take("key-1", muchLater)).isPresent();
    }
}
