package dev.agentbus.gateway.readmodels.projecting;

import dev.agentbus.gateway.notifying.NotificationProjection;
import dev.agentbus.gateway.readmodels.TableProjection;
import dev.agentbus.gateway.readmodels.analytics.TokenUsageProjection;
import dev.agentbus.gateway.readmodels.auditing.AuditProjection;
import dev.agentbus.gateway.readmodels.searching.MessageIndexProjection;
import dev.agentbus.gateway.readmodels.sessionlist.SessionSummaryProjection;

import java.util.List;

/** The gateway's read models: what every batch of events is applied to, and what a rebuild empties. */
final class Projections {
    /** Every table a projection writes. A rebuild truncates them together with the offsets. */
    static final List<String> TABLES = List.of("sessions", "messages", "token_usage_daily", "audit_tool_calls");

    private Projections() {
    }

    /**
     * Fresh projections for one batch (they hold the batch's rows in memory). Notifications come last and are not in
     * {@link #TABLES}: their rows are each user's queue (read marks, webhook deliveries), kept across a rebuild, and
     * inserted once per event, so the rebuild's second reading adds none.
     */
    static List<TableProjection> forOneBatch() {
        return List.of(new SessionSummaryProjection(), new MessageIndexProjection(), new TokenUsageProjection(),
                new AuditProjection(), new NotificationProjection());
    }
}
