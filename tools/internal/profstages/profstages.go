// Package profstages reads a CPU profile of a dedupbench run and sums the
// CPU time of the in-process service's batch ingest by stage: each sample
// counted once, under the first stage its stack meets from the leaf up, so
// the stages add up. The samples of fingerprint-only and of the peer are
// left out; what is left is the batch runs (with the sentence index on and
// off) and their clients. cmd/profstages prints it for a saved profile;
// dedupbench -cpuprofile prints it after the real-news section.
package profstages

import (
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/google/pprof/profile"
)

// stages are matched against each frame from the leaf up; the first stage
// a frame matches takes the sample.
var stages = []struct{ name, re string }{
	{"segmentation (cppjieba Cut)", `gojieba\.`},
	{"normalisation (NFKC, unsplit, script fold), title and body", `fingerprint\.(Normalize|normalize|normalizeCommon|normalizeAny|unsplit|foldScript)$`},
	{"content hash", `fingerprint\.text\.contentHash|crypto/sha256`},
	{"read, rest", `fingerprint\.(read|readSegmented)$`},
	{"word facts (dictionary lookups)", `fingerprint\.\(\*wordTable\)|fingerprint\.\(\*Dictionary\)\.(idfOf|IDF|counts)`},
	{"edges and credit lines", `fingerprint\.(coreSpan|isCreditLine)`},
	{"sentence spans and other segment work", `fingerprint\.\(\*Dictionary\)\.(segment|tag|tagAll)|fingerprint\.(sentenceSpans|cutPieces)`},
	{"sentences (their simhashes)", `fingerprint\.\(\*Dictionary\)\.sentence|fingerprint\.SentenceTexts`},
	{"shingles", `fingerprint\.ShinglesOf`},
	{"simhash fold", `fingerprint\.fold$`},
	{"weighting (counts, top 64, hashes)", `fingerprint\.\(\*Weighted\)\.Fingerprint|fingerprint\.(heaviest|sortByWeight|NewWordSet)`},
	{"service, rest (rules, judging, locks)", `newsdedup/service\.`},
	{"pgx (encoding, protocol)", `jackc/pgx|jackc/pgconn|jackc/puddle`},
	{"JSON decode of the request", `handlers\.(decodeBatch|readBody|unmarshalStrict|findLoneSurrogate)|handlers\.decodeBatchOnce`},
	{"JSON encode of the response", `handlers\.jsonSerializer|echo/v4\.\(\*context\)\.JSON`},
	{"handlers, rest", `newsdedup/handlers\.`},
	{"benchmark clients (encode batches, read answers)", `main\.(postNews|newsBatchRequests|post)`},
	{"HTTP (net/http, echo)", `net/http\.|labstack/echo`},
	{"garbage collection", `runtime\.gcBgMarkWorker|runtime\.gcDrain|runtime\.markroot|runtime\.bgsweep`},
}

// skip marks the samples that are not the batch runs': fingerprint-only,
// the peer, loading the dictionary, the local cluster's command.
var skip = regexp.MustCompile(`main\.(fingerprintOnly|peerIngest)|fingerprint\.Load|devdb`)

// Row is one stage's CPU time.
type Row struct {
	Stage string
	CPU   time.Duration
}

// Stages reads a profile and returns the batch runs' CPU time by stage,
// largest first, "other" included.
func Stages(r io.Reader) ([]Row, error) {
	p, err := profile.Parse(r)
	if err != nil {
		return nil, err
	}
	res := make([]*regexp.Regexp, len(stages))
	for i, s := range stages {
		res[i] = regexp.MustCompile(s.re)
	}
	cpu := 0
	for i, st := range p.SampleType {
		if st.Type == "cpu" {
			cpu = i
		}
	}
	by := make([]time.Duration, len(stages)+1)
samples:
	for _, s := range p.Sample {
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
		by[stage] += time.Duration(s.Value[cpu])
	}
	rows := make([]Row, 0, len(by))
	for i, d := range by {
		name := "other (runtime, scheduler, syscalls)"
		if i < len(stages) {
			name = stages[i].name
		}
		rows = append(rows, Row{name, d})
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].CPU > rows[j].CPU })
	return rows, nil
}

// Markdown writes rows as a table in ms an article, over articles.
func Markdown(rows []Row, articles int) string {
	var total time.Duration
	for _, r := range rows {
		total += r.CPU
	}
	per := func(d time.Duration) float64 { return float64(d) / 1e6 / float64(max(articles, 1)) }
	var b strings.Builder
	fmt.Fprintf(&b, "| stage | ms an article | share |\n| --- | ---: | ---: |\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %.3f | %.0f %% |\n", r.Stage, per(r.CPU), 100*float64(r.CPU)/float64(max(total, 1)))
	}
	fmt.Fprintf(&b, "| **all of this process in the batch runs** | **%.3f** | 100 %% |\n", per(total))
	return b.String()
}
