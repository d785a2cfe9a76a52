package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os/exec"
	"slices"
	"strings"
	"unicode/utf8"
)

// The evasion section (issue 45): copies made the way a copier dodges
// detection — Traditional script through Debian's opencc (s2t, s2twp,
// s2hk), with and without a fifth of the sentences dropped; an invisible
// character after every character; a space between every character — each
// checked through POST /v1/check against its stored original; the partial
// copies of the most-copied stories as their copies grow to 1, 18 and 300;
// and a sentence quoted after a lead-in, stored and looked up as other
// coverage. It stores the copies it makes, so it runs last or alone
// (-evasion-only).

// evasionRow is one variant: detected of N.
type evasionRow struct {
	Variant  string
	Detected int
	Of       int
	Note     string `json:",omitempty"`
}

const evasionOriginals = 30

// evasionInvisibles are put after every character, one variant each.
var evasionInvisibles = []struct{ name, char string }{
	{"U+FE0F", "\uFE0F"}, {"U+E0100", "\U000E0100"}, {"U+034F", "\u034F"}, {"U+3164", "\u3164"},
	{"U+200B", "\u200B"}, {"U+200D", "\u200D"}, {"U+FEFF", "\uFEFF"}, {"U+00AD", "\u00AD"},
}

// evasion runs the section on the stored corpora.
func evasion(ctx context.Context, c *client, articles []newsArticle, st *stored, out io.Writer) ([]evasionRow, error) {
	rng := rand.New(rand.NewPCG(45, 30))
	originals := pickEvasionOriginals(rng, articles, st)
	var rows []evasionRow
	check := func(name string, make func(body string) (string, error)) error {
		row := evasionRow{Variant: name, Of: len(originals)}
		for _, i := range originals {
			body, err := make(articles[i].Body)
			if err != nil {
				row.Note = err.Error()
				row.Of = 0
				break
			}
			v, err := c.check(ctx, articleJSON{Title: articles[i].Title, Body: body, Source: "evasion", PublishedAt: apiArticle(&articles[i]).PublishedAt})
			var se *statusError
			if errors.As(err, &se) && se.Status == http.StatusUnprocessableEntity {
				continue // refused ("no words"): not detected
			}
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			if v.linked() && st.sameCluster(v.DuplicateOf.ID, i) {
				row.Detected++
			}
		}
		rows = append(rows, row)
		fmt.Fprintf(out, "  %-28s %d of %d %s\n", row.Variant, row.Detected, row.Of, row.Note)
		return nil
	}
	for _, conf := range []string{"s2t", "s2twp", "s2hk"} {
		if err := check("Traditional "+conf, func(b string) (string, error) { return opencc(ctx, conf, b) }); err != nil {
			return nil, err
		}
		if err := check("Traditional "+conf+", 20% dropped", func(b string) (string, error) { return opencc(ctx, conf, dropFifth(b)) }); err != nil {
			return nil, err
		}
	}
	for _, inv := range evasionInvisibles {
		if err := check(inv.name+" after every character", func(b string) (string, error) { return between(b, inv.char), nil }); err != nil {
			return nil, err
		}
	}
	for _, sp := range []struct{ name, s string }{{"a space", " "}, {"U+200A", "\u200A"}} {
		if err := check(sp.name+" between characters", func(b string) (string, error) { return between(b, sp.s), nil }); err != nil {
			return nil, err
		}
	}

	quotes, err := evasionQuotes(ctx, c, articles, st, originals)
	if err != nil {
		return nil, err
	}
	rows = append(rows, quotes)
	fmt.Fprintf(out, "  %-28s %d of %d\n", quotes.Variant, quotes.Detected, quotes.Of)

	partials, err := evasionMostCopied(ctx, c, articles, st, out)
	if err != nil {
		return nil, err
	}
	return append(rows, partials...), nil
}

// pickEvasionOriginals picks stored unique articles of 300 characters or
// more with ten sentences or more, half of each corpus.
func pickEvasionOriginals(rng *rand.Rand, articles []newsArticle, st *stored) []int {
	byCorpus := map[string][]int{}
	for i, a := range articles {
		sa := st.Articles[i]
		if sa.Error == "" && sa.Status == statusUnique && utf8.RuneCountInString(a.Body) >= 300 && strings.Count(a.Body, "。") >= 10 {
			byCorpus[a.Corpus] = append(byCorpus[a.Corpus], i)
		}
	}
	var out []int
	corpora := make([]string, 0, len(byCorpus))
	for name := range byCorpus {
		corpora = append(corpora, name)
	}
	slices.Sort(corpora)
	for _, name := range corpora {
		list := byCorpus[name]
		rng.Shuffle(len(list), func(a, b int) { list[a], list[b] = list[b], list[a] })
		out = append(out, list[:min(len(list), evasionOriginals/len(corpora))]...)
	}
	return out
}

// sameCluster tells whether stored article id is article i or in its
// cluster.
func (s *stored) sameCluster(id int64, i int) bool {
	if id == s.Articles[i].ID {
		return true
	}
	j, ok := s.indexOf(id)
	return ok && s.Articles[j].ClusterID == s.Articles[i].ClusterID
}

// opencc converts text with Debian's opencc and configuration conf.
func opencc(ctx context.Context, conf, text string) (string, error) {
	cmd := exec.CommandContext(ctx, "opencc", "-c", conf+".json")
	cmd.Stdin = strings.NewReader(text)
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("opencc -c %s.json (apt install opencc): %v", conf, err)
	}
	return strings.TrimSuffix(string(out), "\n"), nil
}

// sentencesOf cuts a body after each 。.
func sentencesOf(body string) []string { return strings.SplitAfter(body, "。") }

// dropFifth drops every fifth sentence.
func dropFifth(body string) string {
	var kept []string
	for i, s := range sentencesOf(body) {
		if i%5 != 2 {
			kept = append(kept, s)
		}
	}
	return strings.Join(kept, "")
}

// between puts sep after every character but the last and line breaks.
func between(s, sep string) string {
	var b strings.Builder
	for i, r := range s {
		b.WriteRune(r)
		if r != '\n' && i+utf8.RuneLen(r) < len(s) {
			b.WriteString(sep)
		}
	}
	return b.String()
}

// The variants are sent with their original's publication time, as a copy
// of the day is: the near-duplicate window counts from it.

// evasionQuotes stores, for each original, an article of its own text that
// quotes the original's longest sentence after a lead-in, and counts those
// whose shared sentences list the original (or its cluster).
func evasionQuotes(ctx context.Context, c *client, articles []newsArticle, st *stored, originals []int) (evasionRow, error) {
	row := evasionRow{Variant: "quoted after a lead-in", Of: len(originals)}
	for k, i := range originals {
		quoted := ""
		for _, s := range sentencesOf(articles[i].Body) {
			if s = strings.TrimSpace(s); utf8.RuneCountInString(s) > utf8.RuneCountInString(quoted) {
				quoted = s
			}
		}
		other := articles[originals[(k+1)%len(originals)]].Body
		lead := strings.Join(sentencesOf(other)[:2], "")
		body := "本台评论员今天就此发表评论。" + lead + "\n有媒体评论：“" + quoted + "”我们认为，这一看法值得关注。"
		res, err := c.ingestBatch(ctx, []articleJSON{{ExternalID: fmt.Sprintf("evasion-quote-%d", k), Source: "evasion", Title: "评论", Body: body,
			PublishedAt: apiArticle(&articles[i]).PublishedAt}})
		if err != nil {
			return row, err
		}
		if res[0].Error != nil {
			continue
		}
		shared, err := c.sharedSentences(ctx, res[0].ID, 100)
		if err != nil {
			return row, err
		}
		if slices.ContainsFunc(shared.Articles, func(a sharedArticleJSON) bool { return st.sameCluster(a.ID, i) }) {
			row.Detected++
		}
	}
	return row, nil
}

// evasionMostCopied takes five stories stored alone and checks three
// partial copies of each — an excerpt, an expansion, a fifth dropped — as
// stored copies (each under a credit line of its own) make them the most
// copied stories: 1, 18 and 300 copies.
func evasionMostCopied(ctx context.Context, c *client, articles []newsArticle, st *stored, out io.Writer) ([]evasionRow, error) {
	members := map[int64][]int{}
	for i, sa := range st.Articles {
		if sa.Error == "" && strings.Count(articles[i].Body, "。") >= 10 {
			members[sa.ClusterID] = append(members[sa.ClusterID], i)
		}
	}
	// Stories stored alone, so that their copies are exactly those made
	// here: the five longest in sentences, ties by cluster.
	var clusters []int64
	for id, m := range members {
		if len(m) == 1 {
			clusters = append(clusters, id)
		}
	}
	sentences := func(id int64) int { return strings.Count(articles[members[id][0]].Body, "。") }
	slices.SortFunc(clusters, func(a, b int64) int {
		if d := sentences(b) - sentences(a); d != 0 {
			return d
		}
		return int(a - b)
	})
	clusters = clusters[:min(5, len(clusters))]
	copyIDs := map[int64]bool{}
	copied := make([]int, len(clusters))
	var rows []evasionRow
	for _, level := range []int{1, 18, 300} {
		row := evasionRow{Variant: fmt.Sprintf("most-copied partials at %d copies", level)}
		for ci, cl := range clusters {
			story := members[cl][0]
			var batch []articleJSON
			for n := copied[ci]; n < level; n++ {
				batch = append(batch, articleJSON{ExternalID: fmt.Sprintf("evasion-copy-%d-%d", ci, n), Source: fmt.Sprintf("evasion-%d", n%40),
					Title: articles[story].Title, Body: fmt.Sprintf("来源：第%d号网站\n%s", n, articles[story].Body),
					PublishedAt: apiArticle(&articles[story]).PublishedAt})
			}
			for from := 0; from < len(batch); from += 100 {
				res, err := c.ingestBatch(ctx, batch[from:min(from+100, len(batch))])
				if err != nil {
					return nil, err
				}
				for _, r := range res {
					if r.Error == nil {
						copyIDs[r.ID] = true
					}
				}
			}
			copied[ci] = max(copied[ci], level)
			ss := sentencesOf(articles[story].Body)
			other := articles[members[clusters[(ci+1)%len(clusters)]][0]].Body
			for _, body := range []string{
				strings.Join(ss[len(ss)/4:len(ss)/4+len(ss)*2/5], ""),
				articles[story].Body + "\n" + other,
				dropFifth(articles[story].Body),
			} {
				v, err := c.check(ctx, articleJSON{Title: "另一标题", Body: body, Source: "evasion", PublishedAt: apiArticle(&articles[story]).PublishedAt})
				if err != nil {
					return nil, err
				}
				row.Of++
				if v.linked() && (copyIDs[v.DuplicateOf.ID] || st.sameCluster(v.DuplicateOf.ID, story)) {
					row.Detected++
				}
			}
		}
		rows = append(rows, row)
		fmt.Fprintf(out, "  %-28s %d of %d\n", row.Variant, row.Detected, row.Of)
	}
	return rows, nil
}

// writeEvasion writes the evasion section.
func writeEvasion(w io.Writer, n *newsEvaluation) {
	if len(n.Evasion) == 0 {
		return
	}
	fmt.Fprintf(w, "## 5b. Copies made to dodge detection\n\n")
	fmt.Fprintf(w, "Issue 45: %d stored originals of 300 characters and more, half of each corpus, each made into the variant and checked through POST /v1/check with its original's publication time (detected: linked to the original or its cluster; refused with 422 counts as missed); Traditional through Debian's `opencc`; quotes stored and found as other coverage (GET /v1/articles/{id}/shared-sentences); the partial copies (an excerpt, an expansion, a fifth dropped) of five stories stored alone, as stored copies bring each to 1, 18 and 300. It runs after every other figure, because it stores copies (or alone: `-evasion-only`).\n\n", evasionOriginals)
	t := newTable("variant", "detected", "of", "note")
	for _, r := range n.Evasion {
		t.add(cell(r.Variant), fmt.Sprint(r.Detected), fmt.Sprint(r.Of), cell(r.Note))
	}
	t.write(w)
	fmt.Fprintln(w)
}
