/**
 * The answers of a session's workspace as people use it (docs/api.md "Workspace", docs/websocket.md): list a
 * directory, read, write and delete files, run a command in the session's sandbox. Each operation is a tool call a
 * person ran, recorded in the session's log; {@code callId} names it there.
 */
package dev.agentbus.api.workspace;
