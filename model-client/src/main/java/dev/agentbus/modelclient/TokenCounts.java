package dev.agentbus.modelclient;

/** Token usage of one model call as the server reported it (all zero when it reported none). */
public record TokenCounts(long prompt, long completion, long total) {

    public static final TokenCounts ZERO = new TokenCounts(0, 0, 0);
}
