-- Accounts: who may use the gateway, how they prove it, and what they share. Unlike the read models in V1 these
-- tables are the truth, owned by the gateway (it owns auth and users, docs/security.md): a projection rebuild never
-- touches them. Secrets are stored only as hashes (passwords: Argon2id; API keys, login cookies, invites and backup
-- codes: SHA-256 of 256-bit random tokens). See dev.agentbus.gateway.accounts.

-- A person (or a program) with a login. user_id is what session events, workspaces and Kafka keys name; username
-- is what people type. The first admin's user_id is the gateway's configured user, so sessions made with the
-- standalone token before accounts existed stay the admin's.
CREATE TABLE accounts (
    user_id             text        PRIMARY KEY,
    username            text        NOT NULL UNIQUE,     -- lowercase
    role                text        NOT NULL CHECK (role IN ('admin', 'user')),
    password_hash       text        NOT NULL,            -- PHC string: $argon2id$v=19$m=...,t=...,p=...$salt$hash
    totp_secret         text,                            -- base32; pending until totp_enabled
    totp_enabled        boolean     NOT NULL DEFAULT false,
    totp_last_step      bigint      NOT NULL DEFAULT 0,  -- the last time step a code was accepted for (no replay)
    created_at          timestamptz NOT NULL,
    password_changed_at timestamptz NOT NULL
);

-- Single-use codes for when the authenticator is lost; replaced as a set at every TOTP enrolment.
CREATE TABLE backup_codes (
    user_id   text        NOT NULL REFERENCES accounts ON DELETE CASCADE,
    code_hash text        NOT NULL,
    used_at   timestamptz,
    PRIMARY KEY (user_id, code_hash)
);

-- Invite-only sign-up: an admin makes a code, one person registers with it before it expires.
CREATE TABLE invites (
    code_hash  text        PRIMARY KEY,
    role       text        NOT NULL CHECK (role IN ('admin', 'user')),
    created_by text        NOT NULL,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    used_by    text,
    used_at    timestamptz
);

-- Named keys for the CLI and programs: shown once, stored hashed, revocable.
CREATE TABLE api_keys (
    key_id       text        PRIMARY KEY,                -- public: names the key in lists and DELETE
    user_id      text        NOT NULL REFERENCES accounts ON DELETE CASCADE,
    name         text        NOT NULL,
    key_hash     text        NOT NULL UNIQUE,
    created_at   timestamptz NOT NULL,
    last_used_at timestamptz,
    revoked_at   timestamptz
);
CREATE INDEX api_keys_by_user ON api_keys (user_id);

-- Browser logins: the cookie's hash, its CSRF token, and a sliding expiry capped by an absolute one.
CREATE TABLE login_sessions (
    login_id            text        PRIMARY KEY,         -- public: names the login on "your logins" and in DELETE
    user_id             text        NOT NULL REFERENCES accounts ON DELETE CASCADE,
    token_hash          text        NOT NULL UNIQUE,
    csrf_token          text        NOT NULL,
    created_at          timestamptz NOT NULL,
    last_seen_at        timestamptz NOT NULL,
    expires_at          timestamptz NOT NULL,            -- moves forward with use, never past absolute_expires_at
    absolute_expires_at timestamptz NOT NULL,
    address             text,
    user_agent          text,
    ended_at            timestamptz
);
CREATE INDEX login_sessions_by_user ON login_sessions (user_id);

-- Team-wide settings an admin changes at run time (require_totp).
CREATE TABLE account_settings (
    name  text  PRIMARY KEY,
    value jsonb NOT NULL
);

-- Groups share sessions: a session shared with a group is readable (or writable) by every member.
CREATE TABLE groups (
    group_id   text        PRIMARY KEY,
    created_by text        NOT NULL,
    created_at timestamptz NOT NULL
);
CREATE TABLE group_members (
    group_id text NOT NULL REFERENCES groups ON DELETE CASCADE,
    user_id  text NOT NULL REFERENCES accounts ON DELETE CASCADE,
    PRIMARY KEY (group_id, user_id)
);
CREATE INDEX group_members_by_user ON group_members (user_id);
CREATE TABLE session_shares (
    session_id text        NOT NULL,
    group_id   text        NOT NULL REFERENCES groups ON DELETE CASCADE,
    mode       text        NOT NULL CHECK (mode IN ('read', 'write')),
    shared_by  text        NOT NULL,
    shared_at  timestamptz NOT NULL,
    PRIMARY KEY (session_id, group_id)
);

-- What happened to accounts, appended in the same transaction as the change it records, so the record and the
-- change cannot disagree: logins, failed logins, logouts, keys made and revoked, invites, registrations, role
-- and password changes, two-factor enrolment. user_id is whom it is about; actor_id who did it.
CREATE TABLE account_events (
    event_id bigserial   PRIMARY KEY,
    time     timestamptz NOT NULL,
    type     text        NOT NULL,
    user_id  text,
    actor_id text,
    address  text,
    details  jsonb       NOT NULL DEFAULT '{}'
);
CREATE INDEX account_events_by_user ON account_events (user_id, time DESC);
CREATE INDEX account_events_by_time ON account_events (time DESC);
