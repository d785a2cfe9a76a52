package service

import "github.com/newsdedup/newsdedup/service/fingerprint"

// arrival is an article of a group: what was sent, its fingerprint, and
// once stored, its verdict, or the error it met.
type arrival struct {
	in      *ArticleInput
	fp      fingerprint.Fingerprint
	opts    Options
	verdict Verdict
	err     error
	lockSet []LockKey // locks' result, once computed
	// setAside: the item was left for the batch's next group once
	// (locks_held.go), and is not again.
	setAside bool
	// stored: the key held an article when the batch began. A group is all
	// stored keys or all new ones, so that a batch sent again after its
	// deadline answers the stored ones on their own (article by article,
	// cheaply) and the new ones still go in groups: a resend makes progress.
	stored bool

	// unlocked are the sentences the current attempt to store the group
	// left unlocked as known boilerplate (locks_boilerplate.go).
	unlocked []uint64
}

// locks are the locks an item may take, known boilerplate included: what
// the group's budget counts.
func (it *arrival) locks() []LockKey {
	if it.lockSet == nil {
		it.lockSet, _ = it.lockPlan(nil)
	}
	return it.lockSet
}

// lockPlan is what an item locks, its key and its content, and the
// sentences it leaves unlocked as boilerplate known (contentLocks).
func (it *arrival) lockPlan(known *knownBoilerplate) (locks []LockKey, unlocked []uint64) {
	content, unlocked := contentLocks(it.fp, known)
	return append([]LockKey{keyLock(it.in.Source, it.in.ExternalID)}, content...), unlocked
}

func (it *arrival) key() ArticleKey {
	return ArticleKey{Source: it.in.Source, ExternalID: it.in.ExternalID}
}
