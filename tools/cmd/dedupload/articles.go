package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/tools/internal/newscorpus"
)

// The corpora -corpus names.
const (
	// corpusNews is real news, Sina and CCTV: what the throughput goals are
	// measured on.
	corpusNews = "news"
	// corpusNovel is overlapping cuts of 围城: a crowded corpus where nearly
	// every article has dozens of near neighbours, the service's worst case.
	corpusNovel = "novel"
)

// The novel's cuts: how many when -articles is 0, and their length in runes.
const (
	novelArticles = 20_000
	novelMinRunes = 200
	novelMaxRunes = 1500
)

// articleSource says which articles the clients sent, as the report
// describes them.
type articleSource struct {
	Source   string // corpusNews or corpusNovel: what was used
	Fallback string // why the news corpora were not used when asked for
	Dir      string // where the news came from
	Sina     int
	CCTV     int
	Blank    int // news articles with no body, which the service refuses
	Texts    int // distinct texts the load drew from
}

// loadArticles returns the distinct texts the load sends. With -corpus news
// it reads every article of both corpora in s.Corpora and shuffles them,
// seeded by s.Seed, so that new ingests mix Sina and CCTV; -articles keeps
// the first so many. When the folder or a file is missing it cuts the
// articles from novel instead, and says why in Fallback. The corpora are
// third parties' text: they go to the service under test and nowhere else.
func loadArticles(ctx context.Context, s settings, novel *corpus.Novel) (articleSource, []corpus.Article, error) {
	// The same seed and stream as before -corpus existed, so that a novel
	// run cuts the articles it always cut.
	rng := rand.New(rand.NewPCG(s.Seed, 0x61727469))
	var src articleSource
	if s.Corpus == corpusNews {
		news, blank, why, err := newscorpus.ReadAll(ctx, s.Corpora)
		if err != nil {
			return src, nil, err
		}
		if why == "" {
			src = articleSource{Source: corpusNews, Dir: s.Corpora, Blank: blank}
			return src, src.take(rng, news, s.Articles), nil
		}
		src.Fallback = why
	}
	count := s.Articles
	if count == 0 {
		count = novelArticles
	}
	articles := novel.Overlapping(rng, count, novelMinRunes, novelMaxRunes)
	if len(articles) == 0 {
		return src, nil, errors.New("the novel gave no articles")
	}
	src.Source, src.Texts = corpusNovel, len(articles)
	return src, articles, nil
}

// take shuffles news, keeps the first limit (all of them when limit is 0)
// and counts them by corpus.
func (src *articleSource) take(rng *rand.Rand, news []newscorpus.Article, limit int) []corpus.Article {
	rng.Shuffle(len(news), func(i, j int) { news[i], news[j] = news[j], news[i] })
	if limit > 0 && limit < len(news) {
		news = news[:limit]
	}
	articles := make([]corpus.Article, len(news))
	for i, a := range news {
		articles[i] = corpus.Article{Title: a.Title, Body: a.Body}
		switch a.Corpus {
		case newscorpus.Sina:
			src.Sina++
		case newscorpus.CCTV:
			src.CCTV++
		}
	}
	src.Texts = len(articles)
	return articles
}

// description says, for the report, which articles the new ingests were
// (after "new articles ").
func (src *articleSource) description() string {
	if src.Source == corpusNews {
		return fmt.Sprintf("from real news (%d Sina and %d CCTV articles from `%s`, shuffled)", src.Sina, src.CCTV, src.Dir)
	}
	return fmt.Sprintf("cut from the novel 围城 by `internal/corpus` (%d overlapping cuts of %d–%d runes: a crowded corpus, most articles have near neighbours)",
		src.Texts, novelMinRunes, novelMaxRunes)
}
