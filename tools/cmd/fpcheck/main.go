// Command fpcheck fingerprints every article of the real corpora with the
// default algorithm and writes one line an article: its id and the SHA-256
// of everything the fingerprint holds (simhash, version, words, keywords
// and their weights, content hash, shingles, sentences, plain body), or of
// its error. Two builds' files compared line by line tell whether a change
// kept every fingerprint bit-identical; -compare does that and fails on
// the first difference. It also prints the CPU time of the process an
// article over the fingerprinting (rounds alternate nothing: run the builds
// in turn), and writes a CPU profile with -cpuprofile.
//
//	cd tools && go run ./cmd/fpcheck -out /tmp/new.txt -compare /tmp/old.txt
//
// Without the corpora it says so and exits 0: nothing to compare.
package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
	"github.com/newsdedup/newsdedup/tools/internal/newscorpus"
	"github.com/newsdedup/newsdedup/tools/internal/proccpu"
)

func main() {
	corpora := flag.String("corpora", newscorpus.DefaultDir(""), "folder of the corpora")
	out := flag.String("out", "", "write the digests here")
	compare := flag.String("compare", "", "digests of another build to compare with")
	limit := flag.Int("limit", 0, "fingerprint only the first N articles (0: all)")
	rounds := flag.Int("rounds", 1, "timed rounds of fingerprinting, after the digests (0: none)")
	skip := flag.Bool("skip-sentences", false, "fingerprint without sentences, as with the sentence index off")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the fingerprinting here")
	flag.Parse()
	if err := run(*corpora, *out, *compare, *profile, *limit, *rounds, *skip); err != nil {
		fmt.Fprintln(os.Stderr, "fpcheck:", err)
		os.Exit(1)
	}
}

func run(corpora, out, compare, profile string, limit, rounds int, skip bool) error {
	ctx := context.Background()
	articles, _, missing, err := newscorpus.ReadAll(ctx, corpora)
	if err != nil {
		return err
	}
	if missing != "" {
		fmt.Println("fpcheck: nothing to check:", missing)
		return nil
	}
	if limit > 0 && limit < len(articles) {
		articles = articles[:limit]
	}
	dict, err := fingerprint.Load(fingerprint.DefaultDictDir())
	if err != nil {
		return err
	}
	defer dict.Close()
	alg := fingerprint.NewWeighted(dict, fingerprint.DefaultWeightedParams)
	if profile != "" {
		f, err := os.Create(profile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	var digests []string
	if out != "" || compare != "" {
		for _, a := range articles {
			fp, err := alg.Fingerprint(ctx, fingerprint.Document{Title: a.Title, Body: a.Body, SkipSentences: skip})
			digests = append(digests, a.ExternalID()+" "+digest(fp, err))
		}
	}
	for r := 0; r < rounds; r++ {
		cpu, wall := proccpu.Process(), time.Now()
		for _, a := range articles {
			_, _ = alg.Fingerprint(ctx, fingerprint.Document{Title: a.Title, Body: a.Body, SkipSentences: skip})
		}
		n := float64(len(articles))
		fmt.Printf("round %d: %d articles, CPU %.4f ms an article, wall %.4f ms\n", r+1, len(articles),
			float64((proccpu.Process()-cpu).Microseconds())/1000/n, float64(time.Since(wall).Microseconds())/1000/n)
	}
	if out != "" {
		if err := os.WriteFile(out, []byte(strings.Join(digests, "\n")+"\n"), 0o644); err != nil {
			return err
		}
	}
	if compare != "" {
		return compareWith(compare, digests)
	}
	return nil
}

// digest is the SHA-256 of every field of fp (Go syntax, exact floats), or
// of err.
func digest(fp fingerprint.Fingerprint, err error) string {
	if err != nil {
		return fmt.Sprintf("%x", sha256.Sum256([]byte("error: "+err.Error())))
	}
	return fmt.Sprintf("%x", sha256.Sum256(fmt.Appendf(nil, "%#v", fp)))
}

func compareWith(path string, digests []string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	i := 0
	for ; s.Scan(); i++ {
		if i >= len(digests) {
			return fmt.Errorf("%s holds more than the %d articles fingerprinted", path, len(digests))
		}
		if s.Text() != digests[i] {
			return fmt.Errorf("article %d differs: %q here, %q in %s", i+1, digests[i], s.Text(), path)
		}
	}
	if err := s.Err(); err != nil {
		return err
	}
	if i != len(digests) {
		return fmt.Errorf("%s holds %d articles, %d fingerprinted", path, i, len(digests))
	}
	fmt.Printf("fpcheck: all %d fingerprints identical to %s\n", i, path)
	return nil
}
