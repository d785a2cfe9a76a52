// Command sentkeys measures which stored sentences need block keys
// (docs/scaling.md, "Keys that earn their cost"): on the real corpora
// (../shared/corpora), every pair of sentences of two articles at distance
// 0–3 with different texts — the near matches only the block keys find —
// by the length of the shorter one, and for each floor on a sentence's
// length (runes) below which it would carry no block keys, the share of
// sentences keyed and the near matches and near-only article pairs given
// up. Exact: candidates come from family A's block values (two simhashes
// within 3 bits share one), the distance is checked on each.
//
//	cd tools && go run ./cmd/sentkeys [-corpora DIR]
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"math/bits"
	"slices"

	"github.com/newsdedup/newsdedup/service/fingerprint"
	"github.com/newsdedup/newsdedup/tools/internal/newscorpus"
)

// item is a distinct (text, simhash) among the stored sentences, with the
// articles holding it.
type item struct {
	text, simhash uint64
	runes         int
	articles      []int32
}

// boilerplate: texts held by this many articles or more are left out of
// the article pairs, as the service's boilerplate rule leaves them out.
const boilerplate = 20

func main() {
	dir := flag.String("corpora", newscorpus.DefaultDir("."), "the folder of the real corpora")
	flag.Parse()
	if err := run(*dir); err != nil {
		log.Fatal(err)
	}
}

func run(dir string) error {
	ctx := context.Background()
	dict, err := fingerprint.Load(fingerprint.DefaultDictDir())
	if err != nil {
		return err
	}
	alg := fingerprint.NewWeighted(dict, fingerprint.DefaultWeightedParams)
	index := map[[2]uint64]int{} // (text, simhash) → item
	var items []item
	rows, withSimhash := 0, 0
	runesOfRows := map[int]int{} // rows with a simhash by runes
	exactPairs := map[[2]int32]bool{}
	byText := map[uint64][]int32{}
	nArticles := int32(0)
	for _, name := range newscorpus.Names {
		articles, err := newscorpus.Read(ctx, dir, name, 0)
		if err != nil {
			return fmt.Errorf("read %s (the corpora are not in the repository; -corpora names their folder): %w", name, err)
		}
		for _, a := range articles {
			fp, err := alg.Fingerprint(ctx, fingerprint.Document{Title: a.Title, Body: a.Body})
			if err != nil {
				continue
			}
			id := nArticles
			nArticles++
			for _, s := range fp.Sentences {
				rows++
				byText[s.TextHash] = append(byText[s.TextHash], id)
				if !s.HasSimhash {
					continue
				}
				withSimhash++
				runesOfRows[s.Runes]++
				k := [2]uint64{s.TextHash, s.Simhash}
				i, ok := index[k]
				if !ok {
					i = len(items)
					index[k] = i
					items = append(items, item{text: s.TextHash, simhash: s.Simhash, runes: s.Runes})
				}
				items[i].articles = append(items[i].articles, id)
			}
		}
	}
	for _, holders := range byText {
		if len(holders) >= boilerplate {
			continue
		}
		for x := range holders {
			for y := range x {
				if holders[x] != holders[y] {
					exactPairs[pairOf(holders[x], holders[y])] = true
				}
			}
		}
	}
	log.Printf("%d articles, %d sentences, %d with a simhash, %d distinct (text, simhash)", nArticles, rows, withSimhash, len(items))

	// Near pairs of items: distance ≤ 3, other text.
	byBlock := map[uint64][]int32{}
	for i, it := range items {
		b := fingerprint.BlocksOf(it.simhash)
		for j, v := range b.A {
			byBlock[uint64(j)<<32|uint64(v)] = append(byBlock[uint64(j)<<32|uint64(v)], int32(i))
		}
	}
	type near struct{ x, y int32 }
	var nears []near
	for i, it := range items {
		b := fingerprint.BlocksOf(it.simhash)
		seen := map[int32]bool{}
		for j, v := range b.A {
			for _, o := range byBlock[uint64(j)<<32|uint64(v)] {
				if o <= int32(i) || seen[o] {
					continue
				}
				seen[o] = true
				ot := items[o]
				if ot.text != it.text && bits.OnesCount64(ot.simhash^it.simhash) <= 3 {
					nears = append(nears, near{int32(i), o})
				}
			}
		}
	}
	// Row pairs (of two articles) of each near item pair, and the article
	// pairs that share near sentences but no exact one.
	type nearArticles struct{ minRunes []int } // shorter sentence's runes of each near pair
	nearOnly := map[[2]int32]*nearArticles{}
	pairsByRunes := map[int]int{}
	totalPairs := 0
	for _, n := range nears {
		a, b := items[n.x], items[n.y]
		short := min(a.runes, b.runes)
		for _, p := range a.articles {
			for _, q := range b.articles {
				if p == q {
					continue
				}
				totalPairs++
				pairsByRunes[short]++
				if len(a.articles) >= boilerplate || len(b.articles) >= boilerplate {
					continue
				}
				k := pairOf(p, q)
				if exactPairs[k] {
					continue
				}
				na := nearOnly[k]
				if na == nil {
					na = &nearArticles{}
					nearOnly[k] = na
				}
				na.minRunes = append(na.minRunes, short)
			}
		}
	}
	fmt.Printf("%d articles; %d sentence rows, %d with a simhash; %d near item pairs, %d near row pairs; %d article pairs sharing exact sentences, %d sharing only near ones\n\n",
		nArticles, rows, withSimhash, len(nears), totalPairs, len(exactPairs), len(nearOnly))
	fmt.Println("| block keys only from runes | rows keyed (of those with a simhash) | near row pairs given up at worst | near-only article pairs given up at worst |")
	fmt.Println("| ---: | ---: | ---: | ---: |")
	for _, floor := range []int{0, 20, 25, 30, 35, 40, 45, 50, 60, 80} {
		keyed, lostPairs, lostArticles := 0, 0, 0
		for r, c := range runesOfRows {
			if r >= floor {
				keyed += c
			}
		}
		for r, c := range pairsByRunes {
			if r < floor {
				lostPairs += c
			}
		}
		for _, na := range nearOnly {
			if slices.Max(na.minRunes) < floor {
				lostArticles++
			}
		}
		fmt.Printf("| %d | %d (%.1f %%) | %d (%.1f %%) | %d of %d |\n", floor, keyed, 100*float64(keyed)/float64(withSimhash),
			lostPairs, 100*float64(lostPairs)/float64(max(totalPairs, 1)), lostArticles, len(nearOnly))
	}
	return nil
}

func pairOf(p, q int32) [2]int32 {
	if p > q {
		p, q = q, p
	}
	return [2]int32{p, q}
}
