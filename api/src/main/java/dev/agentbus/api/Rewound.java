package dev.agentbus.api;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * {@code POST .../rewind}: the workspace now has the files of {@code restored}; {@code checkpoint} records the rewind
 * itself and {@code seq} is the seq of its result. When the worker did not answer in time only {@code callId} and
 * {@code status: pending} are sent (with 202).
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record Rewound(String callId, String restored, String output, String checkpoint, Long seq, String status) {
    public static Rewound done(String callId, String restored, String output, String checkpoint, long seq) {
        return new Rewound(callId, restored, output, checkpoint, seq, null);
    }

    public static Rewound pending(String callId) {
        return new Rewound(callId, null, null, null, null, Pending.STATUS);
    }

    /** Not a field of the answer: whether the gateway answered before the work was recorded. */
    @JsonIgnore
    public boolean isPending() {
        return Pending.STATUS.equals(status);
    }
}
