package dev.agentbus.events.state;

import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Given events, when one more event, then the folded state: the fold's test fixture, no infrastructure.
 *
 * <pre>{@code
 * given(created(), posted("hi"))
 *     .when(new ModelCallStarted("req-1", 1))
 *     .then(s -> assertThat(s.turn().pendingRequestId()).isEqualTo("req-1"));
 * }</pre>
 *
 * Envelopes are filled in like the single writer would: seq 1, 2, 3 … without gaps, one second apart, all for
 * {@link #SESSION} of {@link #USER}.
 */
final class FoldScenario {
    static final String SESSION = "ses-1";
    static final String USER = "usr-ada";
    static final Instant T0 = Instant.parse("2025-03-14T09:00:00Z");

    private final List<EventEnvelope> given = new ArrayList<>();
    private SessionState before;
    private EventEnvelope whenEnvelope;
    private SessionState after;

    private FoldScenario() {
    }

    static FoldScenario given(SessionEvent... events) {
        FoldScenario scenario = new FoldScenario();
        for (SessionEvent e : events) {
            scenario.given.add(envelope(scenario.given.size() + 1, e));
        }
        scenario.before = SessionFold.fold(SESSION, scenario.given);
        return scenario;
    }

    FoldScenario when(SessionEvent event) {
        if (whenEnvelope != null) {
            throw new IllegalStateException("one when per scenario; put earlier events in given(...)");
        }
        whenEnvelope = envelope(given.size() + 1, event);
        after = SessionFold.evolve(before, whenEnvelope);
        return this;
    }

    FoldScenario then(Consumer<SessionState> assertions) {
        assertions.accept(state());
        return this;
    }

    /** For assertions about what changed: receives the state before and after the when-event. */
    FoldScenario thenComparedTo(BiConsumer<SessionState, SessionState> beforeAndAfter) {
        requireWhen();
        beforeAndAfter.accept(before, after);
        return this;
    }

    SessionState state() {
        requireWhen();
        return after;
    }

    EventEnvelope whenEnvelope() {
        requireWhen();
        return whenEnvelope;
    }

    static EventEnvelope envelope(long seq, SessionEvent event) {
        return new EventEnvelope("evt-" + seq, SESSION, seq, time(seq), "inp-" + seq, USER, event);
    }

    static Instant time(long seq) {
        return T0.plusSeconds(seq);
    }

    private void requireWhen() {
        if (whenEnvelope == null) {
            throw new IllegalStateException("call when(...) before then(...)");
        }
    }
}
