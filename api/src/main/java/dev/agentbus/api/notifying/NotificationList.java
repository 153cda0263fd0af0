package dev.agentbus.api.notifying;

import java.util.List;

/** The caller's notifications, unread first (newest first within each), and how many are unread in all. */
public record NotificationList(long unread, List<NotificationItem> items) {
}
