package main

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"unicode/utf8"

	"github.com/newsdedup/newsdedup/internal/corpus"
)

// novelBand is a range of body lengths, in runes, that the novel's figures
// are grouped by.
type novelBand struct {
	Name     string `json:"name"`
	MinRunes int    `json:"min_runes"`
	MaxRunes int    `json:"max_runes"`
	// Share is the part of the novel (by sentences, from where the previous
	// band's part ends) that this band's originals are cut from.
	Share float64 `json:"share"`
	// Long tells whether the band counts towards the figures for articles of
	// 500 runes or more, the service's main case.
	Long bool `json:"long"`
}

// novelBands are the novel's length bands, shortest first. Each is cut from its own
// consecutive part of the novel, so no two originals share a sentence. The
// shares give every band a useful count while most of the novel goes to the
// long articles the goal is about.
var novelBands = []novelBand{
	{Name: "80–200", MinRunes: 80, MaxRunes: 200, Share: 0.08},
	{Name: "200–500", MinRunes: 200, MaxRunes: 500, Share: 0.15},
	{Name: "500–1000", MinRunes: 500, MaxRunes: 1000, Share: 0.30, Long: true},
	{Name: "1000–3000", MinRunes: 1000, MaxRunes: 3000, Share: 0.47, Long: true},
}

// editExact is the sanity row: a copy whose text is identical to the
// original's. Every method must find all of them.
const editExact = "exact"

// copyEdits are the kinds of copy made of every original: an exact copy and
// one copy per edit the corpus knows.
func copyEdits() []string {
	out := []string{editExact}
	for _, e := range corpus.AllEdits {
		out = append(out, string(e))
	}
	return out
}

// original is an article cut from the novel, with the band it belongs to.
type original struct {
	corpus.Article
	Band int
}

// labelledCopy is a copy of an original, made by one edit.
type labelledCopy struct {
	corpus.Article
	Of   int    // index of the original in the originals
	Edit string // editExact or a corpus.Edit
}

// labelledCorpus is everything the evaluation compares: the originals (the
// stored articles) and their copies.
type labelledCorpus struct {
	Originals []original
	Copies    []labelledCopy
	// UniqueSentences is how many sentences the novel holds once LoadNovel
	// has left out its repeated tail; Sentences counts the file's, tail
	// included.
	UniqueSentences, Sentences int
	// UniqueRunes is how many runes those first UniqueSentences hold.
	UniqueRunes int
	// Unapplied counts, per edit, the copies left out because the edit could
	// not apply to the original.
	Unapplied map[string]int
}

// buildCorpus cuts the originals of every band from its part of the novel and
// makes every copy of each (but those whose edit cannot apply). limit, when positive, keeps at most that many
// originals per band (for quick runs). The seeds are fixed: every run builds
// the same corpus.
func buildCorpus(n *corpus.Novel, limit int) (labelledCorpus, error) {
	sentences := n.Sentences() // LoadNovel leaves out the file's repeated tail
	end := len(sentences)
	c := labelledCorpus{UniqueSentences: end, Sentences: end + n.DroppedSentences(), Unapplied: make(map[string]int)}
	for _, s := range sentences[:end] {
		c.UniqueRunes += utf8.RuneCountInString(s)
	}
	from := 0
	for b, bd := range novelBands {
		to := from + int(bd.Share*float64(end))
		if b == len(novelBands)-1 {
			to = end
		}
		cut, err := cutBand(n, sentences, b, from, to)
		if err != nil {
			return labelledCorpus{}, err
		}
		if limit > 0 && len(cut) > limit {
			cut = cut[:limit]
		}
		c.Originals = append(c.Originals, cut...)
		from = to
	}
	rng := rand.New(rand.NewPCG(2, seedStream))
	for i, o := range c.Originals {
		for _, e := range copyEdits() {
			a := o.Article
			if e != editExact {
				a = n.Apply(rng, o.Article, corpus.Edit(e))
				if a == o.Article {
					// The edit cannot apply (a body of one sentence or one
					// paragraph): the copy would be an exact one by
					// another name.
					c.Unapplied[e]++
					continue
				}
			}
			c.Copies = append(c.Copies, labelledCopy{Article: a, Of: i, Edit: e})
		}
	}
	return c, nil
}

// seedStream is the second word of every PCG seed of the evaluation.
const seedStream = 0x64656475 // "dedu"

// cutBand returns the band's originals that lie wholly within sentences
// [from, to) of the novel. It asks Originals for more articles than the novel
// holds, which makes it cut them side by side with no gaps, and keeps those
// inside the band's part: consecutive, non-overlapping passages.
func cutBand(n *corpus.Novel, sentences []string, b, from, to int) ([]original, error) {
	bd := novelBands[b]
	rng := rand.New(rand.NewPCG(uint64(100+b), seedStream))
	all := n.Originals(rng, n.Runes()/bd.MinRunes+1, bd.MinRunes, bd.MaxRunes)
	var out []original
	cursor := 0
	for _, a := range all {
		start, end, ok := locate(sentences, corpus.SplitSentences(a.Body), cursor)
		if !ok {
			return nil, fmt.Errorf("band %s: cannot find the article %q in the novel", bd.Name, a.Title)
		}
		cursor = end
		if start >= from && end <= to {
			if r := utf8.RuneCountInString(a.Body); r < bd.MinRunes || r > bd.MaxRunes {
				return nil, fmt.Errorf("band %s: article %q has %d runes", bd.Name, a.Title, r)
			}
			out = append(out, original{Article: a, Band: b})
		}
	}
	return out, nil
}

// locate returns the sentences [start, end) of the novel that make up an
// article's sentences, searching from sentence from on (Originals cuts its
// articles in the novel's order).
func locate(novel, article []string, from int) (start, end int, ok bool) {
	if len(article) == 0 {
		return 0, 0, false
	}
	for i := from; i+len(article) <= len(novel); i++ {
		if novel[i] == article[0] && slices.Equal(novel[i:i+len(article)], article) {
			return i, i + len(article), true
		}
	}
	return 0, 0, false
}
