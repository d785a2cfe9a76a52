package service

import (
	"math"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// Options tune one dedup decision. A request may set any of them; the rest
// come from the service's defaults.
type Options struct {
	// MaxDistance is the largest Hamming distance of a near duplicate, 0–3.
	// The block index finds every match up to 3 and cannot promise more.
	MaxDistance int
	// MinOverlap is the smallest share of the shorter text a match shares
	// with the article it links to (Similarity.Overlap), and of both texts a
	// near duplicate shares (LongerOverlap too; rules_near.go), 0–1.
	MinOverlap float64
	// MinWordRatio is the smallest shared-word ratio of a near duplicate, 0–1
	// (Similarity.WordRatio). Vocabulary cannot tell the same story from the
	// same topic; it is 0, no condition, unless a request sets it.
	MinWordRatio float64
	// Window limits near duplicates to articles published within this long of
	// the article; 0 means no limit. Exact duplicates are found at any time.
	Window time.Duration
	// Limit is the most matches a verdict lists, 1–1000.
	Limit int
	// SharedSentences, for a check, asks for the sentences the article
	// shares with stored articles (Verdict.SharedSentences), from all
	// stored news, at most Limit articles.
	SharedSentences bool
	// AllowIncomplete, for a check, asks for a verdict from the sentence
	// partitions that answer when one does not (Verdict.MissingPartitions)
	// rather than KindUnavailable (check_incomplete.go).
	AllowIncomplete bool
}

// MaxLimit is the most matches a verdict may list.
const MaxLimit = 1000

// maxWindowHours keeps window arithmetic far from time.Duration's overflow
// (about 292 years) while allowing any window a newsroom could want.
const maxWindowHours = 100 * 365 * 24

// DefaultOptions are the options when neither the configuration nor the
// request says otherwise. MinOverlap was chosen by the evaluation on real
// news (docs/evaluation.md).
var DefaultOptions = Options{
	MaxDistance:  3,
	MinOverlap:   0.5,
	MinWordRatio: 0,
	Window:       168 * time.Hour,
	Limit:        10,
}

// Validate reports the first option out of range, naming it as the API does.
func (o Options) Validate() error {
	switch {
	case o.MaxDistance < 0 || o.MaxDistance > fingerprint.MaxIndexedDistance:
		return Invalid("max_distance", "must be between 0 and %d (the index finds every match up to %d bits), not %d",
			fingerprint.MaxIndexedDistance, fingerprint.MaxIndexedDistance, o.MaxDistance)
	case math.IsNaN(o.MinOverlap) || o.MinOverlap < 0 || o.MinOverlap > 1:
		return Invalid("min_overlap", "must be between 0 and 1, not %v", o.MinOverlap)
	case math.IsNaN(o.MinWordRatio) || o.MinWordRatio < 0 || o.MinWordRatio > 1:
		return Invalid("min_word_ratio", "must be between 0 and 1, not %v", o.MinWordRatio)
	case o.Window < 0:
		return Invalid("window_hours", "must not be negative")
	case o.Window > maxWindowHours*time.Hour:
		return Invalid("window_hours", "must be at most %d", maxWindowHours)
	case o.Limit < 1 || o.Limit > MaxLimit:
		return Invalid("limit", "must be between 1 and %d, not %d", MaxLimit, o.Limit)
	}
	return nil
}

// WindowHoursOption converts a window in hours, as the API and the
// configuration give it, into a Duration, refusing values out of range.
func WindowHoursOption(hours float64) (time.Duration, error) {
	if math.IsNaN(hours) || hours < 0 {
		return 0, Invalid("window_hours", "must be a number of hours, 0 or more")
	}
	if hours > maxWindowHours {
		return 0, Invalid("window_hours", "must be at most %d", maxWindowHours)
	}
	// Rounded up: a tiny positive window stays a window, never "none".
	return time.Duration(math.Ceil(hours * float64(time.Hour))), nil
}
