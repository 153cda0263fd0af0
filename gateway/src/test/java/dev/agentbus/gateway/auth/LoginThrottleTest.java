package dev.agentbus.gateway.auth;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class LoginThrottleTest {
    static final Instant T0 = Instant.parse("2026-11-24T10:00:00Z");

    @Test
    void attempts_go_ahead_until_the_limit_of_failures_in_a_minute() {
        LoginThrottle throttle = new LoginThrottle(3);
        for (int i = 0; i < 2; i++) {
            throttle.failed("alice", "10.0.0.1", T0.plusSeconds(i));
        }
        assertThat(throttle.retryAfter("alice", "10.0.0.1", T0.plusSeconds(2))).isEmpty();

        throttle.failed("alice", "10.0.0.1", T0.plusSeconds(2));

        assertThat(throttle.retryAfter("alice", "10.0.0.1", T0.plusSeconds(3)))
                .as("until the oldest failure is a minute old").hasValue(Duration.ofSeconds(57));
    }

    @Test
    void the_username_counts_from_every_address_and_the_address_for_every_username() {
        LoginThrottle throttle = new LoginThrottle(2);
        throttle.failed("alice", "10.0.0.1", T0);
        throttle.failed("Alice ", "10.0.0.2", T0);

        assertThat(throttle.retryAfter("alice", "10.0.0.3", T0)).as("a botnet on one name").isPresent();

        throttle.failed("bob", "10.0.0.9", T0);
        throttle.failed("carol", "10.0.0.9", T0);
        assertThat(throttle.retryAfter("dave", "10.0.0.9", T0)).as("one address spraying names").isPresent();
        assertThat(throttle.retryAfter("dave", "10.0.0.8", T0)).isEmpty();
    }

    @Test
    void failures_older_than_a_minute_no_longer_count() {
        LoginThrottle throttle = new LoginThrottle(1);
        throttle.failed("alice", "10.0.0.1", T0);

        assertThat(throttle.retryAfter("alice", "10.0.0.1", T0.plusSeconds(59))).isPresent();
        assertThat(throttle.retryAfter("alice", "10.0.0.1", T0.plusSeconds(60))).isEmpty();
    }

    @Test
    void a_flood_of_distinct_names_does_not_grow_memory_without_bound() {
        LoginThrottle throttle = new LoginThrottle(5);
        for (int i = 0; i < 120_000; i++) {
            throttle.failed("user" + i, "10.0.0.1", T0);
        }
        assertThat(throttle.keys()).isLessThanOrEqualTo(100_001);
    }

    @Test
    void the_address_and_the_username_are_asked_apart_so_a_correct_password_from_a_busy_address_goes_through() {
        LoginThrottle throttle = new LoginThrottle(2);
        throttle.failed("bob", "10.0.0.9", T0);
        throttle.failed("carol", "10.0.0.9", T0);

        assertThat(throttle.forAddress("10.0.0.9", T0)).as("wrong passwords from there get 429").isPresent();
        assertThat(throttle.forUsername("dave", T0)).as("dave's own limit is untouched").isEmpty();

        throttle.failed("dave", "10.0.0.1", T0);
        throttle.failed("dave", "10.0.0.2", T0);
        assertThat(throttle.forUsername("dave", T0)).isPresent();
    }

    @Test
    void a_failure_without_an_address_counts_for_the_username_only() {
        LoginThrottle throttle = new LoginThrottle(1);
        throttle.failed("erin", null, T0);

        assertThat(throttle.forUsername("erin", T0)).isPresent();
        assertThat(throttle.forAddress("10.0.0.1", T0)).isEmpty();
        assertThat(throttle.forUsername("frank", T0)).isEmpty();
    }
}
