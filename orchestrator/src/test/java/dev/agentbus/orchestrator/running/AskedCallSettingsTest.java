package dev.agentbus.orchestrator.running;

import dev.agentbus.events.models.ModelChoice;
import dev.agentbus.events.models.Sampling;
import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.SessionEvent.ModelCallStarted;
import dev.agentbus.events.session.SessionEvent.ModelSettingsChanged;
import dev.agentbus.events.session.SessionEvent.SessionCreated;
import dev.agentbus.events.session.SessionEvent.UserMessagePosted;
import dev.agentbus.events.state.SessionFold;
import dev.agentbus.events.state.SessionState;
import dev.agentbus.modelclient.CallSettings;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The model-call effect sends what the log recorded the call asks for: the same when the call is made again after a
 * takeover (the new owner has only the folded state), whatever the session chose after it.
 */
class AskedCallSettingsTest {
    private static SessionState fold(SessionEvent... events) {
        List<EventEnvelope> log = new ArrayList<>();
        for (SessionEvent e : events) {
            log.add(new EventEnvelope("e" + log.size(), "s", log.size() + 1, Instant.EPOCH, "i", "ada", e));
        }
        return SessionFold.fold("s", log);
    }

    @Test
    void a_call_sends_what_its_model_call_started_event_asked_for() {
        SessionState state = fold(new SessionCreated("t"), new UserMessagePosted("hi"),
                new ModelCallStarted("r1", 1, new ModelChoice("big", new Sampling(0.7, 0.9, 100))),
                // chosen after r1 was asked: for the next call, not for r1 made again
                new ModelSettingsChanged("other", new Sampling(1.5, null, null), "ada"));

        assertThat(ModelCalls.asked(state)).isEqualTo(new CallSettings("big", 0.7, 0.9, 100));
    }

    @Test
    void a_call_recorded_before_models_could_be_chosen_asks_for_nothing_of_its_own() {
        SessionState state = fold(new SessionCreated("t"), new UserMessagePosted("hi"), new ModelCallStarted("r1", 1));

        assertThat(ModelCalls.asked(state)).isEqualTo(CallSettings.NONE);
    }
}
