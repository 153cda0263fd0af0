package dev.agentbus.gateway.auth;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

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

    /**
     * Through the real gateway: its front door ({@link AuthenticationFilter}) must take every request from the
     * credential's bucket, so with one request a minute the second one gets 429 with {@code Retry-After}. The limiter
     * alone (above) cannot show that the filter uses it.
     */
    @Test
    void the_gateway_answers_429_with_retry_after_once_a_credential_has_used_its_minute(@TempDir Path dataDir)
            throws Exception {
        try (GatewayWithoutKafka gateway = new GatewayWithoutKafka(Map.of(
                "agentbus.data-dir", dataDir.toString(),
                "agentbus.gateway.token", "rate-test-token",
                "agentbus.auth.api-requests-per-minute", "1"))) {
            HttpResponse<String> first = gateway.get("/api/v1/me", "rate-test-token");
            assertThat(first.statusCode()).as(first.body()).isEqualTo(200);

            HttpResponse<String> second = gateway.get("/api/v1/me", "rate-test-token");

            assertThat(second.statusCode()).as(second.body()).isEqualTo(429);
            assertThat(second.headers().firstValue("Retry-After")).get().satisfies(
                    seconds -> assertThat(Long.parseLong(seconds)).isBetween(1L, 60L));
            assertThat(second.body()).contains("too many requests with this credential");
        }
    }
}
