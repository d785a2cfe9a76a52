-- The state the instances of dedupd on one database share, beyond the
-- articles and the editors' decisions:
--
--  * service_secrets holds keys the service makes once and every instance
--    reads: the key that signs the list of clusters' cursors (cluster_cursor),
--    so that one instance accepts another's cursors and a restart breaks no
--    client's paging. The first instance to need a key stores a random one;
--    the others read it.
--  * editor_sessions holds the editors' page sessions, so that signing out
--    ends a session on every instance, and a session unused for
--    DEDUP_UI_IDLE_TIMEOUT ends. A session is stored under the SHA-256 of
--    its token (the browser's cookie), never the token; the database's
--    clock says when it was last seen. Ended sessions are deleted when an
--    editor signs in.

-- +goose Up
CREATE TABLE service_secrets (
    name       text        PRIMARY KEY,
    secret     bytea       NOT NULL,
    created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    CONSTRAINT service_secrets_secret_check CHECK (octet_length(secret) >= 32)
);
COMMENT ON TABLE service_secrets IS 'Keys the service made once, shared by every instance on this database (cluster_cursor signs the cursors of GET /v1/clusters). Deleting a row makes the instances started afterwards make a new key; cursors signed with the old one are then refused.';

CREATE TABLE editor_sessions (
    token_hash   bytea       PRIMARY KEY,
    editor       text        NOT NULL,
    key_id       text        NOT NULL,
    started_at   timestamptz NOT NULL DEFAULT clock_timestamp(),
    last_seen_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    expires_at   timestamptz NOT NULL,
    CONSTRAINT editor_sessions_token_hash_check CHECK (octet_length(token_hash) = 32),
    CONSTRAINT editor_sessions_editor_check CHECK (char_length(editor) BETWEEN 1 AND 100)
);
COMMENT ON TABLE editor_sessions IS 'The editors'' page sessions in force, under the SHA-256 of their tokens: signing out deletes the row; a session last seen longer ago than DEDUP_UI_IDLE_TIMEOUT, or past expires_at, is over.';
COMMENT ON COLUMN editor_sessions.key_id IS 'Which of DEDUP_API_KEYS signed the session in (an id derived from its hash, never the key), or open; the session ends when that key is withdrawn.';

-- +goose Down
DROP TABLE editor_sessions;
DROP TABLE service_secrets;
