package service

import (
	"sync/atomic"
)

// Group size and PostgreSQL's lock table. A group takes every lock of its
// articles in one transaction — each article's key, its four family-A
// blocks and one lock per distinct sentence, about 36 for a news article
// with the sentence index — and PostgreSQL keeps every lock held in one
// table shared by all its sessions, max_locks_per_transaction ×
// (max_connections + max_prepared_transactions) entries (6,400 by default):
// a transaction that finds it full fails with "out of shared memory".
//
// So groups are bounded twice. At most groupWriters groups are stored at
// once (a batch request and the combiner's leaders wait for a turn, before
// their transaction begins, holding nothing), and together they may hold at
// most a quarter of the server's lock table, read from the server the first
// time a group is stored: 800 locks a group with the defaults and two
// writers, about 22 news articles with the sentence index. Until the
// table's size is known, and whenever the server cannot say, a group holds
// at most defaultGroupLockBudget. Larger groups make ingest no faster
// (docs/design-notes.md, "service: group size and the lock budget").
const (
	defaultGroupLockBudget = 256
	maxGroupLockBudget     = 2048
	// lockTableShare: the groups together hold at most 1/lockTableShare of
	// the lock table; single ingests, the editors' page and any other
	// client of the server keep the rest.
	lockTableShare = 4
)

// groupWriters is how many groups may be stored at once: no fewer than
// two, so that one group's commit overlaps the next one's judging. More
// measured within the noise (docs/design-notes.md, "service: group writers").
func groupWriters(workers int) int { return max(2, workers) }

// lockBudget holds the group lock budget once the server's lock table is
// known; 0 until then.
type lockBudget struct{ known atomic.Int64 }

// budgetFor is the lock budget of one group, given the server's lock table
// size and how many groups are stored at once.
func budgetFor(lockTable, writers int) int {
	b := lockTable / lockTableShare / writers
	return min(max(b, 1), maxGroupLockBudget)
}
