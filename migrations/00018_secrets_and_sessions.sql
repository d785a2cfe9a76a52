-- The state the instances of dedupd on one database share, beyond the
-- articles and the editors' decisions:
--
--  * service_secrets holds keys the service makes once and every instance
--    reads: the key that signs the list of clusters' cursors (cluster_cursor),
--    so that one instance accepts another's cursors and a restart breaks no
--    client's paging. The first instance to need a key stores a random one;
--    the others read it.

-- +goose Up
CREATE TABLE service_secrets (
    name       text        PRIMARY KEY,
    secret     bytea       NOT NULL,
    created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    CONSTRAINT service_secrets_secret_check CHECK (octet_length(secret) >= 32)
);
COMMENT ON TABLE service_secrets IS 'Keys the service made once, shared by every instance on this database (cluster_cursor signs the cursors of GET /v1/clusters). Deleting a row makes the instances started afterwards make a new key; cursors signed with the old one are then refused.';

-- +goose Down
DROP TABLE service_secrets;
