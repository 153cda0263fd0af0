/** Answers of the inbox routes (docs/api.md "Inbox"). */
package dev.agentbus.api.inbox;
