-- Read-only links to a session (docs/api.md "Share links"). Only the SHA-256 of a link's token is kept: the token is
-- shown once, to the person who made the link.
CREATE TABLE share_links (
    link_id    text        PRIMARY KEY,
    session_id text        NOT NULL,
    token_hash text        NOT NULL UNIQUE,
    created_by text        NOT NULL,
    created_at timestamptz NOT NULL,
    revoked_at timestamptz
);

CREATE INDEX share_links_by_session ON share_links (session_id);
