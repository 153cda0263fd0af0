package dev.agentbus.api.notifying;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.time.Instant;
import java.util.List;

/**
 * The caller's notification choices: which kinds notify them ({@code on}), the webhook they are POSTed to (absent:
 * none), and how the webhook fares: its last failure until a delivery succeeds, and its last success.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record NotificationSettingsView(List<String> on, String webhookUrl, String webhookError,
                                       Instant webhookErrorAt, Instant webhookOkAt) {
}
