// Command profstages reads a CPU profile of a dedupbench run
// (-cpuprofile) and prints the CPU time of the in-process service's batch
// ingest by stage, in ms an article: each sample counted once, under the
// first stage its stack meets from the leaf up, so the stages add up. The
// samples of fingerprint-only and of the peer are left out; what is left
// is the batch runs (with the sentence index on and off) and their
// clients.
//
//	go run ./cmd/profstages -articles 16028 run.pprof
package main

import (
	"flag"
	"fmt"
	"os"
	"regexp"
	"sort"
	"time"

	"github.com/google/pprof/profile"
)

// stages are matched against each frame from the leaf up; the first stage
// a frame matches takes the sample.
var stages = []struct{ name, re string }{
	{"segmentation (cppjieba Cut)", `gojieba\.`},
	{"normalisation of each piece (segment)", `fingerprint\.Normalize$`},
	{"normalisation of title and body (read)", `fingerprint\.read$`},
	{"word facts (dictionary lookups)", `fingerprint\.\(\*wordTable\)|fingerprint\.\(\*Dictionary\)\.(idfOf|IDF|counts)`},
	{"sentence spans and other segment work", `fingerprint\.\(\*Dictionary\)\.(segment|tag)|fingerprint\.sentenceSpans`},
	{"sentences (their simhashes)", `fingerprint\.\(\*Dictionary\)\.sentence|fingerprint\.SentenceTexts`},
	{"shingles", `fingerprint\.ShinglesOf`},
	{"simhash fold", `fingerprint\.fold$`},
	{"weighting (counts, top 64, hashes)", `fingerprint\.\(\*Weighted\)\.Fingerprint|fingerprint\.(heaviest|sortByWeight|NewWordSet)`},
	{"content hash", `fingerprint\.text\.contentHash`},
	{"service, rest (rules, judging, locks)", `newsdedup/service\.`},
	{"pgx (encoding, protocol)", `jackc/pgx|jackc/pgconn|jackc/puddle`},
	{"JSON decode of the request", `handlers\.(decodeBatch|readBody|unmarshalStrict|findLoneSurrogate)|handlers\.decodeBatchOnce`},
	{"JSON encode of the response", `handlers\.jsonSerializer|echo/v4\.\(\*context\)\.JSON`},
	{"handlers, rest", `newsdedup/handlers\.`},
	{"benchmark clients (encode batches, read answers)", `main\.(postNews|newsBatchRequests|post)`},
	{"HTTP (net/http, echo)", `net/http\.|labstack/echo`},
	{"garbage collection", `runtime\.gcBgMarkWorker|runtime\.gcDrain|runtime\.markroot|runtime\.bgsweep`},
}

func main() {
	articles := flag.Int("articles", 0, "articles the batch runs sent in all (the per-article figures' divisor)")
	flag.Parse()
	if flag.NArg() != 1 || *articles <= 0 {
		fmt.Fprintln(os.Stderr, "usage: profstages -articles N profile")
		os.Exit(2)
	}
	f, err := os.Open(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	p, err := profile.Parse(f)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	res := make([]*regexp.Regexp, len(stages))
	for i, s := range stages {
		res[i] = regexp.MustCompile(s.re)
	}
	skip := regexp.MustCompile(`main\.(fingerprintOnly|peerIngest)|fingerprint\.Load|devdb`)
	cpu := 0
	for i, st := range p.SampleType {
		if st.Type == "cpu" {
			cpu = i
		}
	}
	by := make([]time.Duration, len(stages)+1)
	var total time.Duration
samples:
	for _, s := range p.Sample {
		d := time.Duration(s.Value[cpu])
		stage := len(stages) // other
		found := false
		for _, loc := range s.Location {
			for _, line := range loc.Line {
				name := line.Function.Name
				if skip.MatchString(name) {
					continue samples
				}
				if found {
					continue
				}
				for i, re := range res {
					if re.MatchString(name) {
						stage, found = i, true
						break
					}
				}
			}
		}
		by[stage] += d
		total += d
	}
	type row struct {
		name string
		d    time.Duration
	}
	var rows []row
	for i, d := range by {
		name := "other (runtime, scheduler, syscalls)"
		if i < len(stages) {
			name = stages[i].name
		}
		rows = append(rows, row{name, d})
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].d > rows[j].d })
	per := func(d time.Duration) float64 { return float64(d) / 1e6 / float64(*articles) }
	fmt.Printf("| stage | ms an article | share |\n| --- | ---: | ---: |\n")
	for _, r := range rows {
		fmt.Printf("| %s | %.3f | %.0f %% |\n", r.name, per(r.d), 100*float64(r.d)/float64(max(total, 1)))
	}
	fmt.Printf("| **all of this process in the batch runs** | **%.3f** | 100 %% |\n", per(total))
}
