/**
 * The sandbox-worker: runs tool calls in per-session workspaces. Beans here exist only in a context whose
 * {@code agentbus.service} is {@code sandbox-worker} (see the orchestrator's package-info for why).
 */
@Configuration
@Requires(property = "agentbus.service", value = "sandbox-worker")
package dev.agentbus.sandbox;

import io.micronaut.context.annotation.Configuration;
import io.micronaut.context.annotation.Requires;
