/**
 * The memory-service: each user's long-term memory document and the insights distilled from their sessions. Beans
 * here exist only in a context whose {@code agentbus.service} is {@code memory-service} (see the orchestrator's
 * package-info for why).
 */
@Configuration
@Requires(property = "agentbus.service", value = "memory-service")
package dev.agentbus.memory;

import io.micronaut.context.annotation.Configuration;
import io.micronaut.context.annotation.Requires;
