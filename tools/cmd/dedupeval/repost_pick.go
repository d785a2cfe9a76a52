package main

import (
	"math/rand/v2"
	"slices"
	"unicode/utf8"
)

// repost is an edited copy of a stored article, checked against the store.
type repost struct {
	Source int // the article it was made from
	Edit   string
	Band   int // the source's band
	Title  string
	Body   string
}

// repostSeed seeds every random choice of the reposts: every run makes the
// same ones.
const repostSeed = 20181101

// pickOriginals returns, for every band, up to perBand articles to repost:
// half from each corpus where it can (the other filling in where one runs
// short), among the articles the service stored whose headline belongs to
// their body (a retitled copy of a mismatched page would say nothing).
func pickOriginals(articles []newsArticle, st *stored, perBand int) [][]int {
	rng := rand.New(rand.NewPCG(repostSeed, 1))
	out := make([][]int, len(newsBands))
	for b := range newsBands {
		byCorpus := make(map[string][]int)
		for i := range articles {
			a := &articles[i]
			if bandOf(a.Chars) == b && a.TitleFits && st.Articles[i].ID != 0 {
				byCorpus[a.Corpus] = append(byCorpus[a.Corpus], i)
			}
		}
		for _, name := range corpusNames {
			c := byCorpus[name]
			rng.Shuffle(len(c), func(x, y int) { c[x], c[y] = c[y], c[x] })
		}
		// Alternate the corpora, each giving its next article while it has
		// one.
		for k := 0; len(out[b]) < perBand; k++ {
			took := false
			for _, name := range corpusNames {
				if c := byCorpus[name]; k < len(c) && len(out[b]) < perBand {
					out[b] = append(out[b], c[k])
					took = true
				}
			}
			if !took {
				break
			}
		}
		slices.Sort(out[b])
	}
	return out
}

// makeReposts applies every edit to every original.
func makeReposts(articles []newsArticle, originals [][]int) (reposts []repost, unapplied map[string]int) {
	rng := rand.New(rand.NewPCG(repostSeed, 2))
	pool := newSentencePool(articles)
	unapplied = make(map[string]int)
	for b, list := range originals {
		for _, i := range list {
			a := &articles[i]
			for _, e := range repostEdits {
				title, body, ok := applyEdit(rng, pool, i, a.Title, a.Body, e)
				if !ok {
					unapplied[e]++
					continue
				}
				reposts = append(reposts, repost{Source: i, Edit: e, Band: b, Title: title, Body: body})
			}
		}
	}
	return reposts, unapplied
}

// sentencePool is the donor of the reposts: sentences and headlines of the
// articles of the corpora, drawn from the source's own corpus.
type sentencePool struct {
	articles []newsArticle
	byCorpus map[string][]pooledSentence
	indexes  map[string][]int // article indexes by corpus
}

type pooledSentence struct {
	text  string
	runes int
	from  int
}

func newSentencePool(articles []newsArticle) *sentencePool {
	p := &sentencePool{articles: articles, byCorpus: make(map[string][]pooledSentence), indexes: make(map[string][]int)}
	for i := range articles {
		a := &articles[i]
		p.indexes[a.Corpus] = append(p.indexes[a.Corpus], i)
		for _, para := range paragraphsOf(a.Body) {
			for _, s := range para {
				if r := utf8.RuneCountInString(s); r >= 8 && r <= 200 {
					p.byCorpus[a.Corpus] = append(p.byCorpus[a.Corpus], pooledSentence{text: s, runes: r, from: i})
				}
			}
		}
	}
	return p
}

func (p *sentencePool) sentence(rng *rand.Rand, from, runes int) string {
	list := p.byCorpus[p.articles[from].Corpus]
	if len(list) == 0 {
		return fallbackSentence
	}
	for try := 0; ; try++ {
		s := list[rng.IntN(len(list))]
		if try > giveUpTries { // a corpus too small to choose from
			return s.text
		}
		if s.from == from {
			continue
		}
		if runes == 0 {
			if s.runes >= 10 && s.runes <= 80 {
				return s.text
			}
			continue
		}
		// Within a fifth of the length, widening as the tries add up.
		if d := s.runes - runes; max(d, -d) <= max(3, runes/5)+try/50 {
			return s.text
		}
	}
}

func (p *sentencePool) title(rng *rand.Rand, from int, title string) string {
	list := p.indexes[p.articles[from].Corpus]
	for range giveUpTries {
		o := &p.articles[list[rng.IntN(len(list))]]
		if o.Title != "" && compact(o.Title) != compact(title) {
			return o.Title
		}
	}
	return "转载：" + title // a corpus of one headline
}

// fallbackSentence is added when a corpus has no sentence to give.
const fallbackSentence = "另据了解，相关情况仍在进一步核实之中。"

// giveUpTries bounds the draws of a donor in a corpus too small to give
// what is asked.
const giveUpTries = 10_000
