package main

import (
	"context"
	"fmt"
	"io"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Digests (issue 33): a roundup, a compilation page, a newsletter — one body
// made of several stored stories, each under its headline. A digest holds
// each of its stories plus much more: it is a partial duplicate of one of
// them, never a near duplicate. Each is checked through POST /v1/check
// against the store that holds all the corpora, published two hours after
// its latest story.

// digestSizes are the stories a digest holds.
var digestSizes = []int{3, 5, 10}

// digestsPerSize is how many digests of each size are made, half of each
// corpus.
const digestsPerSize = 50

// digestSeed seeds the digests' choices: every run makes the same ones.
const digestSeed = 20181103

// digest is a body made of stored stories.
type digest struct {
	Size    int
	Corpus  string
	Stories []int // article indexes, in the digest's order
	Title   string
	Body    string
}

// makeDigests makes digestsPerSize digests of each size: from a random
// place in a corpus, the next stored stories of at least 80 characters
// whose headline belongs to their body, one of each cluster, in the file's
// order (for CCTV, the programme's: one evening's roundup).
func makeDigests(articles []newsArticle, st *stored) []digest {
	rng := rand.New(rand.NewPCG(digestSeed, 1))
	byCorpus := make(map[string][]int)
	for i := range articles {
		a := &articles[i]
		if bandOf(a.Chars) >= 0 && a.TitleFits && st.Articles[i].ID != 0 {
			byCorpus[a.Corpus] = append(byCorpus[a.Corpus], i)
		}
	}
	var out []digest
	for _, size := range digestSizes {
		for k := range digestsPerSize {
			name := corpusNames[k%len(corpusNames)]
			list := byCorpus[name]
			if len(list) < size {
				continue
			}
			d := digest{Size: size, Corpus: name}
			clusters := map[int64]bool{}
			for j := rng.IntN(len(list)); len(d.Stories) < size && j < len(list); j++ {
				if c := st.Articles[list[j]].ClusterID; !clusters[c] {
					clusters[c] = true
					d.Stories = append(d.Stories, list[j])
				}
			}
			if len(d.Stories) < size { // too near the corpus's end
				continue
			}
			parts := make([]string, len(d.Stories))
			for i, s := range d.Stories {
				parts[i] = articles[s].Title + "\n" + articles[s].Body
			}
			d.Title = fmt.Sprintf("要闻汇总（%d条）", size)
			d.Body = strings.Join(parts, "\n\n")
			out = append(out, d)
		}
	}
	return out
}

// digestOutcome is the verdict on one digest.
type digestOutcome struct {
	Status string
	// OfStory: linked to one of its stories or their clusters.
	OfStory bool
	// Nearest is the smallest distance between the digest's fingerprint
	// and its stories'; -1 when unknown.
	Nearest int
}

// checkDigests checks every digest, one at a time.
func checkDigests(ctx context.Context, c *client, articles []newsArticle, st *stored, digests []digest) ([]digestOutcome, error) {
	out := make([]digestOutcome, len(digests))
	for i, d := range digests {
		latest := time.Time{}
		for _, s := range d.Stories {
			if articles[s].Published.After(latest) {
				latest = articles[s].Published
			}
		}
		v, err := c.check(ctx, articleJSON{Source: "digest", Title: d.Title, Body: d.Body, PublishedAt: latest.Add(repostDelay).Format(time.RFC3339)})
		if err != nil {
			return nil, fmt.Errorf("check digest %d: %w", i, err)
		}
		o := digestOutcome{Status: v.Status, Nearest: -1}
		simhash, err := strconv.ParseUint(v.Simhash, 16, 64)
		for _, s := range d.Stories {
			sa := st.Articles[s]
			if v.linked() && (v.DuplicateOf.ID == sa.ID || v.ClusterID == sa.ClusterID) {
				o.OfStory = true
			}
			if err == nil && sa.Simhash != "" {
				if sh, err := strconv.ParseUint(sa.Simhash, 16, 64); err == nil {
					if dist := bits.OnesCount64(simhash ^ sh); o.Nearest < 0 || dist < o.Nearest {
						o.Nearest = dist
					}
				}
			}
		}
		out[i] = o
	}
	return out, nil
}

// digestCount tallies the outcomes of the digests of one size and corpus.
type digestCount struct {
	Size    int    `json:"size"`
	Corpus  string `json:"corpus"`
	Digests int    `json:"digests"`
	// PartialOfStory, NearOfStory, ExactOfStory: linked to one of its
	// stories (or their clusters) with that status; Elsewhere: linked to
	// another article; Unique: linked to none.
	PartialOfStory int `json:"partial_of_story"`
	NearOfStory    int `json:"near_of_story"`
	ExactOfStory   int `json:"exact_of_story"`
	Elsewhere      int `json:"linked_elsewhere"`
	Unique         int `json:"unique"`
	// Near counts every near verdict, to a story or not.
	Near int `json:"near_duplicate"`
	// Within3 and AtZero count the digests whose fingerprint is within 3
	// bits of one of their stories', and equal to one.
	Within3 int `json:"fingerprint_within_3_of_a_story"`
	AtZero  int `json:"fingerprint_equal_to_a_story"`
}

func (c *digestCount) add(o digestOutcome) {
	c.Digests++
	switch {
	case o.Status == statusUnique:
		c.Unique++
	case !o.OfStory:
		c.Elsewhere++
	case o.Status == statusPartial:
		c.PartialOfStory++
	case o.Status == statusNear:
		c.NearOfStory++
	case o.Status == statusExact:
		c.ExactOfStory++
	}
	if o.Status == statusNear {
		c.Near++
	}
	if o.Nearest >= 0 && o.Nearest <= 3 {
		c.Within3++
	}
	if o.Nearest == 0 {
		c.AtZero++
	}
}

func (c *digestCount) plus(o digestCount) {
	c.Digests += o.Digests
	c.PartialOfStory += o.PartialOfStory
	c.NearOfStory += o.NearOfStory
	c.ExactOfStory += o.ExactOfStory
	c.Elsewhere += o.Elsewhere
	c.Unique += o.Unique
	c.Near += o.Near
	c.Within3 += o.Within3
	c.AtZero += o.AtZero
}

// digestResults are the digests' outcomes by size and corpus.
type digestResults struct {
	Counts  []digestCount `json:"counts"`
	Seconds float64       `json:"seconds"`
}

// tallyDigests counts the outcomes by size, then corpus.
func tallyDigests(digests []digest, outcomes []digestOutcome) []digestCount {
	var out []digestCount
	for i, d := range digests {
		k := slices.IndexFunc(out, func(c digestCount) bool { return c.Size == d.Size && c.Corpus == d.Corpus })
		if k < 0 {
			out = append(out, digestCount{Size: d.Size, Corpus: d.Corpus})
			k = len(out) - 1
		}
		out[k].add(outcomes[i])
	}
	slices.SortFunc(out, func(a, b digestCount) int {
		if a.Size != b.Size {
			return a.Size - b.Size
		}
		return strings.Compare(a.Corpus, b.Corpus)
	})
	return out
}

// total is every digest's count.
func (r digestResults) total() digestCount {
	var t digestCount
	for _, c := range r.Counts {
		t.plus(c)
	}
	return t
}

// goals are issue 33's: no digest a near duplicate, every digest a partial
// duplicate of one of its stories.
func (r digestResults) goals() []goalRow {
	t := r.total()
	if t.Digests == 0 {
		return nil
	}
	near := rate{Hit: t.Near, Of: t.Digests}
	partial := rate{Hit: t.PartialOfStory, Of: t.Digests}
	noNear, allPartial := near.Hit == 0, partial.Hit == partial.Of
	return []goalRow{
		{Issue: 33, What: "digests of 3, 5 and 10 stories judged near duplicates", Target: "none", Figure: near.String(), Met: &noNear},
		{Issue: 33, What: "digests judged partial duplicates of one of their stories", Target: "100 %", Figure: partial.String(), Met: &allPartial},
	}
}

func writeDigests(w io.Writer, n *newsEvaluation) {
	r := &n.Digests
	if len(r.Counts) == 0 {
		return
	}
	fmt.Fprintf(w, "## 3b. Digests made from real articles\n\n")
	fmt.Fprintf(w, "A digest is %d, %d or %d stored stories of one corpus, each under its headline, from a random place in the corpus's file onwards (one of each cluster; for CCTV, one evening's programme in order), sent through `POST /v1/check` two hours after its latest story: %d of each size, half of each corpus. ",
		digestSizes[0], digestSizes[1], digestSizes[2], digestsPerSize)
	fmt.Fprintf(w, "It holds each of its stories plus much more: a partial duplicate of one of them, never a near one. *Of a story* = linked to one of its stories or their clusters; the last columns compare the digest's fingerprint with its stories'.\n\n")
	t := newTable("stories", "corpus", "digests", "partial, of a story", "near, of a story", "exact", "linked elsewhere", "unique", "fingerprint within 3 bits of a story", "equal to a story's").leftAligned(2)
	row := func(size, corpus string, c digestCount) {
		t.add(size, corpus, fmt.Sprint(c.Digests), fmt.Sprint(c.PartialOfStory), fmt.Sprint(c.NearOfStory), fmt.Sprint(c.ExactOfStory),
			fmt.Sprint(c.Elsewhere), fmt.Sprint(c.Unique), fmt.Sprint(c.Within3), fmt.Sprint(c.AtZero))
	}
	for _, c := range r.Counts {
		row(fmt.Sprint(c.Size), c.Corpus, c)
	}
	row("**all**", "", r.total())
	t.write(w)
	fmt.Fprintf(w, "Checking them took %.0f s.\n\n", r.Seconds)
}
