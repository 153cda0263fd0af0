package dev.agentbus.gateway.readmodels.auditing;

import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Arrays;
import java.util.List;

/** Where a tool call is, as the audit log shows it; written in lower case in the table and in JSON. */
enum AuditStatus {
    /** Asked for (by the model or a person), not yet started. */
    REQUESTED,
    /** A sandbox-worker said it is running it. */
    STARTED,
    /** It ran and succeeded. */
    OK,
    /** It failed, or the orchestrator answered it with an error (unknown tool, arguments that are not an object). */
    FAILED,
    /** The worker crashed during the call and did not run it again. */
    INTERRUPTED,
    /** The safety layer refused it without running it. */
    REFUSED;

    public static final List<String> NAMES = Arrays.stream(values()).map(AuditStatus::wireName).toList();

    @JsonValue
    public String wireName() {
        return name().toLowerCase();
    }

    public static AuditStatus fromWire(String name) {
        return valueOf(name.toUpperCase());
    }
}
