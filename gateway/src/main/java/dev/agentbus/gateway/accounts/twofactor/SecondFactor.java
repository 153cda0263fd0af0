package dev.agentbus.gateway.accounts.twofactor;

import dev.agentbus.gateway.accounts.credentials.BackupCodes;
import dev.agentbus.gateway.accounts.credentials.Totp;
import dev.agentbus.gateway.accounts.users.Account;
import dev.agentbus.gateway.accounts.users.Accounts;
import dev.agentbus.gateway.readmodels.Sql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;

/**
 * Checks a second factor at login: a TOTP code of the account's authenticator, used at most once (its time step is
 * recorded and no code of that step or an earlier one is accepted again), or one of its unused backup codes.
 */
public final class SecondFactor {
    /** What a presented code turned out to be. */
    public enum Result { TOTP, BACKUP_CODE, WRONG, REPLAYED }

    private SecondFactor() {
    }

    public static Result check(Connection c, Account account, String code, Instant now) throws SQLException {
        if (code == null || code.isBlank() || account.totpSecret() == null) {
            return Result.WRONG;
        }
        String trimmed = code.strip();
        if (trimmed.matches("\\d{6}")) {
            OptionalLong step = Totp.matchingStep(account.totpSecret(), trimmed, now);
            if (step.isEmpty()) {
                return Result.WRONG;
            }
            return Accounts.useTotpStep(c, account.userId(), step.getAsLong()) ? Result.TOTP : Result.REPLAYED;
        }
        try (PreparedStatement s = c.prepareStatement("UPDATE backup_codes SET used_at = ? "
                + "WHERE user_id = ? AND code_hash = ? AND used_at IS NULL")) {
            Sql.setInstant(s, 1, now);
            s.setString(2, account.userId());
            s.setString(3, BackupCodes.hash(trimmed));
            return s.executeUpdate() == 1 ? Result.BACKUP_CODE : Result.WRONG;
        }
    }

    /** Replaces the account's backup codes (a new enrolment makes the old ones worthless). */
    public static void replaceBackupCodes(Connection c, String userId, List<String> codes) throws SQLException {
        try (PreparedStatement d = c.prepareStatement("DELETE FROM backup_codes WHERE user_id = ?")) {
            d.setString(1, userId);
            d.executeUpdate();
        }
        try (PreparedStatement s = c.prepareStatement(
                "INSERT INTO backup_codes (user_id, code_hash) VALUES (?, ?) ON CONFLICT DO NOTHING")) {
            for (String code : codes) {
                s.setString(1, userId);
                s.setString(2, BackupCodes.hash(code));
                s.addBatch();
            }
            s.executeBatch();
        }
    }
}
