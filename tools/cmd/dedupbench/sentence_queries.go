package main

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// The kinds of article the section looks up: a stored article sent again,
// two near copies of stored ones (internal/corpus's edits, which work on
// any Chinese text: a repost's byline and half-width punctuation, one
// sentence dropped), and an article the index does not hold.
const (
	sentenceKindStored   = "stored"
	sentenceKindLight    = "light edit"
	sentenceKindDropped  = "sentence dropped"
	sentenceKindUnstored = "unstored"
)

// sentenceKinds lists the kinds in the order the report gives them.
var sentenceKinds = []string{sentenceKindStored, sentenceKindLight, sentenceKindDropped, sentenceKindUnstored}

// The service's sentence query settings, unexported in service/sentences.go
// (sentenceMaxDistance, and boilerplateArticles as the per-sentence limit):
// the same values here.
const (
	serviceSentenceMaxDistance = 3
	serviceSentencePerSentence = 20
)

// sentenceLookup is one article to look up: the service's statement and
// arguments for its sentences.
type sentenceLookup struct {
	Kind      string
	StoredID  int64 // the stored article whose text it is, for kind stored; else 0
	Sentences int
	SQL       string
	Args      []any
}

// sentenceQueries makes cfg.sentenceQueries lookups, the kinds in turn,
// each article fingerprinted as the service fingerprints it (sentences
// included) and its statement read off a traced repo.Store.
func sentenceQueries(ctx context.Context, cfg *config, alg fingerprint.Algorithm, novel *corpus.Novel, db *sentenceDB) ([]sentenceLookup, error) {
	st, err := newServiceStatement(ctx, db.URL)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	kinds := sentenceKinds
	if len(db.Unstored) == 0 {
		kinds = kinds[:len(kinds)-1]
	}
	rng := rand.New(rand.NewPCG(uint64(cfg.sentenceQueries), 11))
	var out []sentenceLookup
	// An article with no indexed sentence asks the index nothing (the
	// service skips the lookup): such draws are passed over, within reason.
	for try := 0; len(out) < cfg.sentenceQueries && try < 10*cfg.sentenceQueries; try++ {
		q := sentenceLookup{Kind: kinds[try%len(kinds)]}
		var a corpus.Article
		if q.Kind == sentenceKindUnstored {
			it := db.Unstored[rng.IntN(len(db.Unstored))]
			a = corpus.Article{Title: it.Title, Body: it.Body}
		} else {
			it := db.Stored[rng.IntN(len(db.Stored))]
			a = corpus.Article{Title: it.Title, Body: it.Body}
			switch q.Kind {
			case sentenceKindStored:
				q.StoredID = db.StoredID[it.ExternalID]
			case sentenceKindLight:
				a = novel.Apply(rng, a, corpus.Light)
			case sentenceKindDropped:
				a = novel.Apply(rng, a, corpus.SentenceDropped)
			}
		}
		// As the service fingerprints a plain-text article (its unexported
		// Service.fingerprint): a Document of the title and the body.
		fp, err := alg.Fingerprint(ctx, fingerprint.Document{Title: a.Title, Body: a.Body})
		if err != nil || len(fp.Sentences) == 0 {
			continue
		}
		q.Sentences = len(fp.Sentences)
		if q.SQL, q.Args, err = st.sentences(ctx, fp); err != nil {
			return nil, err
		}
		out = append(out, q)
	}
	if len(out) < cfg.sentenceQueries {
		return nil, fmt.Errorf("only %d of %d query articles have indexed sentences", len(out), cfg.sentenceQueries)
	}
	return out, nil
}

// sentences returns the statement and arguments the service runs to look
// up fp's sentences for an article being checked or ingested (no article
// to exclude).
func (s *serviceStatement) sentences(ctx context.Context, fp fingerprint.Fingerprint) (string, []any, error) {
	_, err := s.store.SentenceMatches(ctx, service.SentenceQuery{
		Sentences:   fp.Sentences,
		MaxDistance: serviceSentenceMaxDistance,
		PerSentence: serviceSentencePerSentence,
	})
	if err != nil {
		return "", nil, fmt.Errorf("the service's sentence lookup: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sql, s.args, nil
}
