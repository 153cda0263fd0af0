package dev.agentbus.api.accounts;

import java.util.List;

/** A group ({@code /api/v1/admin/groups}): its members see the sessions shared with it. */
public record Group(String groupId, List<String> members) {
}
