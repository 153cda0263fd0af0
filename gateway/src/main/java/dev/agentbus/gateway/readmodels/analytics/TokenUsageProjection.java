package dev.agentbus.gateway.readmodels.analytics;

import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent.ModelCallCompleted;
import dev.agentbus.events.session.TokenUsage;
import dev.agentbus.gateway.readmodels.Sql;
import dev.agentbus.gateway.readmodels.TableProjection;

import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps {@code token_usage_daily}: the usage of every {@code model_call.completed.v1}, added up per user, model and
 * UTC day of the event. The sums are increments, so they are not idempotent on their own: they rely on the
 * projector applying each record once (its offset is stored in the same transaction). A fork's copied usage is not
 * counted again; it was counted in the session that made the calls.
 */
public final class TokenUsageProjection implements TableProjection {
    public static final String UNKNOWN_MODEL = "unknown";

    /** The row a model call adds to. */
    record Key(String userId, LocalDate day, String model) {
    }

    /** What one batch adds to a row. */
    record Sum(long modelCalls, TokenUsage usage) {
    }

    private final Map<Key, Sum> sums = new LinkedHashMap<>();

    /** The row an event counts in, or null when it is not a completed model call (or has no time to file it by). */
    static Key keyOf(EventEnvelope e) {
        if (!(e.event() instanceof ModelCallCompleted m) || e.time() == null) {
            return null;
        }
        String model = m.model() == null || m.model().isBlank() ? UNKNOWN_MODEL : m.model();
        return new Key(e.userId() == null ? "" : e.userId(), LocalDate.ofInstant(e.time(), ZoneOffset.UTC), model);
    }

    @Override
    public void load(Connection db, List<EventEnvelope> events) {
        // Increments only: nothing to read first.
    }

    @Override
    public void apply(EventEnvelope event) {
        Key key = keyOf(event);
        if (key != null) {
            TokenUsage usage = ((ModelCallCompleted) event.event()).usage();
            sums.merge(key, new Sum(1, usage), (a, b) -> new Sum(a.modelCalls() + b.modelCalls(),
                    a.usage().plus(b.usage())));
        }
    }

    @Override
    public void save(Connection db) throws SQLException {
        if (sums.isEmpty()) {
            return;
        }
        try (PreparedStatement s = db.prepareStatement("""
                INSERT INTO token_usage_daily
                       (user_id, day, model, model_calls, prompt_tokens, completion_tokens, total_tokens)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (user_id, day, model) DO UPDATE SET
                       model_calls = token_usage_daily.model_calls + excluded.model_calls,
                       prompt_tokens = token_usage_daily.prompt_tokens + excluded.prompt_tokens,
                       completion_tokens = token_usage_daily.completion_tokens + excluded.completion_tokens,
                       total_tokens = token_usage_daily.total_tokens + excluded.total_tokens""")) {
            for (Map.Entry<Key, Sum> e : sums.entrySet()) {
                Sql.setText(s, 1, e.getKey().userId());
                s.setDate(2, Date.valueOf(e.getKey().day()));
                Sql.setText(s, 3, e.getKey().model());
                s.setLong(4, e.getValue().modelCalls());
                s.setLong(5, e.getValue().usage().promptTokens());
                s.setLong(6, e.getValue().usage().completionTokens());
                s.setLong(7, e.getValue().usage().totalTokens());
                s.addBatch();
            }
            s.executeBatch();
        }
    }
}
