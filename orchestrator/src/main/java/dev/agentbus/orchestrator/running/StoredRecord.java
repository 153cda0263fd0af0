package dev.agentbus.orchestrator.running;

/**
 * One record of a partition as read from the log, without the client's types: what rebuilding a partition needs to
 * know of it.
 *
 * @param key    the session id
 * @param offset its offset in the partition
 * @param value  the encoded event or snapshot; null for a tombstone
 */
record StoredRecord(String key, long offset, byte[] value) {
}
