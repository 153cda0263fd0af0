-- Notifications (docs/api.md "Notifications"): each user's queue of things that happened in their sessions while
-- they may have been away, derived from the session log by the projector (one row per event at most: event_id is
-- unique, so a rebuild or a replay never notifies twice), plus each user's choices and webhook. Rows are not in the
-- rebuild's list of tables: read marks and webhook deliveries are the user's state, not a fold of the log.
CREATE TABLE notification_settings (
    user_id          text        PRIMARY KEY,
    kinds            text        NOT NULL,   -- comma-separated: turn_ended, wait_fired, approval_pending, message
    webhook_url      text,
    webhook_error    text,                   -- the last failed delivery, until one succeeds
    webhook_error_at timestamptz,
    webhook_ok_at    timestamptz,
    updated_at       timestamptz NOT NULL
);

CREATE TABLE notifications (
    id               bigserial   PRIMARY KEY,
    user_id          text        NOT NULL,
    event_id         text        NOT NULL UNIQUE,
    session_id       text        NOT NULL,
    seq              bigint      NOT NULL,
    kind             text        NOT NULL,
    title            text        NOT NULL,
    body             text,
    created_at       timestamptz NOT NULL,
    read             boolean     NOT NULL DEFAULT false,
    webhook_state    text,                   -- null: no webhook; pending, delivered or failed
    webhook_attempts integer     NOT NULL DEFAULT 0,
    webhook_next_at  timestamptz
);

CREATE INDEX notifications_by_user ON notifications (user_id, read, id DESC);
CREATE INDEX notifications_webhook_due ON notifications (webhook_next_at) WHERE webhook_state = 'pending';
