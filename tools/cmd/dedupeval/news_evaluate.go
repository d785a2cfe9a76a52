package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// evaluateNews runs the evaluation on the real corpora: labels, the
// service end to end on a scratch database, then the sweep offline. It
// returns the evaluation and the PostgreSQL server's version.
func evaluateNews(ctx context.Context, cfg config, d *fingerprint.Dictionary, articles []newsArticle, stdout io.Writer) (*newsEvaluation, string, error) {
	start := time.Now()
	n := &newsEvaluation{Articles: articles}
	n.Set = prepareNews(articles, cfg.workers)
	fmt.Fprintf(stdout, "real news: %d articles from %s, %d labelled pairs (%v)\n", len(articles), cfg.corpora, len(n.Set.Labels.Pairs), time.Since(start).Round(time.Second))

	pg, err := serverVersion(ctx, cfg.databaseURL)
	if err != nil {
		return nil, "", err
	}
	srv, err := startServer(ctx, cfg.databaseURL, cfg.dbPrefix, d)
	if err != nil {
		return nil, "", fmt.Errorf("start the service: %w", err)
	}
	if cfg.driftOnly {
		err := driftOnly(ctx, n, newClient(srv.URL), stdout)
		return n, pg, errors.Join(err, srv.Stop())
	}
	if cfg.evasionOnly {
		err := evasionOnly(ctx, n, newClient(srv.URL), stdout)
		return n, pg, errors.Join(err, srv.Stop())
	}
	if cfg.creditOnly {
		err := creditOnly(ctx, n, newClient(srv.URL), stdout)
		return n, pg, errors.Join(err, srv.Stop())
	}
	reposts, err := throughAPI(ctx, cfg, n, newClient(srv.URL), stdout)
	if err := errors.Join(err, srv.Stop()); err != nil {
		return nil, "", err
	}

	fmt.Fprintf(stdout, "sweep of fingerprint settings, offline\n")
	if n.Sweep, err = runSweep(ctx, d, n.Set, reposts, cfg.sweep, cfg.workers, stdout); err != nil {
		return nil, "", err
	}
	if p, ok := n.Sweep.shipped(); ok {
		n.Service.Load = p.Figures.Load
	}
	return n, pg, nil
}

// throughAPI stores the corpora, audits the links, checks the reposts and
// audits the sentence links, all over HTTP. It returns the reposts, for the
// sweep.
func throughAPI(ctx context.Context, cfg config, n *newsEvaluation, c *client, stdout io.Writer) ([]repost, error) {
	doc, err := c.contract(ctx)
	if err != nil {
		return nil, err
	}
	n.Features.PartialStatus = strings.Contains(doc, statusPartial)
	n.Features.SharedSentences = strings.Contains(doc, "/shared-sentences")

	fmt.Fprintf(stdout, "ingesting through POST /v1/articles/batch, %d a batch\n", ingestBatchSize)
	st, err := ingestNews(ctx, c, n.Articles, stdout)
	if err != nil {
		return nil, err
	}
	n.Ingest = summarizeIngest(st, n.Articles)

	n.Natural = auditNatural(n.Set, func(p labelledPair) bool { return st.linked(p.A, p.B) })
	n.Natural.naturalFigures(&n.Service)
	n.Precise = auditPrecision(n.Set, st)
	n.Service.FalseFlags = n.Precise.Banded.falseRate()

	originals := pickOriginals(n.Articles, st, cfg.perBand)
	reposts, unapplied := makeReposts(n.Articles, originals)
	fmt.Fprintf(stdout, "checking %d reposts through POST /v1/check\n", len(reposts))
	outcomes, elapsed, err := checkReposts(ctx, c, n.Articles, st, reposts, cfg.workers, stdout)
	if err != nil {
		return nil, err
	}
	n.Reposts = repostResults{Unapplied: unapplied, Counts: tallyReposts(reposts, outcomes), Seconds: elapsed.Seconds()}
	for _, list := range originals {
		n.Reposts.Originals = append(n.Reposts.Originals, len(list))
	}
	n.Service.Reposts = repostRates(n.Reposts.Counts)
	for _, o := range outcomes {
		n.Features.Coverage = n.Features.Coverage || o.Coverage
	}

	digests := makeDigests(n.Articles, st)
	fmt.Fprintf(stdout, "checking %d digests through POST /v1/check\n", len(digests))
	start := time.Now()
	dout, err := checkDigests(ctx, c, n.Articles, st, digests)
	if err != nil {
		return nil, err
	}
	n.Digests = digestResults{Counts: tallyDigests(digests, dout), Seconds: time.Since(start).Seconds()}

	fmt.Fprintf(stdout, "sentence audit through GET /v1/articles/{id}/shared-sentences\n")
	if n.Sentence, err = auditSentences(ctx, c, n.Set, st, cfg.sentenceLinks); err != nil {
		return nil, err
	}
	for _, sa := range st.Articles {
		n.Features.Coverage = n.Features.Coverage || sa.Coverage != nil
	}

	// Last: it stores the reposts, which every figure above checks unstored.
	drift := measureDrift(n.Set, st)
	if n.Features.Original = strings.Contains(doc, `"original"`); n.Features.Original {
		fmt.Fprintf(stdout, "storing the reposts, reading their clusters through GET /v1/clusters/{id}\n")
		if n.Kept, err = checkKept(ctx, c, n.Articles, st, reposts, stdout); err != nil {
			return nil, err
		}
	}
	n.Kept.Drift = drift

	// After every other figure: it stores copies of its own.
	fmt.Fprintf(stdout, "evasion (issue 45): detected of N\n")
	if n.Evasion, err = evasion(ctx, c, n.Articles, st, stdout); err != nil {
		return nil, err
	}
	fmt.Fprintf(stdout, "credit (issue 47): detected of N\n")
	if n.Credit, err = creditCheck(ctx, c, n.Articles, st, stdout); err != nil {
		return nil, err
	}
	return reposts, nil
}

// driftOnly stores the corpora and prints the drift of their clusters, the
// drifted members by kind.
func driftOnly(ctx context.Context, n *newsEvaluation, c *client, stdout io.Writer) error {
	st, err := ingestNews(ctx, c, n.Articles, stdout)
	if err != nil {
		return err
	}
	n.Kept.Drift = measureDrift(n.Set, st)
	writeDrift(stdout, n.Kept.Drift)
	return nil
}

// evasionOnly stores the corpora and prints the evasion section.
func evasionOnly(ctx context.Context, n *newsEvaluation, c *client, stdout io.Writer) error {
	st, err := ingestNews(ctx, c, n.Articles, stdout)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "evasion (issue 45): detected of N\n")
	n.Evasion, err = evasion(ctx, c, n.Articles, st, stdout)
	return err
}

// creditOnly stores the corpora and prints the credit section.
func creditOnly(ctx context.Context, n *newsEvaluation, c *client, stdout io.Writer) error {
	st, err := ingestNews(ctx, c, n.Articles, stdout)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "credit (issue 47): detected of N\n")
	n.Credit, err = creditCheck(ctx, c, n.Articles, st, stdout)
	return err
}

// summarizeIngest counts the verdicts of the ingest by corpus.
func summarizeIngest(st *stored, articles []newsArticle) ingestSummary {
	s := ingestSummary{Seconds: st.Elapsed.Seconds(), PerCorpus: make(map[string]map[string]int), Refusals: make(map[string]int)}
	for i, a := range st.Articles {
		c := s.PerCorpus[articles[i].Corpus]
		if c == nil {
			c = make(map[string]int)
			s.PerCorpus[articles[i].Corpus] = c
		}
		if a.Error != "" {
			c["error"]++
			s.Refusals[a.Error]++
		} else {
			c[a.Status]++
		}
	}
	return s
}

// serverVersion asks the PostgreSQL server its version.
func serverVersion(ctx context.Context, databaseURL string) (string, error) {
	conn, err := pgx.Connect(ctx, databaseURL)
	if err != nil {
		return "", fmt.Errorf("connect to PostgreSQL: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	var v string
	if err := conn.QueryRow(ctx, "SHOW server_version").Scan(&v); err != nil {
		return "", fmt.Errorf("PostgreSQL version: %w", err)
	}
	return v, nil
}
