package dev.agentbus.orchestrator.deciding;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class WaitRequestTest {
    private static final Instant NINE_UTC = Instant.parse("2026-11-23T09:00:00Z");

    @Nested
    class FromAnswer {
        @Test
        void finds_a_wait_line_at_the_end_of_a_multi_line_answer() {
            String answer = """
                    I started the build; it takes a while.
                    I will check the result tomorrow morning.
                    WAIT: 2026-11-23T09:00:00Z: check the nightly build""";

            assertThat(WaitRequest.fromAnswer(answer))
                    .contains(new WaitRequest(NINE_UTC, "check the nightly build"));
        }

        @Test
        void finds_a_wait_line_in_the_middle_of_an_answer() {
            String answer = "Build started.\nWAIT: 2026-11-23T09:00:00Z: check it\nThanks for waiting.";

            assertThat(WaitRequest.fromAnswer(answer)).contains(new WaitRequest(NINE_UTC, "check it"));
        }

        @Test
        void accepts_windows_line_endings_and_indentation() {
            String answer = "Build started.\r\n   WAIT: 2026-11-23T09:00:00Z: check it   \r\n";

            assertThat(WaitRequest.fromAnswer(answer)).contains(new WaitRequest(NINE_UTC, "check it"));
        }

        @Test
        void converts_a_time_with_an_offset_to_utc() {
            assertThat(WaitRequest.fromAnswer("WAIT: 2026-11-23T11:00:00+02:00: standup"))
                    .contains(new WaitRequest(NINE_UTC, "standup"));
        }

        @Test
        void takes_a_time_without_a_zone_as_utc() {
            assertThat(WaitRequest.fromAnswer("WAIT: 2026-11-23T09:00:00: standup"))
                    .contains(new WaitRequest(NINE_UTC, "standup"));
        }

        @Test
        void accepts_a_wait_line_without_a_reason() {
            assertThat(WaitRequest.fromAnswer("Done for now.\nWAIT: 2026-11-23T09:00:00Z"))
                    .contains(new WaitRequest(NINE_UTC, null));
            assertThat(WaitRequest.fromAnswer("WAIT: 2026-11-23T09:00:00Z:"))
                    .contains(new WaitRequest(NINE_UTC, null));
        }

        @Test
        void keeps_colons_inside_the_reason() {
            assertThat(WaitRequest.fromAnswer("WAIT: 2026-11-23T09:00:00Z: check: build and tests"))
                    .contains(new WaitRequest(NINE_UTC, "check: build and tests"));
        }

        @Test
        void ignores_a_wait_line_whose_time_does_not_parse() {
            assertThat(WaitRequest.fromAnswer("WAIT: tomorrow morning: check the build")).isEmpty();
            assertThat(WaitRequest.fromAnswer("WAIT: 2026-13-45T09:00:00Z: check the build")).isEmpty();
        }

        @Test
        void skips_an_unparseable_wait_line_and_uses_a_later_valid_one() {
            String answer = "WAIT: soon: first try\nWAIT: 2026-11-23T09:00:00Z: second try";

            assertThat(WaitRequest.fromAnswer(answer)).contains(new WaitRequest(NINE_UTC, "second try"));
        }

        @Test
        void ignores_lines_that_merely_mention_wait() {
            String answer = """
                    You asked whether I should WAIT: 2026-11-23T09:00:00Z: but I finished already.
                    I did not need to wait.
                    WAITING: 2026-11-23T09:00:00Z: nothing
                    The format is `WAIT: 2026-11-23T09:00:00Z: reason`.""";

            assertThat(WaitRequest.fromAnswer(answer)).isEmpty();
        }

        @Test
        void an_answer_without_a_wait_line_or_no_answer_at_all_asks_for_no_wait() {
            assertThat(WaitRequest.fromAnswer("All done: the tests pass.")).isEmpty();
            assertThat(WaitRequest.fromAnswer("")).isEmpty();
            assertThat(WaitRequest.fromAnswer(null)).isEmpty();
        }
    }

    @Nested
    class ParseTime {
        @Test
        void parses_utc_with_z() {
            assertThat(WaitRequest.parseTime("2026-11-23T09:00:00Z")).contains(NINE_UTC);
        }

        @Test
        void parses_an_offset_and_converts_it_to_the_same_instant() {
            assertThat(WaitRequest.parseTime("2026-11-23T04:00:00-05:00")).contains(NINE_UTC);
        }

        @Test
        void takes_a_local_time_as_utc() {
            assertThat(WaitRequest.parseTime("2026-11-23T09:00:00")).contains(NINE_UTC);
            assertThat(WaitRequest.parseTime("2026-11-23T09:00")).contains(NINE_UTC);
        }

        @Test
        void keeps_fractions_of_a_second() {
            assertThat(WaitRequest.parseTime("2026-11-23T09:00:00.250Z"))
                    .contains(NINE_UTC.plusMillis(250));
        }

        @ParameterizedTest
        @ValueSource(strings = {"", "tomorrow", "2026-11-23", "09:00", "2026-11-23 09:00:00", "1700000000",
                "2026-11-23T25:00:00Z"})
        void refuses_text_that_is_not_an_iso_date_time(String text) {
            assertThat(WaitRequest.parseTime(text)).isEqualTo(Optional.empty());
        }
    }
}
