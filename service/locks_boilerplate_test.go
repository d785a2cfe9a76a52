package service

import (
	"errors"
	"slices"
	"testing"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// holders are n stored sentences matching query sentence q, each of its own
// article, with the exact hash textHash.
func holders(q int, textHash uint64, n int) []SentenceMatch {
	out := make([]SentenceMatch, n)
	for i := range out {
		out[i] = SentenceMatch{Query: q, ArticleID: int64(1000*q + i + 1), TextHash: textHash}
	}
	return out
}

func TestKnownBoilerplate(t *testing.T) {
	fp := fingerprint.Fingerprint{Sentences: []fingerprint.Sentence{{TextHash: 11}, {TextHash: 22}}}
	var known knownBoilerplate

	known.learn(fp, holdersIn(fp, holders(0, 11, boilerplateArticles-2)))
	if known.has(11) {
		t.Fatalf("learnt with %d holders, the article included; boilerplate needs %d", boilerplateArticles-1, boilerplateArticles)
	}
	// Near spellings count for the verdict, not for what is learnt: the
	// same text must be boilerplate for every article holding it.
	known.learn(fp, holdersIn(fp, append(holders(0, 11, 10), holders(0, 99, boilerplateArticles-11)...)))
	if !isBoilerplate(holdersIn(fp, append(holders(0, 11, 10), holders(0, 99, boilerplateArticles-11)...)))[0] {
		t.Fatal("the fixture: spellings together should make the sentence boilerplate")
	}
	if known.has(11) {
		t.Fatal("learnt from near spellings")
	}
	known.learn(fp, holdersIn(fp, holders(0, 11, boilerplateArticles-1)))
	if !known.has(11) || known.has(22) {
		t.Fatalf("after %d exact holders: has(11) %v, has(22) %v; want true, false", boilerplateArticles-1, known.has(11), known.has(22))
	}

	locks, unlocked := contentLocks(fp, &known)
	if !slices.Equal(unlocked, []uint64{11}) || slices.Contains(locks, SentenceLockKey(11)) || !slices.Contains(locks, SentenceLockKey(22)) {
		t.Fatalf("contentLocks: unlocked %v, locks %v; want 11 unlocked and 22 locked", unlocked, locks)
	}
	if all, none := contentLocks(fp, nil); none != nil || !slices.Contains(all, SentenceLockKey(11)) {
		t.Fatalf("contentLocks without known boilerplate: locks %v, unlocked %v; want every sentence locked", all, none)
	}

	if err := known.confirm(fp, nil, nil); err != nil {
		t.Fatalf("confirm with nothing unlocked: %v", err)
	}
	if err := known.confirm(fp, holdersIn(fp, holders(0, 11, boilerplateArticles)), unlocked); err != nil || !known.has(11) {
		t.Fatalf("confirm of a sentence still boilerplate: %v, known %v", err, known.has(11))
	}
	// Articles holding it were deleted: it is no longer boilerplate.
	err := known.confirm(fp, holdersIn(fp, holders(0, 11, 5)), unlocked)
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindConflict {
		t.Fatalf("confirm of a sentence no longer boilerplate: %v, want KindConflict", err)
	}
	if known.has(11) {
		t.Fatal("a sentence no longer boilerplate is still known")
	}
}
