package dev.agentbus.gateway.openai;

import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.events.session.ToolCallSpec;
import dev.agentbus.events.session.TurnOutcome;
import dev.agentbus.events.stream.StreamChunk;
import dev.agentbus.gateway.openai.TurnTranscript.Output;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** How a turn's events and deltas become an OpenAI reply: given what came before, when this arrives, then send. */
class TurnTranscriptTest {
    static final String INPUT = "in-1";
    final TurnTranscript transcript = new TurnTranscript(INPUT);
    long seq;

    List<Output> event(String causation, SessionEvent event) {
        return transcript.onEvent(new EventEnvelope("e" + seq, "s1", ++seq, Instant.EPOCH, causation, "ada", event));
    }

    List<Output> event(SessionEvent event) {
        return event(INPUT, event);
    }

    List<Output> token(String call, String text) {
        return transcript.onDelta(new StreamChunk("s1", StreamChunk.Kind.TOKEN, call, text, Instant.EPOCH));
    }

    static SessionEvent.ModelCallCompleted completed(String call, String content, ToolCallSpec... calls) {
        return new SessionEvent.ModelCallCompleted(call, "m", content, null, List.of(calls),
                new TokenUsage(10, 5, 15), "stop");
    }

    void begin() {
        event(new SessionEvent.UserMessagePosted("hello"));
    }

    @Test
    void nothing_is_sent_before_the_message_of_this_request_is_in_the_log() {
        List<Output> out = new ArrayList<>();
        out.addAll(event("someone-else", new SessionEvent.UserMessagePosted("not ours")));
        out.addAll(token("r0", "their answer"));
        out.addAll(event("someone-else", new SessionEvent.TurnEnded(TurnOutcome.COMPLETED, "x", null)));

        assertThat(out).isEmpty();
    }

    @Test
    void tokens_are_content_and_the_completed_call_adds_only_what_the_deltas_missed() {
        begin();

        List<Output> out = new ArrayList<>();
        out.addAll(token("r1", "Hel"));
        out.addAll(event(completed("r1", "Hello.")));
        out.addAll(token("r1", "lo.")); // too late: the call has completed

        assertThat(out).containsExactly(new Output.Content("Hel"), new Output.Content("lo."));
        assertThat(transcript.content()).isEqualTo("Hello.");
    }

    @Test
    void tool_calls_and_their_outcomes_are_reasoning_and_the_model_calls_texts_are_separated() {
        begin();
        event(completed("r1", "Let me look.", new ToolCallSpec("c1", "ls", "{}")));

        List<Output> out = new ArrayList<>();
        out.addAll(event(new SessionEvent.ToolCallRequested("c1", "ls", "{}")));
        out.addAll(event(new SessionEvent.ToolCallCompleted("c1", false, null, "no such dir\nmore", null, false, 7,
                false)));
        out.addAll(token("r2", "Done."));

        assertThat(out).containsExactly(new Output.Reasoning("→ ls {}\n"),
                new Output.Reasoning("← ls failed: no such dir (7 ms)\n"), new Output.Content("\n\n"),
                new Output.Content("Done."));
        assertThat(transcript.content()).isEqualTo("Let me look.\n\nDone.");
    }

    @Test
    void the_turns_end_finishes_with_stop_or_length_and_the_usage_of_all_its_model_calls() {
        begin();
        event(completed("r1", "a"));
        event(completed("r2", "b"));

        List<Output> capped = event(new SessionEvent.TurnEnded(TurnOutcome.ITERATION_CAP, null, "cap"));

        assertThat(capped).containsExactly(new Output.Finished("length", null, new OpenAiWire.Usage(20, 10, 30)));
        assertThat(event(completed("r3", "after the end"))).isEmpty();
    }

    @Test
    void a_failed_turn_and_a_refused_message_are_errors() {
        TurnTranscript refused = new TurnTranscript(INPUT);
        assertThat(refused.onEvent(new EventEnvelope("e", "s1", 1, Instant.EPOCH, null, "ada",
                new SessionEvent.InputRejected(INPUT, "post_user_message.v1", "a turn is running"))))
                .containsExactly(new Output.Finished(null, "the message was refused: a turn is running",
                        new OpenAiWire.Usage(0, 0, 0)));

        begin();
        assertThat(event(new SessionEvent.TurnEnded(TurnOutcome.ERROR, null, "model server down")))
                .containsExactly(new Output.Finished(null, "model server down", new OpenAiWire.Usage(0, 0, 0)));
    }
}
