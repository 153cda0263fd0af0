package dev.agentbus.modelclient;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** When a failed attempt is tried again, and after how long: given the failure, when asked, then the policy's word. */
class RetryPolicyTest {

    @ParameterizedTest
    @ValueSource(ints = {408, 409, 429, 500, 502, 503, 504})
    void a_busy_or_failing_server_is_asked_again(int status) {
        assertThat(RetryPolicy.retryable(status)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(ints = {400, 401, 403, 404, 413, 422})
    void a_request_the_server_refuses_is_not_asked_again(int status) {
        assertThat(RetryPolicy.retryable(status)).isFalse();
    }

    @Test
    void the_wait_doubles_with_each_attempt_with_up_to_a_quarter_less_for_jitter() {
        assertThat(RetryPolicy.backoff(0, null)).isBetween(Duration.ofMillis(375), Duration.ofMillis(500));
        assertThat(RetryPolicy.backoff(1, null)).isBetween(Duration.ofMillis(750), Duration.ofMillis(1000));
        assertThat(RetryPolicy.backoff(2, null)).isBetween(Duration.ofMillis(1500), Duration.ofMillis(2000));
    }

    @Test
    void the_wait_never_exceeds_eight_seconds_however_many_attempts_failed() {
        assertThat(RetryPolicy.backoff(5, null)).isBetween(Duration.ofMillis(6000), Duration.ofSeconds(8));
        assertThat(RetryPolicy.backoff(40, null)).isBetween(Duration.ofMillis(6000), Duration.ofSeconds(8));
    }

    @Test
    void a_retry_after_in_seconds_is_waited_as_the_server_asks() {
        assertThat(RetryPolicy.backoff(0, " 3 ")).isEqualTo(Duration.ofSeconds(3));
        assertThat(RetryPolicy.backoff(4, "60")).isEqualTo(Duration.ofMinutes(1));
    }

    @Test
    void a_retry_after_over_a_minute_or_as_a_date_gets_the_usual_wait() {
        assertThat(RetryPolicy.backoff(0, "61")).isBetween(Duration.ofMillis(375), Duration.ofMillis(500));
        assertThat(RetryPolicy.backoff(0, "-1")).isBetween(Duration.ofMillis(375), Duration.ofMillis(500));
        assertThat(RetryPolicy.backoff(0, "Wed, 21 Oct 2026 07:28:00 GMT"))
                .isBetween(Duration.ofMillis(375), Duration.ofMillis(500));
    }
}
