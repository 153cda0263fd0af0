package dev.agentbus.api.accounts;

/** {@code GET/PUT /api/v1/admin/settings}: team-wide rules an admin changes at run time. */
public record TeamSettings(boolean requireTotp) {
}
