/**
 * The scheduler: wakes suspended sessions at their time. Beans here exist only in a context whose
 * {@code agentbus.service} is {@code scheduler} (see the orchestrator's package-info for why).
 */
@Configuration
@Requires(property = "agentbus.service", value = "scheduler")
package dev.agentbus.scheduler;

import io.micronaut.context.annotation.Configuration;
import io.micronaut.context.annotation.Requires;
