// Command profstages reads a CPU profile of a dedupbench run
// (-cpuprofile) and prints the CPU time of the in-process service's batch
// ingest by stage, in ms an article (tools/internal/profstages).
// dedupbench -only news-ingest -cpuprofile prints the same table itself;
// this reads a profile saved earlier.
//
//	go run ./cmd/profstages -articles 16028 run.pprof
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/newsdedup/newsdedup/tools/internal/profstages"
)

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
	defer f.Close()
	rows, err := profstages.Stages(f)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Print(profstages.Markdown(rows, *articles))
}
