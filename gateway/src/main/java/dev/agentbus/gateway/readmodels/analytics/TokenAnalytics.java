package dev.agentbus.gateway.readmodels.analytics;

import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/** Queries token analytics: one user's usage by day and model over a range of UTC days (both ends included). */
final class TokenAnalytics {
    /** Usage of one model on one day. */
    public record DayRow(LocalDate day, String model, long modelCalls, long promptTokens, long completionTokens,
                         long totalTokens) {
    }

    private TokenAnalytics() {
    }

    public static List<DayRow> byDayAndModel(Connection db, String userId, LocalDate from, LocalDate to)
            throws SQLException {
        try (PreparedStatement s = db.prepareStatement("""
                SELECT day, model, model_calls, prompt_tokens, completion_tokens, total_tokens
                  FROM token_usage_daily
                 WHERE user_id = ? AND day BETWEEN ? AND ?
                 ORDER BY day, model""")) {
            s.setString(1, userId);
            s.setDate(2, Date.valueOf(from));
            s.setDate(3, Date.valueOf(to));
            List<DayRow> rows = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    rows.add(new DayRow(rs.getDate("day").toLocalDate(), rs.getString("model"),
                            rs.getLong("model_calls"), rs.getLong("prompt_tokens"), rs.getLong("completion_tokens"),
                            rs.getLong("total_tokens")));
                }
            }
            return rows;
        }
    }
}
