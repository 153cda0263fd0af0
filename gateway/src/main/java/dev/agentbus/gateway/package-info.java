/**
 * The gateway: HTTP, SSE and auth in front of the event log. Beans here exist only in a context whose
 * {@code agentbus.service} is {@code gateway} (see the orchestrator's package-info for why).
 */
@Configuration
@Requires(property = "agentbus.service", value = "gateway")
package dev.agentbus.gateway;

import io.micronaut.context.annotation.Configuration;
import io.micronaut.context.annotation.Requires;
