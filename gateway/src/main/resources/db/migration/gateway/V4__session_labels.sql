-- How each person arranges the sessions in their sidebar (docs/api.md "Pins and folders"): a pin and a folder per
-- person and session. Not part of a session's log: two people sharing a session arrange it each their own way.
CREATE TABLE session_labels (
    user_id    text        NOT NULL,
    session_id text        NOT NULL,
    pinned     boolean     NOT NULL DEFAULT false,
    folder     text,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (user_id, session_id)
);
