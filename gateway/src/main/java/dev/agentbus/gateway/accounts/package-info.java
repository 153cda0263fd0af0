/**
 * Team accounts: users and roles ({@code users}), invites and sign-up ({@code registering}), browser logins with
 * cookies and CSRF tokens ({@code signingin}), API keys ({@code apikeys}), TOTP two-factor login
 * ({@code twofactor}), groups that share sessions ({@code groups}) and the account audit ({@code auditing}).
 * Credential primitives (Argon2id, TOTP, QR codes) are in {@code credentials}.
 *
 * <p>The gateway owns these tables (schema {@code gateway}, migration V2); unlike the read models they are the
 * truth and no rebuild touches them. Every change appends to {@code account_events} in the same transaction.
 * Without PostgreSQL there are no accounts: the gateway token alone works, as the admin. See docs/security.md.
 */
package dev.agentbus.gateway.accounts;
