/**
 * The gateway's HTTP contract (docs/api.md): one record per JSON answer, so what clients read is written down in
 * one place and does not follow the internal types around. The orchestrator may reshape {@code SessionState}; only
 * the {@code of(...)} factories here change with it, and the JSON stays the same.
 *
 * <p>Every answer is written and read with {@link dev.agentbus.api.ApiJson}, so the gateway and its clients use the
 * same settings. Records say themselves which fields are left out when empty, since that is part of the contract.
 * Enumerations travel as strings: a client older than its gateway still reads a status it does not know.
 *
 * <p>Not here: the log, the export and the event stream, whose lines are the stored event envelopes of
 * docs/events.md (a contract of their own, versioned by wire type names).
 */
package dev.agentbus.api;
