// Command searchrecall measures how many headlines that hold a word an
// index of headlines finds by it, on the real news of ../shared/corpora:
// the CJK bigram keys of migration 00021 against jieba's words, segmented
// as the service segments (accurate mode with HMM) and in jieba's search
// mode. The queries are every word of two or more Chinese characters that
// jieba makes of the headlines; a headline holds a query when the query is
// a substring of it. Figures: docs/search.md.
//
//	go run ./cmd/searchrecall [-corpora DIR]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"unicode"

	"github.com/yanyiwu/gojieba"

	"github.com/newsdedup/newsdedup/service/fingerprint"
	"github.com/newsdedup/newsdedup/tools/internal/newscorpus"
)

func main() {
	dir := flag.String("corpora", "../../shared/corpora", "the folder of the real corpora")
	flag.Parse()
	if err := run(*dir); err != nil {
		fmt.Fprintln(os.Stderr, "searchrecall:", err)
		os.Exit(1)
	}
}

func run(dir string) error {
	var titles []string
	for _, name := range newscorpus.Names {
		articles, err := newscorpus.Read(context.Background(), dir, name, 0)
		if err != nil {
			return fmt.Errorf("read %s (the corpora are not in the repository; -corpora names their folder): %w", name, err)
		}
		for _, a := range articles {
			titles = append(titles, a.Title)
		}
	}
	d := fingerprint.DefaultDictDir()
	jb := gojieba.NewJieba(filepath.Join(d, "jieba.dict.utf8"), filepath.Join(d, "hmm_model.utf8"),
		filepath.Join(d, "user.dict.utf8"), filepath.Join(d, "idf.utf8"), filepath.Join(d, "stop_words.utf8"))
	defer jb.Free()

	// Each headline's words both ways, and where each substring of two to
	// eight characters occurs.
	accurate := make([]map[string]bool, len(titles))
	search := make([]map[string]bool, len(titles))
	holders := map[string][]int{}
	queries := map[string]bool{}
	for i, t := range titles {
		accurate[i], search[i] = map[string]bool{}, map[string]bool{}
		for _, w := range jb.Cut(t, true) {
			accurate[i][w] = true
			if hanWord(w) {
				queries[w] = true
			}
		}
		for _, w := range jb.CutForSearch(t, true) {
			search[i][w] = true
		}
		r := []rune(t)
		seen := map[string]bool{}
		for a := range r {
			for b := a + 2; b <= min(len(r), a+8); b++ {
				s := string(r[a:b])
				if !seen[s] {
					seen[s] = true
					holders[s] = append(holders[s], i)
				}
			}
		}
	}
	var pairs, byAccurate, bySearch, queriesMissed, two int
	for q := range queries {
		if len([]rune(q)) == 2 {
			two++
		}
		missed := false
		for _, i := range holders[q] {
			pairs++
			if accurate[i][q] {
				byAccurate++
			} else {
				missed = true
			}
			if search[i][q] {
				bySearch++
			}
		}
		if missed {
			queriesMissed++
		}
	}
	pct := func(n, of int) string { return fmt.Sprintf("%.1f %%", 100*float64(n)/float64(of)) }
	fmt.Printf("%d headlines; %d query words (jieba's words of 2+ Chinese characters in them), %s of two characters; %d (headline, word it holds) pairs\n",
		len(titles), len(queries), pct(two, len(queries)), pairs)
	fmt.Printf("| index of headlines | pairs found | words that miss a headline |\n| --- | ---: | ---: |\n")
	fmt.Printf("| CJK bigram keys, then the word as a substring (00021) | %s (by construction) | 0 |\n", pct(pairs, pairs))
	fmt.Printf("| jieba's words, as the service segments (accurate, HMM) | %s | %d (%s) |\n", pct(byAccurate, pairs), queriesMissed, pct(queriesMissed, len(queries)))
	fmt.Printf("| jieba's words, search mode (CutForSearch) | %s | |\n", pct(bySearch, pairs))
	fmt.Printf("| pg_trgm | needs three characters: %s of the words cannot use its index | |\n", pct(two, len(queries)))
	return nil
}

// hanWord reports a word of two or more Chinese characters.
func hanWord(w string) bool {
	n := 0
	for _, r := range w {
		if !unicode.Is(unicode.Han, r) {
			return false
		}
		n++
	}
	return n >= 2
}
