/**
 * The orchestrator: the agent loop, and the only writer of {@code agentbus.session-events}.
 *
 * <p>Every bean in this package and below exists only in a context whose {@code agentbus.service} is
 * {@code orchestrator}, so the standalone launcher can run all five services in one JVM, each in its own
 * application context, without one service's beans starting inside another's.
 */
@Configuration
@Requires(property = "agentbus.service", value = "orchestrator")
package dev.agentbus.orchestrator;

import io.micronaut.context.annotation.Configuration;
import io.micronaut.context.annotation.Requires;
