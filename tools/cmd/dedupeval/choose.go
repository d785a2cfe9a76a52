package main

// The goal the defaults are chosen for: on articles of 500 runes or more, a
// light repost (byline, editor's line, half-width punctuation) is caught
// with recall ≥ goalRecall at precision ≥ goalPrecision.
const (
	goalRecall    = 0.99
	goalPrecision = 0.99
)

// score is what the choice reads of one operating point.
type score struct {
	Point int
	// Light is the light reposts of 500 runes or more; Long every copy of
	// 500 runes or more but the exact ones (whose recall is 1 everywhere),
	// with the originals' pairs against each other as further negatives;
	// All the same over every length.
	Light, Long, All confusion
	// Load is the share of negative pairs that come back from the index
	// (within max_distance) only for the word measure to reject; 0 for
	// pg_trgm, whose index does its own filtering.
	Load float64
	// Margin tells whether the next lower threshold is precise too (or
	// there is none): a point at the very edge of precision is one a
	// slightly harder corpus, or real news, would push over it.
	Margin bool
	// WordCap is the most words the method keeps per article (its top N),
	// 0 for every word. The service stores every article's word set and
	// reads the sets of all index candidates: a smaller one costs less disk
	// and less time per lookup.
	WordCap int
}

// f1Tie is the F1 difference below which two points count as equally good:
// a copy or two in the ~2,700 of the corpus, below what this corpus can tell.
const f1Tie = 0.005

// lighterWords reports whether a keeps fewer words per article than b.
func lighterWords(a, b score) bool {
	switch {
	case a.WordCap == b.WordCap:
		return false
	case a.WordCap == 0:
		return false
	case b.WordCap == 0:
		return true
	}
	return a.WordCap < b.WordCap
}

// scoreAt scores operating point i of ts. load is the candidate load of the
// method, the same at every point with max_distance 3.
func scoreAt(ts tallies, i int, load float64) score {
	return score{
		Point: i,
		Light: ts.at(longEdit("light"), i),
		Long:  ts.at(longCopies, i),
		All:   ts.at(copies, i),
		Load:  load,
	}
}

func longCopies(k groupKey) bool { return bands[k.Band].Long && k.Edit != editExact }

func copies(k groupKey) bool { return k.Edit != editExact }

// Goal tells whether the point meets the goal, and keeps precision at the
// same level over all copies, long and of every length.
func (s score) Goal() bool {
	return s.Light.Recall() >= goalRecall && s.precise()
}

func (s score) precise() bool {
	return s.Light.Precision() >= goalPrecision && s.Long.Precision() >= goalPrecision && s.All.Precision() >= goalPrecision
}

// better reports whether a is the better choice than b. Meeting the goal
// comes first; then, among points that meet it, the best F1 over every copy
// of every length (the service stores short articles as well: a point that
// catches the other edits too is better, unless it pays in precision), then
// the best F1 over the long copies — each by more than f1Tie — then the
// smaller word set per article, then the exact F1, then the lighter
// candidate load. Before
// F1 comes the margin: a point whose next lower threshold is precise too. Among points that miss
// it, precise points come first, then the one that catches most light
// reposts. A tie keeps b: the earlier candidate (the simpler setting) wins.
func better(a, b score) bool {
	if a.Goal() != b.Goal() {
		return a.Goal()
	}
	if a.Margin != b.Margin {
		return a.Margin
	}
	if !a.Goal() {
		if a.precise() != b.precise() {
			return a.precise()
		}
		if lr, br := a.Light.Recall(), b.Light.Recall(); lr != br {
			return lr > br
		}
	}
	if af, bf := a.All.F1(), b.All.F1(); af-bf >= f1Tie || bf-af >= f1Tie {
		return af > bf
	}
	if af, bf := a.Long.F1(), b.Long.F1(); af-bf >= f1Tie || bf-af >= f1Tie {
		return af > bf
	}
	if a.WordCap != b.WordCap {
		return lighterWords(a, b)
	}
	if af, bf := a.All.F1(), b.All.F1(); af != bf {
		return af > bf
	}
	return a.Load < b.Load
}

// bestOf returns the best of the scores by better, the first on a tie. The
// scores are one method's, by increasing threshold: bestOf sets their
// margins.
func bestOf(scores []score) score {
	for i := range scores {
		scores[i].Margin = i == 0 || scores[i-1].precise()
	}
	best := scores[0]
	for _, s := range scores[1:] {
		if better(s, best) {
			best = s
		}
	}
	return best
}

// bestSimhash returns the best point of a simhash method for one word
// measure, at max_distance 3 (the index's most: a lower one only loses
// recall the ratio could have kept, and does not make the index cheaper).
func bestSimhash(r simhashResult, measure int) score {
	load := r.nearNegatives(long).FalsePositiveRate()
	scores := make([]score, 0, ratioSteps)
	for ri := range ratioSteps {
		s := scoreAt(r.Tallies, simPoint(measure, maxK, ri), load)
		s.WordCap = r.Method.TopN
		scores = append(scores, s)
	}
	return bestOf(scores)
}

// bestTrgm returns the best pg_trgm threshold by the same rule.
func bestTrgm(ts tallies) score {
	scores := make([]score, 0, len(trgmThresholds))
	for i := range trgmThresholds {
		scores = append(scores, scoreAt(ts, i, 0))
	}
	return bestOf(scores)
}

// recommendation is the chosen simhash method and operating point.
type recommendation struct {
	Method  int // index into the simhash results
	Measure int
	Score   score
}

// recommend picks, over every simhash method and word measure, the best
// point by better. The service's own measure (the shared-word ratio) is
// tried first, so Jaccard is only recommended where it does strictly better.
func recommend(results []simhashResult) recommendation {
	var best recommendation
	first := true
	for _, m := range []int{measureRatio, measureJaccard} {
		for i, r := range results {
			s := bestSimhash(r, m)
			if first || better(s, best.Score) {
				best = recommendation{Method: i, Measure: m, Score: s}
				first = false
			}
		}
	}
	return best
}
