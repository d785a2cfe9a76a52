package service

import (
	"slices"
	"sync"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// Boilerplate takes no lock. A writer locks each sentence of its article
// so that an article sharing one with it, arriving at the same instant,
// sees it (locks.go). A boilerplate sentence — a portal's footer, an app
// promotion, held by boilerplateArticles articles or more — needs no such
// lock: it links nothing, its shingles are taken out of both sides
// (rules_boilerplate.go), and an article more holding it leaves it boilerplate,
// so whether a writer sees the other changes nothing in its verdict. Yet
// its lock is the one every group of a portal's articles takes: on real
// news one article in seven holds one, so nearly every group of twenty
// does, and concurrent groups waited for each other on it.
//
// The service remembers the sentences it has found boilerplate by their
// exact text alone (knownBoilerplate), and a writer leaves their locks out.
// It does not rely on the memory: after its locks, judge confirms that each
// sentence left unlocked is still boilerplate in what it reads (a
// boilerplate sentence can stop being one only when articles holding it
// are deleted). If one is not, the service forgets it and the transaction
// runs again, taking its lock (KindConflict, which withRetry retries).

// maxKnownBoilerplate bounds the memory: on real news 42 sentences of
// 422,000 are boilerplate. When it is full, no more are remembered: their
// locks are taken, as before.
const maxKnownBoilerplate = 1 << 14

// knownBoilerplate is the set of sentences, by exact hash, found to be
// boilerplate. Its zero value is empty and ready; it is safe for
// concurrent use.
type knownBoilerplate struct {
	mu     sync.RWMutex
	hashes map[uint64]struct{}
}

// has reports whether the sentence with this exact hash is known to be
// boilerplate.
func (k *knownBoilerplate) has(textHash uint64) bool {
	k.mu.RLock()
	defer k.mu.RUnlock()
	_, ok := k.hashes[textHash]
	return ok
}

// learn remembers the sentences of fp that their holders in the sentence
// index show to be boilerplate by their exact text alone: held, with the
// same text, by boilerplateArticles articles with fp's. Counted so, a
// sentence is boilerplate for every article holding its text, whatever its
// simhash.
func (k *knownBoilerplate) learn(fp fingerprint.Fingerprint, holders []Holders) {
	var learnt []uint64
	for i, h := range holders {
		if boilerplateHolders(h.SameText) && !storySentence(h) && !k.has(fp.Sentences[i].TextHash) {
			learnt = append(learnt, fp.Sentences[i].TextHash)
		}
	}
	if len(learnt) == 0 {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.hashes == nil {
		k.hashes = make(map[uint64]struct{})
	}
	for _, h := range learnt {
		if len(k.hashes) < maxKnownBoilerplate {
			k.hashes[h] = struct{}{}
		}
	}
}

// remember adds the sentence with this exact hash, unless the set is
// full.
func (k *knownBoilerplate) remember(textHash uint64) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.hashes == nil {
		k.hashes = make(map[uint64]struct{})
	}
	if len(k.hashes) < maxKnownBoilerplate {
		k.hashes[textHash] = struct{}{}
	}
}

// confirm checks that the sentences of fp its writer left unlocked, as
// known boilerplate, are boilerplate by their holders, counted by judge
// after its locks. If one is not, it is forgotten, and confirm returns
// KindConflict: the transaction must run again and lock it.
func (k *knownBoilerplate) confirm(fp fingerprint.Fingerprint, holders []Holders, unlocked []uint64) error {
	if len(unlocked) == 0 {
		return nil
	}
	var stale []uint64
	for i, boilerplate := range isBoilerplate(holders) {
		if h := fp.Sentences[i].TextHash; !boilerplate && slices.Contains(unlocked, h) {
			stale = append(stale, h)
		}
	}
	if len(stale) == 0 {
		return nil
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, h := range stale {
		delete(k.hashes, h)
	}
	return &Error{Kind: KindConflict, Message: "a sentence left unlocked as boilerplate is no longer boilerplate"}
}
