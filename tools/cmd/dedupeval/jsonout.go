package main

import (
	"encoding/json"
	"math"
	"os"
	"strconv"
	"time"
)

// evaluation.json holds every count of the run, for anyone who wants to
// recompute a figure or draw another chart. It holds headlines only where
// the report quotes them, and never a body or a sentence.

type jsonDoc struct {
	Started        time.Time `json:"started"`
	ElapsedSeconds float64   `json:"elapsed_seconds"`
	Machine        machine   `json:"machine"`
	Command        string    `json:"command"`
	Postgres       string    `json:"postgres,omitempty"`
	Corpora        struct {
		Dir     string `json:"dir"`
		Missing string `json:"missing,omitempty"`
	} `json:"corpora"`
	Goals []goalRow   `json:"goals"`
	News  *jsonNews   `json:"news,omitempty"`
	Novel novelResult `json:"novel"`
}

type jsonNews struct {
	Articles  map[string]int  `json:"articles"`
	Features  features        `json:"features"`
	Ingest    ingestSummary   `json:"ingest"`
	Natural   []jsonNatural   `json:"natural_pairs"`
	Misses    []pairExample   `json:"natural_misses"`
	Precision precisionResult `json:"precision"`
	Reposts   repostResults   `json:"reposts"`
	Digests   digestResults   `json:"digests"`
	Kept      keptResult      `json:"kept_and_drift"`
	Sentences sentenceAudit   `json:"sentence_audit"`
	Sweep     sweepResult     `json:"sweep"`
	Service   figures         `json:"service"`
}

type jsonNatural struct {
	Corpus string `json:"corpus"`
	Class  string `json:"class"`
	Band   string `json:"band"`
	naturalCount
}

func writeJSON(path string, ev *evaluation) error {
	doc := jsonDoc{Started: ev.Started, ElapsedSeconds: ev.Elapsed.Seconds(), Machine: ev.Machine, Command: ev.Command,
		Postgres: ev.Postgres, Goals: ev.Goals, Novel: ev.Novel}
	doc.Corpora.Dir, doc.Corpora.Missing = ev.CorporaDir, ev.CorporaMissing
	if n := ev.News; n != nil {
		jn := &jsonNews{Articles: corpusCounts(n.Articles), Features: n.Features, Ingest: n.Ingest, Misses: n.Natural.Misses,
			Precision: n.Precise, Reposts: n.Reposts, Digests: n.Digests, Kept: n.Kept, Sentences: n.Sentence, Sweep: n.Sweep, Service: n.Service}
		for _, name := range append(append([]string(nil), corpusNames...), "both") {
			for _, class := range naturalClasses {
				for b, bd := range newsBands {
					if c := n.Natural.Counts[naturalKey{Corpus: name, Class: class, Band: b}]; c != nil {
						jn.Natural = append(jn.Natural, jsonNatural{Corpus: name, Class: class, Band: bd.Name, naturalCount: *c})
					}
				}
			}
		}
		doc.News = jn
	}
	data, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// number is a float that is null in JSON when it is NaN (a rate of nothing).
type number float64

func (n number) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(n)) || math.IsInf(float64(n), 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, float64(n), 'g', -1, 64), nil
}
