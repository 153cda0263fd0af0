package dev.agentbus.api.accounts;

import java.util.List;

/**
 * {@code POST /api/v1/me/totp}: a pending enrolment. Scan {@code qrSvg} (or type {@code secret}) into an
 * authenticator app, then confirm with a first code; keep the backup codes, each works once.
 */
public record TotpEnrolment(String secret, String otpauthUri, String qrSvg, List<String> backupCodes) {
}
