-- Semantic search: one embedding per searchable message (the rows of "messages"), written by the gateway's
-- embedder (dev.agentbus.gateway.readmodels.searching.embedding.MessageEmbedder), which reads agentbus.session-events
-- itself and asks the model server's /v1/embeddings. See docs/memory.md#semantic-search for why vectors live here,
-- searched by brute force, and not in an approximate index.
--
-- Keyed by message and model: a new embedding model (agentbus.search.embedding-model) starts a new pass over the log
-- with offsets of its own, and vectors of different models are never compared. A read-model rebuild does not touch
-- these tables: the embedder's inputs did not change, and asking the model server again would only cost time.
CREATE TABLE message_embeddings (
    session_id text    NOT NULL,
    seq        bigint  NOT NULL,
    model      text    NOT NULL,
    user_id    text    NOT NULL,
    vector     bytea   NOT NULL,   -- float32 little-endian, L2-normalised, so a dot product is the cosine
    PRIMARY KEY (session_id, seq, model)
);
CREATE INDEX message_embeddings_by_user ON message_embeddings (user_id, model);
-- Kept in the row: a 768-dimension vector is 3 kB, past the 2 kB at which PostgreSQL would try to compress it (float
-- noise does not compress) and then move it to the TOAST table, one more lookup per row when a search reads them all.
-- MAIN keeps it inline while the row fits the page (up to about 2,000 dimensions). VectorIndexBench --storage main
-- measured searches 1.2 to 4 times faster at 1,000 to 30,000 vectors (docs/benchmarks.md).
ALTER TABLE message_embeddings ALTER COLUMN vector SET STORAGE MAIN;

-- Where the embedder stands in each partition of the session log, per model: the offset of the next record. Written
-- in the same transaction as the vectors those records produced.
CREATE TABLE embedding_offsets (
    model       text    NOT NULL,
    partition   integer NOT NULL,
    next_offset bigint  NOT NULL,
    PRIMARY KEY (model, partition)
);

-- Sessions whose deletion the embedder has read. Reading the log again (a new model, a lost offset) meets their
-- messages before their deletion, maybe in an earlier batch: these ids keep them from being embedded again.
CREATE TABLE embedding_deleted_sessions (
    session_id text PRIMARY KEY
);
