package service

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// decision is the dedup decision before it is stored.
type decision struct {
	status  Status
	best    *Match // the match the article links to; nil when unique
	matches []Match
}

// scope limits the stored articles a fingerprint is judged against.
type scope struct {
	exclude int64     // an article left out (the one judged, or one leaving); 0 for none
	before  time.Time // only articles ingested before this; zero for all
	self    int64     // the stored article judged, whose editors' separations apply; 0 for a new one
	// unlocked are the sentences of the article judged that its writer
	// left unlocked as known boilerplate, for judge to confirm
	// (boilerplate_locks.go); nil when it holds no lock.
	unlocked []uint64
}

// judge finds the stored copies and near duplicates of a fingerprint within
// scope and decides; a near duplicate that only boilerplate sentences join
// to it is none (boilerplate.go). When there is none, it looks for the
// article it is a partial duplicate of (partial.go). Both steps read the
// sentence index: the boilerplate check only how many stored sentences
// match each of the article's, the partial step the matches themselves.
// Either way it leaves out the articles an editor separated from the
// article judged (sc.self). It also returns how many candidates the
// article index query gave.
func (s *Service) judge(ctx context.Context, r Reader, fp fingerprint.Fingerprint, published time.Time,
	sc scope, opts Options) (decision, int, error) {
	reads, err := readInTurn(ctx, r, fp, published, sc, opts, false)
	if err != nil {
		return decision{}, 0, err
	}
	return s.judgeFrom(ctx, r, fp, published, sc, opts, reads)
}

// judgeFrom is judge's decision from what it reads first (judgeReads).
func (s *Service) judgeFrom(ctx context.Context, r Reader, fp fingerprint.Fingerprint, published time.Time,
	sc scope, opts Options, reads judgeReads) (decision, int, error) {
	exactKept, nearKept := reads.apart.drop(reads.exact), reads.apart.drop(reads.near)
	d := decide(fp, exactKept, nearKept, opts)
	checkBoilerplate := needsBoilerplateCheck(fp, d)
	if !checkBoilerplate && (d.best != nil || len(fp.Sentences) == 0) {
		return d, len(reads.near), nil
	}
	// A near match needs only its sentences' holder counts, to tell
	// boilerplate (the check only takes matches away); an article left
	// without a match needs the matches, for the partial step, and reads
	// them first: its holders are then counted in them.
	if !checkBoilerplate {
		if _, err := reads.sentences(); err != nil {
			return decision{}, 0, err
		}
	}
	counted, err := reads.holders()
	if err != nil {
		return decision{}, 0, err
	}
	s.boilerplate.learn(fp, counted)
	if err := s.boilerplate.confirm(fp, counted, sc.unlocked); err != nil {
		return decision{}, 0, err
	}
	if checkBoilerplate {
		d = redecide(fp, d, exactKept, nearKept, counted, opts)
	}
	if d.best == nil {
		found, err := reads.sentences()
		if err != nil {
			return decision{}, 0, err
		}
		if d, err = s.judgePartial(ctx, r, fp, found, published, sc, opts, reads.apart); err != nil {
			return decision{}, 0, err
		}
	}
	return d, len(reads.near), nil
}

// exactQuery asks for the stored copies of fp within sc.
func exactQuery(fp fingerprint.Fingerprint, sc scope) ExactQuery {
	return ExactQuery{ContentHash: fp.ContentHash, Version: fp.Version, ExcludeID: sc.exclude, Before: sc.before, Limit: CandidateCap}
}

// nearQuery asks for the stored near duplicates of fp within sc and opts'
// window around published.
func nearQuery(fp fingerprint.Fingerprint, published time.Time, sc scope, opts Options) NearQuery {
	from, to := window(published, opts)
	return NearQuery{
		Simhash:     fp.Simhash,
		Version:     fp.Version,
		MaxDistance: opts.MaxDistance,
		From:        from,
		To:          to,
		ExcludeID:   sc.exclude,
		Before:      sc.before,
		Limit:       CandidateCap,
	}
}

// compareBool orders false before true.
func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// decide judges a fingerprint against the stored articles with the same text
// (exact) and the index's candidates (near). A candidate is a match when it
// is within opts.MaxDistance bits and shares at least opts.MinOverlap of the
// shorter text and opts.MinWordRatio of the words; a near duplicate when it
// shares most of both texts too, else a partial duplicate with its coverage
// (near.go). An exact duplicate links to the first stored copy; a near
// duplicate to its closest match (fewest differing bits, then most shared
// text, then most shared words, then the earliest); a partial duplicate,
// when no match is near, to its closest one.
func decide(fp fingerprint.Fingerprint, exact, near []Candidate, opts Options) decision {
	seen := make(map[int64]bool, len(exact)+len(near))
	var matches []Match
	for _, c := range exact {
		seen[c.ID] = true
		matches = append(matches, newMatch(fp, c, true))
	}
	for _, c := range near {
		if seen[c.ID] {
			continue
		}
		m := newMatch(fp, c, false)
		if !linkedByFingerprint(m.Similarity, opts) {
			continue
		}
		if !nearEnough(m.Similarity, opts) {
			this, that := fingerprint.Coverage(fp.Shingles, c.Shingles)
			m.partial, m.Coverage = true, Coverage{This: this, That: that}
		}
		matches = append(matches, m)
	}
	slices.SortFunc(matches, func(a, b Match) int {
		return cmp.Or(
			compareBool(a.partial, b.partial),
			cmp.Compare(a.Distance, b.Distance),
			-compareBool(a.exact, b.exact),
			-cmp.Compare(a.Overlap, b.Overlap),
			-cmp.Compare(a.WordRatio, b.WordRatio),
			cmp.Compare(a.ID, b.ID),
		)
	})

	// Exact copies sort first (distance 0, exact before near, then by id),
	// partial ones last, so the best match is always the first.
	d := decision{status: StatusUnique, matches: matches}
	if len(matches) > 0 {
		d.best = &matches[0]
		switch {
		case d.best.exact:
			d.status = StatusExactDuplicate
		case d.best.partial:
			d.status = StatusPartialDuplicate
		default:
			d.status = StatusNearDuplicate
		}
	}
	if len(d.matches) > opts.Limit {
		d.matches = d.matches[:opts.Limit]
	}
	return d
}

func newMatch(fp fingerprint.Fingerprint, c Candidate, exact bool) Match {
	return Match{
		ID:          c.ID,
		ExternalID:  c.ExternalID,
		Source:      c.Source,
		Title:       c.Title,
		PublishedAt: c.PublishedAt,
		Similarity:  similarity(fp, c.Simhash, c.Words, c.Shingles),
		simhash:     c.Simhash,
		contentHash: c.ContentHash,
		clusterID:   c.ClusterID,
		exact:       exact,
	}
}
