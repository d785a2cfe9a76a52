-- The cluster page offers to undo a split only while the split still has
-- separations (undoing removes them), and undoing one removes them: both
-- find a decision's separations through this index, not a walk of them all.

-- +goose Up
CREATE INDEX separations_decision_idx ON separations (decision_id);

-- +goose Down
DROP INDEX separations_decision_idx;
