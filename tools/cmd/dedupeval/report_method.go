package main

import (
	"fmt"
	"io"

	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// writeMethod says how the figures were measured and what the labels are.
func writeMethod(w io.Writer, ev *evaluation) {
	p := fingerprint.DefaultWeightedParams
	o := service.DefaultOptions
	fmt.Fprintf(w, "## How it was measured\n\n")
	fmt.Fprintf(w, "**The system under test** is the service as `dedupd` serves it: the same `repo`, `service` and `handlers`, with the shipped defaults (fingerprint version %d: `Weighted` with exponent %s, weight cap %s, top %d words, body only, numbers dropped, short edge lines and credit lines stripped, matched in one script; `max_distance` %d, `min_overlap` %s, `window_hours` %s), ",
		fingerprint.VersionOneScript, fmtFloat(p.Exponent), fmtFloat(p.WeightCap), p.TopN, o.MaxDistance, fmtFloat(o.MinOverlap), fmtFloat(o.Window.Hours()))
	fmt.Fprintf(w, "started in the evaluating process on a scratch PostgreSQL database (created, migrated and dropped by the run) and a real loopback listener, and spoken to over HTTP with JSON, as a newsroom's CMS would.\n\n")
	if ev.News == nil {
		fmt.Fprintf(w, "Without the real corpora this run only made the 围城 check below.\n\n")
		return
	}
	fmt.Fprintf(w, "- **The contract's coming parts**: the status `partial_duplicate` %s, `coverage` on links %s, the shared-sentences route %s in this run's server. The program reads them where they are, counts an unknown status as a link, and skips the sentence audit with a note where the route answers 404.\n",
		present(ev.News.Features.PartialStatus), present(ev.News.Features.Coverage), present(ev.News.Features.SharedSentences))
	fmt.Fprintf(w, "- **Storing the corpora**: every article goes in through `POST /v1/articles/batch`, %d a batch, one batch at a time (the verdicts depend on the order), Sina first (2018), then CCTV (2022 on), each in its file's order. ", ingestBatchSize)
	fmt.Fprintf(w, "`published_at`: CCTV's stories carry their broadcast date and are published at 19:00 Beijing time that day, a minute apart in the programme's order, so the 168-hour window applies as it would in a newsroom; ")
	fmt.Fprintf(w, "Sina's have no date (the feed was scraped in early November 2018), so they are spread in file order over %d days from 1 November 2018: every two Sina articles are within the window, and it hides no pair.\n", int(sinaSpan.Hours()/24))
	fmt.Fprintf(w, "- **Labels** come from a measure the service does not use: the character 5-grams of the two bodies, normalised as the service normalises (NFKC, lower case, punctuation to spaces) with the spaces removed — all of them, where the service samples one in four. ")
	fmt.Fprintf(w, "*Jaccard* = |A∩B| / |A∪B|; *containment* = |A∩B| / min(|A|, |B|), the share of the shorter body found in the longer. ")
	fmt.Fprintf(w, "Identical: the normalised bodies are equal. Near-identical: Jaccard ≥ %s. Natural partial copy: containment ≥ %s with Jaccard < %s. Unrelated: containment < %s. ", fmtFloat(nearIdenticalFrom), fmtFloat(partialFrom), fmtFloat(nearIdenticalFrom), fmtFloat(unrelatedBelow))
	fmt.Fprintf(w, "Every pair sharing at least %s is found through an inverted index over the 5-grams whose hash is 0 modulo %d (grams in more than %d articles propose nothing; candidates sharing ≥ %s of the smaller sample are measured exactly); identical bodies are grouped by hash.\n",
		fmtFloat(unrelatedBelow), labelSample, maxPosting, fmtFloat(candidateShare))
	fmt.Fprintf(w, "- **Bands** are the body's characters, white space not counted: 80–300, 300–1000, ≥1000; a pair belongs to the band of its shorter body, and pairs whose shorter body is under 80 characters are left out. ")
	fmt.Fprintf(w, "A pair is **linked** when both articles are in one cluster, or one's `duplicate_of` is the other. Natural pairs published more than the window apart can only be linked as exact copies; the goals count the pairs within the window, and the tables show the others apart.\n")
	fmt.Fprintf(w, "- **Precision audit**: every link the service made while storing (an article and its `duplicate_of`) is measured the same way; a link between bodies sharing < 30 %% is one no reader wants. The goal counts the links between bodies of 80 characters or more (the banded ones); links with a shorter body are shown apart.\n")
	fmt.Fprintf(w, "- **Reposts**: up to %d originals per band, half Sina (only articles whose headline belongs to their body) and half CCTV, chosen with a fixed seed among the stored articles; each is edited every way below (edits that cannot apply, for want of sentences or paragraphs, are skipped). ", ev.News.perBandWanted())
	fmt.Fprintf(w, "Every repost goes through `POST /v1/check` (nothing is stored) against the whole store, published two hours after its source; it is **detected** when the verdict links it (any status but `unique`) to its source or to an article of its source's cluster. The headers, footers, bylines and editor's lines are generic lines written for this evaluation, with invented sites and names.\n")
	for _, e := range repostEdits {
		fmt.Fprintf(w, "  - `%s`: %s\n", e, editDescriptions[e])
	}
	fmt.Fprintf(w, "- **Candidate load**: the share of unrelated pairs (containment < 0.3) whose fingerprints are within 3 bits — the rows the block index returns for the verifier to reject — over every pair of both corpora, computed offline with the service's fingerprint (a popcount per pair).\n")
	fmt.Fprintf(w, "- **Sentence audit**: `GET /v1/articles/{id}/shared-sentences` for stored articles in a fixed random order; the distinct sentence links answered are sampled (%d at most) and each is classified: rejected when the two sentences' 5-gram Jaccard is below %s (not the same sentence) or the sentence is in %d or more articles of the corpora (boilerplate; sentences split at 。！？!?；; and line ends, of ≥ %d characters).\n",
		ev.News.sentenceTarget(), fmtFloat(sentenceJaccardFrom), boilerplateFrom, minIndexedRunes)
	fmt.Fprintf(w, "- **The sweep** measures settings of the fingerprint and the verifier offline, at the fingerprint level, with the service's decision (within 3 bits, `min_overlap` of shared text, within the window; or an exact copy) on the same articles and reposts; pairs are judged pairwise (the service can also link through a cluster). A rule in code (`choose.go`) picks the defaults from it.\n\n")
}

func present(ok bool) string {
	if ok {
		return "present"
	}
	return "**absent**"
}

// perBandWanted is the most originals of a band.
func (n *newsEvaluation) perBandWanted() int {
	most := 0
	for _, k := range n.Reposts.Originals {
		most = max(most, k)
	}
	return most
}

// sentenceTarget is the most links the audit classifies.
func (n *newsEvaluation) sentenceTarget() int { return n.Sentence.Target }
