package service

import (
	"github.com/cespare/xxhash/v2"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// Lock spaces. Every transaction that writes takes its locks in this order —
// its article key, then its family-A blocks (sorted), then clusters — so two
// writers never wait on each other in a circle, except two rare replacements
// that each join the other's cluster, which the database detects and the
// service retries.
const (
	lockSpaceBlockA  int32 = 1 // +j for block A_j; the value is the 16-bit block
	lockSpaceKey     int32 = 10
	lockSpaceCluster int32 = 20
)

// keyLock serialises writers of one (source, external_id): retries of an
// article make one row.
func keyLock(source, externalID string) LockKey {
	h := xxhash.Sum64String(source + "\x00" + externalID)
	return LockKey{Space: lockSpaceKey, Value: int32(h)}
}

// blockLocks serialise writers of fingerprints that share a family-A block.
// Two fingerprints within distance 3 always share one, so two near
// duplicates arriving at the same instant are judged one after the other and
// the second sees the first. Unrelated articles almost never contend.
func blockLocks(h uint64) []LockKey {
	blocks := fingerprint.BlocksOf(h)
	keys := make([]LockKey, 0, len(blocks.A))
	for j, v := range blocks.A { // one key per space, spaces ascending: already in lock order
		keys = append(keys, LockKey{Space: lockSpaceBlockA + int32(j), Value: int32(v)})
	}
	return keys
}

// clusterLock serialises changes to one cluster: joining it, and handing it
// over when its canonical article leaves.
func clusterLock(canonicalID int64) LockKey {
	return LockKey{Space: lockSpaceCluster, Value: int32(canonicalID)}
}
