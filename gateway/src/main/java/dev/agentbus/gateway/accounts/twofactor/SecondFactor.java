package dev.agentbus.gateway.accounts.twofactor;

import dev.agentbus.gateway.accounts.auditing.AccountEvents;
import dev.agentbus.gateway.accounts.credentials.BackupCodes;
import dev.agentbus.gateway.accounts.credentials.Totp;
import dev.agentbus.gateway.accounts.users.Account;
import dev.agentbus.gateway.accounts.users.Accounts;
import dev.agentbus.gateway.notifying.AccountNotices;
import dev.agentbus.gateway.readmodels.Sql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Checks a second factor at login: a TOTP code of the account's authenticator, used at most once (its time step is
 * recorded and no code of that step or an earlier one is accepted again), or one of its unused backup codes.
 *
 * <p>After {@link #LOCK_AFTER} wrong codes in a row (TOTP or backup codes, over any time) TOTP codes are refused,
 * right or wrong, until a backup code is used or an admin resets two-factor login: at 10 guesses a minute a locked
 * factor would otherwise fall in weeks to anyone who has the password (NIST 800-63B caps consecutive failures at
 * 100). Locking is recorded in the account audit and the user is notified.
 */
public final class SecondFactor {
    /** What a presented code turned out to be. */
    public enum Result { TOTP, BACKUP_CODE, WRONG, REPLAYED, LOCKED }

    /** Wrong codes in a row that lock TOTP codes. */
    public static final int LOCK_AFTER = 20;

    private SecondFactor() {
    }

    /** @param address the client's, for the audit row when the factor locks */
    public static Result check(Connection c, Account account, String code, Instant now, String address)
            throws SQLException {
        if (code == null || code.isBlank() || account.totpSecret() == null) {
            return Result.WRONG;
        }
        boolean locked = lockedAt(c, account.userId()) != null;
        String trimmed = code.strip();
        if (trimmed.matches("\\d{6}")) {
            if (locked) {
                return Result.LOCKED;
            }
            OptionalLong step = Totp.matchingStep(account.totpSecret(), trimmed, now);
            if (step.isEmpty()) {
                return failed(c, account, now, address);
            }
            if (!Accounts.useTotpStep(c, account.userId(), step.getAsLong())) {
                return Result.REPLAYED;
            }
            unlock(c, account.userId());
            return Result.TOTP;
        }
        try (PreparedStatement s = c.prepareStatement("UPDATE backup_codes SET used_at = ? "
                + "WHERE user_id = ? AND code_hash = ? AND used_at IS NULL")) {
            Sql.setInstant(s, 1, now);
            s.setString(2, account.userId());
            s.setString(3, BackupCodes.hash(trimmed));
            if (s.executeUpdate() == 1) {
                unlock(c, account.userId());
                return Result.BACKUP_CODE;
            }
        }
        return failed(c, account, now, address);
    }

    /** Turns two-factor login off for the account (an admin's reset): secret, backup codes, failures, lock. */
    public static void reset(Connection c, String userId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("UPDATE accounts SET totp_secret = NULL, totp_enabled = false, "
                + "totp_last_step = 0, totp_failures = 0, totp_locked_at = NULL WHERE user_id = ?")) {
            s.setString(1, userId);
            s.executeUpdate();
        }
        replaceBackupCodes(c, userId, List.of());
    }

    /** Counts a wrong code; at the limit, locks, audits and notifies. @return WRONG, or LOCKED from now on */
    private static Result failed(Connection c, Account account, Instant now, String address) throws SQLException {
        int failures;
        Instant lockedAt;
        try (PreparedStatement s = c.prepareStatement("UPDATE accounts SET totp_failures = totp_failures + 1 "
                + "WHERE user_id = ? RETURNING totp_failures, totp_locked_at")) {
            s.setString(1, account.userId());
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                failures = rs.getInt(1);
                lockedAt = Sql.getInstant(rs, "totp_locked_at");
            }
        }
        if (lockedAt != null) {
            return Result.LOCKED;
        }
        if (failures < LOCK_AFTER) {
            return Result.WRONG;
        }
        try (PreparedStatement s = c.prepareStatement("UPDATE accounts SET totp_locked_at = ? WHERE user_id = ?")) {
            Sql.setInstant(s, 1, now);
            s.setString(2, account.userId());
            s.executeUpdate();
        }
        AccountEvents.append(c, now, AccountEvents.TOTP_LOCKED, account.userId(), null, address,
                Map.of("failures", failures));
        AccountNotices.post(c, account.userId(), "Two-factor login locked",
                failures + " wrong two-factor codes in a row were tried for your account, so codes from your "
                        + "authenticator no longer log you in. Someone may know your password: log in with a backup "
                        + "code (or ask an admin to reset two-factor login) and change your password.", now);
        return Result.LOCKED;
    }

    private static Instant lockedAt(Connection c, String userId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT totp_locked_at FROM accounts WHERE user_id = ?")) {
            s.setString(1, userId);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? Sql.getInstant(rs, "totp_locked_at") : null;
            }
        }
    }

    private static void unlock(Connection c, String userId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("UPDATE accounts SET totp_failures = 0, totp_locked_at = NULL "
                + "WHERE user_id = ? AND (totp_failures > 0 OR totp_locked_at IS NOT NULL)")) {
            s.setString(1, userId);
            s.executeUpdate();
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
