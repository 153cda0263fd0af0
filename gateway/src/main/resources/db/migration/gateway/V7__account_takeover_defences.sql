-- Issue 28: the second factor locks after 20 consecutive wrong codes (NIST 800-63B caps consecutive failures), until
-- a backup code is used or an admin resets two-factor login. totp_failures counts wrong TOTP and backup codes since
-- the last right one; totp_locked_at is set when the count reaches the limit.
ALTER TABLE accounts ADD COLUMN totp_failures  integer     NOT NULL DEFAULT 0;
ALTER TABLE accounts ADD COLUMN totp_locked_at timestamptz;
