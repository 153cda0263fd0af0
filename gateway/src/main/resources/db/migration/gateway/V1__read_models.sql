-- The gateway's read models: tables derived from agentbus.session-events by the projector
-- (dev.agentbus.gateway.readmodels.projecting.Projector). Nothing here is the truth: the log is. Every row can be
-- thrown away and rebuilt from offset 0 (POST /api/v1/admin/rebuild-projections). See docs/read-models.md.
-- Flyway runs this in the schema "gateway" and the gateway's connections use that schema, so names are unqualified.

-- Where the projector stands in each partition: the offset of the next record to apply. Written in the same
-- transaction as the rows those records produced, so a crash can neither apply a record twice nor lose one.
CREATE TABLE projection_offsets (
    topic       text    NOT NULL,
    partition   integer NOT NULL,
    next_offset bigint  NOT NULL,
    PRIMARY KEY (topic, partition)
);

-- One row per pass over the log from offset 0: the first start on an empty schema, and every rebuild since.
CREATE TABLE projection_runs (
    run_id          bigserial   PRIMARY KEY,
    reason          text        NOT NULL,           -- 'initial' or 'rebuild'
    started_at      timestamptz NOT NULL,
    target_offsets  jsonb       NOT NULL,           -- {"partition": end offset} when the run started
    caught_up_at    timestamptz,                    -- when the projector reached those offsets
    caught_up_events bigint,                        -- events it had applied by then: the rebuild rate's numerator
    events_applied  bigint      NOT NULL DEFAULT 0, -- events applied in this run
    records_skipped bigint      NOT NULL DEFAULT 0, -- records that were not events at all (logged, not applied)
    last_applied_at timestamptz
);

-- The sessions list: one row per session, what a list or a dashboard shows without folding the log.
CREATE TABLE sessions (
    session_id        text        PRIMARY KEY,
    user_id           text,
    title             text,
    status            text        NOT NULL,   -- IDLE, RUNNING or WAITING (as SessionState.status)
    in_turn           boolean     NOT NULL,   -- a turn is open (a WAITING session may or may not be in one)
    created_at        timestamptz,
    updated_at        timestamptz,
    last_seq          bigint      NOT NULL,   -- events up to this seq are applied; older ones are ignored
    last_message      text,                   -- the latest user or assistant message, cut to 500 characters
    last_message_role text,                   -- 'user' or 'assistant'
    last_message_at   timestamptz,
    last_outcome      text,                   -- how the last turn ended, null before the first one ended
    last_model        text,
    turns             integer     NOT NULL,
    model_calls       integer     NOT NULL,
    prompt_tokens     bigint      NOT NULL,
    completion_tokens bigint      NOT NULL,
    total_tokens      bigint      NOT NULL,
    forked_from       text
);
CREATE INDEX sessions_by_user ON sessions (user_id, updated_at DESC);

-- Full-text search over what people and the model said: user messages and assistant answers.
-- 'english' stems words (ran, running -> run) and drops stop words; text in other languages is still indexed
-- word by word. The query side (MessageSearch) must use the same configuration.
CREATE TABLE messages (
    session_id text        NOT NULL,
    seq        bigint      NOT NULL,
    user_id    text,
    role       text        NOT NULL,        -- 'user' or 'assistant'
    time       timestamptz,
    text       text        NOT NULL,
    document   tsvector    GENERATED ALWAYS AS (to_tsvector('english', text)) STORED,
    PRIMARY KEY (session_id, seq)
);
CREATE INDEX messages_search ON messages USING gin (document);
CREATE INDEX messages_by_user ON messages (user_id);

-- Token analytics: the usage of model_call.completed.v1 events, added up by user, model and UTC day.
CREATE TABLE token_usage_daily (
    user_id           text   NOT NULL,
    day               date   NOT NULL,
    model             text   NOT NULL,
    model_calls       bigint NOT NULL,
    prompt_tokens     bigint NOT NULL,
    completion_tokens bigint NOT NULL,
    total_tokens      bigint NOT NULL,
    PRIMARY KEY (user_id, day, model)
);

-- The audit log: every tool call, whoever asked for it, with its arguments redacted (SecretRedactor).
CREATE TABLE audit_tool_calls (
    session_id    text        NOT NULL,
    call_id       text        NOT NULL,
    user_id       text,
    tool          text        NOT NULL,
    arguments     text,                     -- redacted
    status        text        NOT NULL,     -- requested, started, ok, failed, interrupted, refused
    by_user       boolean     NOT NULL,     -- a person ran it directly; false: the model asked for it
    worker        text,
    requested_at  timestamptz,
    started_at    timestamptz,
    completed_at  timestamptz,
    duration_ms   bigint,
    error         text,                     -- redacted: why it failed, or why it was refused
    requested_seq bigint      NOT NULL,
    completed_seq bigint,
    PRIMARY KEY (session_id, call_id)
);
CREATE INDEX audit_by_user_time ON audit_tool_calls (user_id, requested_at DESC);
CREATE INDEX audit_by_user_tool ON audit_tool_calls (user_id, tool);
