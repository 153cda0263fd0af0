package dev.agentbus.gateway.notifying;

import java.util.Set;

/** What one user chose: which kinds notify them, and where to POST them ({@code webhookUrl} null: nowhere). */
record UserChoices(Set<NotificationKind> on, String webhookUrl) {
    static final UserChoices DEFAULTS = new UserChoices(NotificationKind.DEFAULTS, null);
}
