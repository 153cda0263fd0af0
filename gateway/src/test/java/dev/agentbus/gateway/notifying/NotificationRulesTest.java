package dev.agentbus.gateway.notifying;

import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.Urgency;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.tools.Risk;
import dev.agentbus.eventbus.outgoing.OutgoingPolicy;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Which events notify a session's owner, with what text, by the owner's choices. */
class NotificationRulesTest {
    private static final Instant NOW = Instant.parse("2026-11-25T12:00:00Z");
    private static final Set<NotificationKind> ALL = EnumSet.allOf(NotificationKind.class);

    private static EventEnvelope event(SessionEvent e) {
        return new EventEnvelope("ev-1", "s-1", 7, NOW.minusSeconds(5), "in", "alice", e);
    }

    private static Optional<Notification> rule(SessionEvent e, Set<NotificationKind> on) {
        return NotificationRules.of(event(e), "Report", on, NOW);
    }

    @Test
    void a_turn_that_ends_notifies_the_owner_with_its_outcome_and_answer() {
        Notification n = rule(new SessionEvent.TurnEnded(TurnOutcome.COMPLETED, "All done.", null), ALL).orElseThrow();

        assertThat(n.userId()).isEqualTo("alice");
        assertThat(n.kind()).isEqualTo(NotificationKind.TURN_ENDED);
        assertThat(n.title()).isEqualTo("Turn completed in “Report”");
        assertThat(n.body()).isEqualTo("All done.");
        assertThat(n.eventId()).isEqualTo("ev-1");
        assertThat(n.sessionId()).isEqualTo("s-1");
        assertThat(n.seq()).isEqualTo(7);
    }

    @Test
    void a_turn_stopped_by_a_guard_says_why() {
        Notification n = rule(new SessionEvent.TurnEnded(TurnOutcome.LOOP_DETECTED, null, "same call 3 times"), ALL)
                .orElseThrow();

        assertThat(n.title()).isEqualTo("Turn loop detected in “Report”");
        assertThat(n.body()).isEqualTo("same call 3 times");
    }

    @Test
    void a_pending_approval_names_the_tool_its_risk_and_expiry() {
        Notification n = rule(new SessionEvent.ApprovalRequested("c1", "shell", "{\"command\":\"rm x\"}", Risk.HIGH,
                "normal mode", NOW.plusSeconds(60)), ALL).orElseThrow();

        assertThat(n.kind()).isEqualTo(NotificationKind.APPROVAL_PENDING);
        assertThat(n.body()).contains("shell (high risk)").contains("rm x").contains("expires at");
    }

    @Test
    void a_wait_that_fires_notifies_but_one_a_person_ended_does_not() {
        assertThat(rule(new SessionEvent.WaitEnded("w1", false), ALL)).get()
                .extracting(Notification::kind).isEqualTo(NotificationKind.WAIT_FIRED);
        assertThat(rule(new SessionEvent.WaitEnded("w1", true), ALL)).isEmpty();
    }

    @Test
    void a_posted_notification_reaches_the_owners_queue() {
        assertThat(rule(new SessionEvent.NotificationPosted("Report ready", "alice"), ALL)).get()
                .satisfies(n -> {
                    assertThat(n.kind()).isEqualTo(NotificationKind.MESSAGE);
                    assertThat(n.body()).isEqualTo("Report ready");
                });
    }

    @Test
    void the_agents_notification_says_it_came_from_the_agent_and_an_urgent_one_says_so() {
        assertThat(rule(new SessionEvent.NotificationPosted("Build is green", null, Urgency.NORMAL, "c1"), ALL)).get()
                .satisfies(n -> {
                    assertThat(n.kind()).isEqualTo(NotificationKind.MESSAGE);
                    assertThat(n.title()).startsWith("Notification from the agent in ");
                    assertThat(n.body()).isEqualTo("Build is green");
                });
        assertThat(rule(new SessionEvent.NotificationPosted("Disk full", null, Urgency.HIGH, "c2"), ALL)).get()
                .extracting(Notification::title).asString().startsWith("Urgent: notification from the agent in ");
    }

    @Test
    void a_kind_the_user_turned_off_notifies_nobody() {
        assertThat(rule(new SessionEvent.TurnEnded(TurnOutcome.COMPLETED, "x", null),
                EnumSet.of(NotificationKind.APPROVAL_PENDING))).isEmpty();
    }

    @Test
    void by_default_turn_ends_approvals_and_messages_notify_and_waits_do_not() {
        assertThat(NotificationKind.DEFAULTS).containsExactlyInAnyOrder(NotificationKind.TURN_ENDED,
                NotificationKind.APPROVAL_PENDING, NotificationKind.MESSAGE);
        assertThat(rule(new SessionEvent.WaitEnded("w1", false), NotificationKind.DEFAULTS)).isEmpty();
    }

    @Test
    void other_events_notify_nobody() {
        assertThat(rule(new SessionEvent.UserMessagePosted("hi"), ALL)).isEmpty();
        assertThat(rule(new SessionEvent.SessionCreated("t"), ALL)).isEmpty();
    }

    @Test
    void an_event_older_than_a_day_notifies_nobody_so_a_new_database_does_not_flood_people() {
        EventEnvelope old = new EventEnvelope("ev-1", "s-1", 7, NOW.minus(Duration.ofDays(2)), "in", "alice",
                new SessionEvent.TurnEnded(TurnOutcome.COMPLETED, "x", null));

        assertThat(NotificationRules.of(old, "t", ALL, NOW)).isEmpty();
    }

    @Test
    void a_long_answer_is_cut_and_a_session_without_a_title_is_named_by_its_id() {
        Notification n = NotificationRules.of(event(new SessionEvent.TurnEnded(TurnOutcome.COMPLETED,
                "a".repeat(2000), null)), null, ALL, NOW).orElseThrow();

        assertThat(n.body()).hasSize(NotificationRules.MAX_BODY_CHARS).endsWith("…");
        assertThat(n.title()).isEqualTo("Turn completed in session s-1");
    }

    @Test
    void kinds_are_stored_as_a_list_and_unknown_names_are_dropped_when_read() {
        assertThat(NotificationTables.kinds(NotificationTables.csv(EnumSet.of(NotificationKind.TURN_ENDED,
                NotificationKind.MESSAGE)))).containsExactlyInAnyOrder(NotificationKind.TURN_ENDED,
                NotificationKind.MESSAGE);
        assertThat(NotificationTables.kinds("turn_ended, gone_kind")).containsExactly(NotificationKind.TURN_ENDED);
    }

    @Test
    void a_webhook_url_must_be_http_or_https_with_a_public_host() {
        OutgoingPolicy policy = OutgoingPolicy.DEFAULT;
        assertThat(WebhookUrl.check(" https://hooks.example.com/a?b=1 ", policy))
                .isEqualTo("https://hooks.example.com/a?b=1");
        assertThat(WebhookUrl.check("", policy)).isNull();
        for (String bad : new String[] {"ftp://x.example/", "file:///etc/passwd", "javascript:alert(1)",
                "http://", "not a url", "https://user:pw@x.example/", "http://127.0.0.1:9092/",
                "http://169.254.169.254/latest/meta-data/", "http://10.0.0.8/hook", "http://[::1]:8080/"}) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> WebhookUrl.check(bad, policy)).as(bad)
                    .isInstanceOf(dev.agentbus.gateway.errors.ApiException.class);
        }
    }
}
