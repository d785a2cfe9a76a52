-- Sessions bounded (issue 44): a sign-in ends the editor's oldest sessions
-- beyond a cap, and everyone's oldest beyond a total, and deletes the
-- sessions that have ended. Each of those is a range of an index, not a walk
-- of the table per sign-in.

-- +goose Up
CREATE INDEX editor_sessions_editor_started ON editor_sessions (editor, started_at);
CREATE INDEX editor_sessions_started ON editor_sessions (started_at);
CREATE INDEX editor_sessions_expires ON editor_sessions (expires_at);
CREATE INDEX editor_sessions_last_seen ON editor_sessions (last_seen_at);

-- +goose Down
DROP INDEX editor_sessions_last_seen;
DROP INDEX editor_sessions_expires;
DROP INDEX editor_sessions_started;
DROP INDEX editor_sessions_editor_started;
