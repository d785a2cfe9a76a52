package service

import (
	"slices"

	"github.com/cespare/xxhash/v2"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// Lock keys. A LockKey is one 64-bit PostgreSQL advisory lock key: its top
// byte says what the lock is for and the other 56 bits name the thing, so
// that no two kinds of lock share a key and an article id (which a cluster
// lock names) is never cut short.
//
// Every transaction that writes takes its key and block locks in ascending
// order of their keys — article keys first, then family-A blocks, which the
// spaces below order — and only then cluster locks, waiting only for a
// cluster lock above every cluster lock it holds (clusterLocks): so two
// writers never wait on each other in a circle.
type LockKey int64

// The kinds of lock, in the top byte of a LockKey, in the order they are
// taken.
const (
	lockSpaceKey      = 1
	lockSpaceBlockA   = 2 // +j for block A_j; the value is the 16-bit block
	lockSpaceSentence = 6 // the value is a sentence's exact hash
	lockSpaceCluster  = 8
)

const lockValueBits = 56

func lockKey(space int64, value uint64) LockKey {
	return LockKey(space<<lockValueBits | int64(value&(1<<lockValueBits-1)))
}

// keyLock serialises writers of one (source, external_id): retries of an
// article make one row.
func keyLock(source, externalID string) LockKey {
	return lockKey(lockSpaceKey, xxhash.Sum64String(source+"\x00"+externalID))
}

// blockLocks serialise writers of fingerprints that share a family-A block.
// Two fingerprints within distance 3 always share one, so two near
// duplicates arriving at the same instant are judged one after the other and
// the second sees the first. Unrelated articles almost never contend.
//
// The waits they cause, and locking pairs of blocks instead, measured:
// docs/design-notes.md, "service: block locks".
func blockLocks(h uint64) []LockKey {
	blocks := fingerprint.BlocksOf(h)
	keys := make([]LockKey, 0, len(blocks.A))
	for j, v := range blocks.A { // spaces ascending: already in lock order
		keys = append(keys, lockKey(lockSpaceBlockA+int64(j), uint64(v)))
	}
	return keys
}

// contentLocks are the locks of an article's content, in lock order: its
// family-A blocks, then its sentences. Two articles that share a sentence
// take that sentence's lock, so the second to arrive sees the first and can
// be judged its partial duplicate. The sentences known to be boilerplate
// (known; nil for none) take no lock (locks_boilerplate.go): they are
// returned apart, unlocked, for judge to confirm.
func contentLocks(fp fingerprint.Fingerprint, known *knownBoilerplate) (locks []LockKey, unlocked []uint64) {
	keys := blockLocks(fp.Simhash)
	sentences := make([]LockKey, 0, len(fp.Sentences))
	for _, s := range fp.Sentences {
		if known != nil && known.has(s.TextHash) {
			unlocked = append(unlocked, s.TextHash)
			continue
		}
		sentences = append(sentences, SentenceLockKey(s.TextHash))
	}
	slices.Sort(sentences)
	return append(keys, slices.Compact(sentences)...), unlocked
}

// SentenceLockKey is the advisory lock a writer takes for each sentence of
// its article with this exact hash (fingerprint.Sentence.TextHash), unless
// it knows the sentence to be boilerplate. An operator who holds it holds
// back every writer of an article with that sentence.
func SentenceLockKey(textHash uint64) LockKey {
	return lockKey(lockSpaceSentence, textHash)
}

// ClusterLockKey is the advisory lock that serialises changes to the cluster
// headed by article id: a member joining it, and a member leaving it (which
// judges the articles that link to the leaving one again). An operator who
// holds it (SELECT pg_advisory_xact_lock(key) in psql) holds back every
// writer of that cluster.
func ClusterLockKey(id int64) LockKey {
	return lockKey(lockSpaceCluster, uint64(id))
}

// Kind names what a lock key is for ("article key", "family-A block",
// "sentence", "cluster"), "" for a key of none of these: for the reports of
// what writers waited for (tools/cmd/dedupbench).
func (k LockKey) Kind() string {
	switch space := int64(k) >> lockValueBits; {
	case space == lockSpaceKey:
		return "article key"
	case space >= lockSpaceBlockA && space < lockSpaceBlockA+int64(len(fingerprint.Blocks{}.A)):
		return "family-A block"
	case space == lockSpaceSentence:
		return "sentence"
	case space == lockSpaceCluster:
		return "cluster"
	}
	return ""
}

// lockBusy is the lock a transaction gave up on; before it runs again,
// withRetry waits until that lock is free, holding no other.
type lockBusy struct{ key LockKey }

func (e lockBusy) Error() string { return "lock busy" }
