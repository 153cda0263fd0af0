/** Answers of the notification routes (docs/api.md "Notifications"). */
package dev.agentbus.api.notifying;
