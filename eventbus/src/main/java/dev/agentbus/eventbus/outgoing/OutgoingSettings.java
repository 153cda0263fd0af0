package dev.agentbus.eventbus.outgoing;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;

/**
 * The operator's allow-list for URLs that users choose ({@code agentbus.outgoing.allow},
 * {@code AGENTBUS_OUTGOING_ALLOW}; docs/configuration.md, "Outgoing requests"): comma-separated hosts, host:port
 * pairs and CIDR networks that are reachable although internal, e.g. a model server on the LAN. Checked at start: a
 * wrong entry stops the service.
 */
@ConfigurationProperties("agentbus.outgoing")
public record OutgoingSettings(@Bindable(defaultValue = "") String allow) {
    public OutgoingSettings {
        allow = allow == null ? "" : allow.strip();
        AllowList.parse(allow);
    }

    /** The policy for URLs users choose, opened where this allow-list says. */
    public OutgoingPolicy policy() {
        return OutgoingPolicy.allowing(allow);
    }
}
