package main

import (
	"encoding/json"
	"os"
	"regexp"
	"time"
	"unicode/utf8"
)

// The raw figures, for anyone who wants a cut the report does not show:
// every group's pair counts at every operating point. Precision, recall and
// F1 of any set of groups follow from summing their counts.

type jsonDoc struct {
	Generated      string            `json:"generated"`
	Command        string            `json:"command"`
	Machine        machine           `json:"machine"`
	ElapsedSeconds float64           `json:"elapsed_seconds"`
	Goal           map[string]any    `json:"goal"`
	Corpus         jsonCorpus        `json:"corpus"`
	Points         jsonPoints        `json:"operating_points"`
	Recommended    map[string]any    `json:"recommended"`
	Simhash        []jsonMethod      `json:"simhash"`
	Concentrations []concentration   `json:"concentration"`
	Trgm           *jsonTrgm         `json:"pg_trgm,omitempty"`
	Notes          map[string]string `json:"notes"`
}

type jsonCorpus struct {
	Bands     []jsonBand `json:"bands"`
	Edits     []string   `json:"edits"`
	Stored    int        `json:"stored"`
	Queries   int        `json:"queries"`
	Pairs     int        `json:"pairs"`
	Positives int        `json:"duplicate_pairs"`
	// Unapplied are the copies left out, per edit, because the edit could
	// not apply; Sentences the novel's, of which the first UniqueSentences
	// come before it repeats itself.
	Unapplied       map[string]int `json:"copies_left_out"`
	Sentences       int            `json:"novel_sentences"`
	UniqueSentences int            `json:"sentences_before_repeat"`
}

type jsonBand struct {
	band
	Originals int `json:"originals"`
	MeanRunes int `json:"mean_runes"`
	MinSeen   int `json:"shortest"`
	MaxSeen   int `json:"longest"`
}

type jsonPoints struct {
	Simhash      string    `json:"simhash"`
	Measures     []string  `json:"measures"`
	MaxDistance  []int     `json:"max_distance"`
	MinWordRatio []float64 `json:"min_word_ratio"`
	Trgm         string    `json:"pg_trgm"`
	Thresholds   []float64 `json:"thresholds"`
}

type jsonMethod struct {
	simhashMethod
	Shipped            bool        `json:"shipped_default"`
	FingerprintSeconds float64     `json:"fingerprint_seconds"`
	NoWords            int         `json:"texts_without_words"`
	Groups             []jsonGroup `json:"groups"`
}

type jsonGroup struct {
	Band      string `json:"band"`
	Edit      string `json:"edit"`
	Pairs     int    `json:"pairs"`
	Positives int    `json:"duplicates"`
	TP        []int  `json:"tp"`
	FP        []int  `json:"fp"`
}

type jsonTrgm struct {
	Server          string       `json:"server"`
	Locale          string       `json:"lc_ctype"`
	AllPairsSeconds float64      `json:"all_pairs_seconds"`
	Lookups         []jsonLookup `json:"lookups"`
	Groups          []jsonGroup  `json:"groups"`
}

type jsonLookup struct {
	Threshold float64 `json:"threshold"`
	Rows      int     `json:"rows"`
	IndexMs   float64 `json:"index_build_ms,omitempty"`
	ShortN    int     `json:"short_queries"`
	ShortMed  float64 `json:"short_median_ms"`
	ShortP90  float64 `json:"short_p90_ms"`
	LongN     int     `json:"long_queries"`
	LongMed   float64 `json:"long_median_ms"`
	LongP90   float64 `json:"long_p90_ms"`
}

func groupsJSON(ts tallies) []jsonGroup {
	var out []jsonGroup
	for _, k := range ts.keys() {
		t := ts[k]
		out = append(out, jsonGroup{Band: bands[k.Band].Name, Edit: k.Edit, Pairs: t.Pairs, Positives: t.Positives, TP: t.TP, FP: t.FP})
	}
	return out
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// writeJSON writes the raw figures of ev to path.
func writeJSON(path string, ev *evaluation) error {
	doc := jsonDoc{
		Generated:      ev.Started.Format(time.DateOnly),
		Command:        ev.Command,
		Machine:        ev.Machine,
		ElapsedSeconds: ev.Elapsed.Round(time.Second).Seconds(),
		Goal:           map[string]any{"edit": "light", "min_runes": 500, "recall": goalRecall, "precision": goalPrecision},
		Corpus: jsonCorpus{
			Edits: copyEdits(), Stored: len(ev.Corpus.Originals), Queries: ev.Queries, Pairs: ev.Pairs, Positives: ev.Positives,
			Unapplied: ev.Corpus.Unapplied, Sentences: ev.Corpus.Sentences, UniqueSentences: ev.Corpus.UniqueSentences,
		},
		Points: jsonPoints{
			Simhash:      "tp and fp hold one count per point; the point of (measure m, max_distance k, min_word_ratio step i, r = i/10) is at index (m*4 + k)*11 + i",
			Measures:     measures[:],
			MaxDistance:  []int{0, 1, 2, 3},
			MinWordRatio: []float64{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1},
			Trgm:         "tp and fp hold one count per threshold, in order: similarity(query.body, stored.body) ≥ threshold",
			Thresholds:   trgmThresholds,
		},
		Concentrations: ev.Concentrations,
		Notes: map[string]string{
			"groups":     "queries are grouped by the band of their original and the edit that made them; edit \"none\" is each original queried against the other originals (negatives only)",
			"duplicates": "a pair is a duplicate when the stored original is the one the query was made from; fn = duplicates - tp, tn = pairs - duplicates - fp",
		},
	}
	for b, bd := range bands {
		jb := jsonBand{band: bd}
		total := 0
		for _, o := range ev.Corpus.Originals {
			if o.Band != b {
				continue
			}
			r := utf8.RuneCountInString(o.Body)
			if jb.Originals == 0 || r < jb.MinSeen {
				jb.MinSeen = r
			}
			jb.MaxSeen = max(jb.MaxSeen, r)
			jb.Originals++
			total += r
		}
		if jb.Originals > 0 {
			jb.MeanRunes = total / jb.Originals
		}
		doc.Corpus.Bands = append(doc.Corpus.Bands, jb)
	}
	rec, s := ev.recommended(), ev.Recommended.Score
	doc.Recommended = map[string]any{
		"method": rec.Method.Name, "measure": measures[ev.Recommended.Measure], "max_distance": maxK,
		"min_word_ratio": ratioAt(s.Point % ratioSteps), "goal_met": s.Goal(),
		"light_500_recall": s.Light.Recall(), "light_500_precision": s.Light.Precision(),
	}
	for _, r := range ev.Simhash {
		doc.Simhash = append(doc.Simhash, jsonMethod{
			simhashMethod: r.Method, Shipped: r.Method.isDefault(),
			FingerprintSeconds: r.Fingerprint.Round(time.Millisecond).Seconds(), NoWords: r.NoWords,
			Groups: groupsJSON(r.Tallies),
		})
	}
	if t := ev.Trgm; t != nil {
		doc.Trgm = &jsonTrgm{
			Server: t.Server, Locale: t.Locale, AllPairsSeconds: t.AllPairs.Round(time.Millisecond).Seconds(),
			Groups: groupsJSON(t.Tallies),
		}
		for _, l := range t.Lookups {
			doc.Trgm.Lookups = append(doc.Trgm.Lookups, jsonLookup{
				Threshold: l.Threshold, Rows: l.Rows, IndexMs: ms(l.Index),
				ShortN: len(l.Short), ShortMed: ms(median(l.Short)), ShortP90: ms(percentile(l.Short, 90)),
				LongN: len(l.Long), LongMed: ms(median(l.Long)), LongP90: ms(percentile(l.Long, 90)),
			})
		}
	}
	data, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	data = numberArray.ReplaceAllFunc(data, func(m []byte) []byte { return whitespace.ReplaceAll(m, nil) })
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// numberArray matches an indented JSON array of numbers, which
// writeJSON puts on one line to keep the file readable.
var (
	numberArray = regexp.MustCompile(`\[[-0-9.,eE\s]*\]`)
	whitespace  = regexp.MustCompile(`\s+`)
)
