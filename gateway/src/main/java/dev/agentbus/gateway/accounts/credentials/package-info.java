/**
 * Credential primitives for user accounts: password hashing ({@link PasswordHasher}), time-based one-time codes
 * ({@link Totp}, with {@link Base32} and {@link QrCodes} for enrolment), single-use {@link BackupCodes}, and opaque
 * {@link SecretTokens} for API keys and login cookies.
 *
 * <p>Everything here is pure and stateless: no beans, no storage, no clock of its own. Callers decide what to store
 * (always a hash or an encoded hash, never the secret itself, except the TOTP secret, which the server needs in
 * the clear to compute codes) and own every policy that needs state, such as TOTP replay protection and rate
 * limits.
 */
package dev.agentbus.gateway.accounts.credentials;
