package dev.agentbus.api.organising;

import com.fasterxml.jackson.annotation.JsonInclude;

/** How the caller arranged one session: pinned to the top, and in which folder ({@code folder} absent: none). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SessionLabel(String sessionId, boolean pinned, String folder) {
}
