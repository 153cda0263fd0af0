package dev.agentbus.api;

/** {@code GET /health}: {@code UP} and {@code reachable}, or {@code DOWN} and why Kafka is unreachable. */
public record Health(String status, String kafka) {
}
