package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/repo/dbtest"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// The corrections section (issue 32): what correcting, replacing or
// deleting an original costs with 0, 100, 1,000 and 10,000 articles
// linking to it. For each size a database is built once: the original (a
// 围城 article) and one exact copy stored through the API, then the copy's
// row and its sentences cloned in SQL to the number of dependants (a
// copy's row is the same for every copy but its key; storing 10,000 through
// the service takes most of an hour, each copy reading the copies before it
// as candidates), then VACUUM (ANALYZE). Each measurement runs on a copy of
// that database (CREATE DATABASE … TEMPLATE) with a service of its own,
// warmed up with a check of the story, and times one request: a new
// headline, a correction line appended, another story under the original's
// key, or DELETE. Every operation at every size runs once a repetition, in
// turn, so that the machine's noise spreads over all of them alike. After
// each, a check that the operation did what it should (the copies still
// link to a corrected original; they stay together without a deleted or
// replaced one) ends the run if it did not.

// onlyCorrections is the -only value that runs the corrections section
// alone.
const onlyCorrections = "corrections"

// The operations the section times.
const (
	opHeadline   = "headline"
	opCorrection = "correction line"
	opAnother    = "another story"
	opDelete     = "delete"
)

var correctionOps = []string{opHeadline, opCorrection, opAnother, opDelete}

// CorrectionsResult is the corrections section.
type CorrectionsResult struct {
	Date       time.Time       `json:"date"`
	Command    string          `json:"command"`
	Commit     string          `json:"commit"`
	Dependants []int           `json:"dependants"`
	Reps       int             `json:"reps"`
	PoolSize   int32           `json:"service_pool_size"`
	Runs       []CorrectionRun `json:"runs"`
	// SetupSeconds is how long building the tables took in all.
	SetupSeconds float64      `json:"setup_seconds"`
	LoadAvg      []LoadSample `json:"load_average"`
	TotalSeconds float64      `json:"total_seconds"`
}

// CorrectionRun is one operation at one number of dependants, over the
// repetitions: the request's time as the client saw it, and the ratio of
// its median to the median of the same operation with no dependant.
type CorrectionRun struct {
	Operation  string  `json:"operation"`
	Dependants int     `json:"dependants"`
	MS         Summary `json:"ms"`
	Ratio      float64 `json:"ratio_to_none"`
	// Wrong counts the requests after which the check found the cluster
	// not as the operation should leave it; Why is the first such finding.
	Wrong int    `json:"wrong,omitempty"`
	Why   string `json:"why,omitempty"`
	// Refused counts the requests the service answered with an error (its
	// time counted all the same).
	Refused int `json:"refused,omitempty"`
}

// run returns the section's run of op at n dependants, or nil.
func (r *CorrectionsResult) run(op string, n int) *CorrectionRun {
	for i := range r.Runs {
		if r.Runs[i].Operation == op && r.Runs[i].Dependants == n {
			return &r.Runs[i]
		}
	}
	return nil
}

// storyKey is the original's key; its copies are portal-N/copy-N.
const storySource, storyID = "wire", "story"

// benchCorrections measures the section. Each size's table is built once,
// in a database of its own, and each measurement runs on a copy of it
// (CREATE DATABASE … TEMPLATE), served by a service of its own warmed up
// with a check of the story.
func benchCorrections(ctx context.Context, cfg *config, dict *fingerprint.Dictionary, novel func() (*corpus.Novel, error), made *[]string) (*CorrectionsResult, error) {
	start := time.Now()
	res := &CorrectionsResult{Date: start.UTC(), Command: cfg.command, Commit: gitCommit(), Dependants: cfg.correctionDependants, Reps: cfg.correctionReps,
		PoolSize: cfg.poolSize}
	nv, err := novel()
	if err != nil {
		return nil, err
	}
	texts := nv.Originals(rand.New(rand.NewPCG(32, 1)), 2, 1500, 2500)
	story, other := texts[0], texts[1]

	templates, originals := make(map[int]string), make(map[int]int64)
	for _, n := range cfg.correctionDependants {
		name := cfg.dbPrefix + "corrections_" + strconv.Itoa(n)
		*made = append(*made, name)
		if originals[n], err = buildStory(ctx, cfg, dict, name, story, n); err != nil {
			return nil, fmt.Errorf("%d dependants: %w", n, err)
		}
		templates[n] = name
		progressf(cfg, "corrections: the table with %s dependants is built", num(n))
	}
	res.SetupSeconds = time.Since(start).Seconds()

	run := cfg.dbPrefix + "corrections_run"
	*made = append(*made, run)
	times := make(map[string]map[int][]float64)
	wrong := make(map[string]map[int][]string)
	refused := make(map[string]map[int]int)
	for rep := range cfg.correctionReps {
		res.LoadAvg = append(res.LoadAvg, loadAverage(fmt.Sprintf("corrections, repetition %d", rep+1)))
		for _, n := range cfg.correctionDependants {
			for _, op := range correctionOps {
				took, why, err := measureCorrection(ctx, cfg, dict, run, templates[n], op, originals[n], n, story, other)
				if err != nil {
					return nil, fmt.Errorf("%s with %d dependants: %w", op, n, err)
				}
				if times[op] == nil {
					times[op], wrong[op], refused[op] = make(map[int][]float64), make(map[int][]string), make(map[int]int)
				}
				times[op][n] = append(times[op][n], took.Seconds()*1000)
				if why != "" {
					wrong[op][n] = append(wrong[op][n], why)
				}
				if why == refusedWhy {
					refused[op][n]++
				}
			}
		}
		progressf(cfg, "corrections: repetition %d of %d done", rep+1, cfg.correctionReps)
	}
	for _, op := range correctionOps {
		none := summarize(times[op][0])
		for _, n := range cfg.correctionDependants {
			run := CorrectionRun{Operation: op, Dependants: n, MS: summarize(times[op][n]), Wrong: len(wrong[op][n]), Refused: refused[op][n]}
			if none.Median > 0 {
				run.Ratio = run.MS.Median / none.Median
			}
			if run.Wrong > 0 {
				run.Why = wrong[op][n][0]
			}
			res.Runs = append(res.Runs, run)
		}
	}
	res.LoadAvg = append(res.LoadAvg, loadAverage("corrections, end"))
	res.TotalSeconds = time.Since(start).Seconds()
	return res, nil
}

// buildStory makes database name, migrated, holding the story and n exact
// copies of it, and returns the story's id.
func buildStory(ctx context.Context, cfg *config, dict *fingerprint.Dictionary, name string, story corpus.Article, n int) (int64, error) {
	dbURL, err := createDatabase(ctx, cfg.serverURL, name, false)
	if err != nil {
		return 0, err
	}
	srv, err := startServer(ctx, dbURL, dict, cfg.poolSize)
	if err != nil {
		return 0, err
	}
	defer srv.stop()
	pool, err := openPool(ctx, dbURL, 1)
	if err != nil {
		return 0, err
	}
	defer pool.Close()
	api := &storyAPI{client: newClient(1), base: srv.URL}
	defer api.client.CloseIdleConnections()
	return api.setUp(ctx, pool, story, n)
}

// measureCorrection times operation op on the story (id original, n
// dependants) in database run, a copy of template, and says what the check
// after it found wrong ("" when nothing).
func measureCorrection(ctx context.Context, cfg *config, dict *fingerprint.Dictionary, run, template, op string, original int64, n int,
	story, other corpus.Article) (took time.Duration, wrong string, err error) {
	if err := dropDatabase(ctx, cfg.serverURL, run); err != nil {
		return 0, "", err
	}
	dbURL, err := dbtest.CreateDatabase(ctx, cfg.serverURL, run, dbtest.DatabaseOptions{Template: template})
	if err != nil {
		return 0, "", err
	}
	srv, err := startServer(ctx, dbURL, dict, cfg.poolSize)
	if err != nil {
		return 0, "", err
	}
	defer func() {
		if serr := srv.stop(); err == nil {
			err = serr
		}
	}()
	api := &storyAPI{client: newClient(1), base: srv.URL}
	defer api.client.CloseIdleConnections()
	if err := api.check(ctx, story); err != nil {
		return 0, "", fmt.Errorf("warm up: %w", err)
	}
	var refusal *statusError
	took, err = api.do(ctx, op, original, story, other)
	switch {
	case errors.As(err, &refusal) && refusal.got >= 500:
		return took, refusedWhy, nil
	case err != nil:
		return 0, "", err
	}
	pool, err := openPool(ctx, dbURL, 1)
	if err != nil {
		return 0, "", err
	}
	defer pool.Close()
	wrong, err = checkCorrection(ctx, pool, op, original, n)
	return took, wrong, err
}

// storyAPI sends the section's requests to the service.
type storyAPI struct {
	client *http.Client
	base   string
}

// setUp stores the original and n exact copies of it, and returns the
// original's id.
func (a *storyAPI) setUp(ctx context.Context, pool *pgxpool.Pool, story corpus.Article, n int) (int64, error) {
	original, err := a.post(ctx, storySource, storyID, story)
	if err != nil || n == 0 {
		return original, err
	}
	first, err := a.post(ctx, "portal-0", "copy-0", story)
	if err != nil {
		return 0, err
	}
	// The copy's row n-1 times more, each ingested a moment after the one
	// before (clock_timestamp), then its sentences for each.
	if _, err := pool.Exec(ctx, `
		INSERT INTO articles (source, external_id, title, url, body, content_type, published_at, content_hash, simhash,
		                      fingerprint_version, a0, a1, a2, a3, b0, b1, b2, b3, words, status, duplicate_of, distance,
		                      word_ratio, cluster_head, shingles, overlap, sentence_runes, plain_body, coverage_this, coverage_that)
		SELECT 'portal-' || (g % 40), 'copy-' || g, title, url, body, content_type, published_at, content_hash, simhash,
		       fingerprint_version, a0, a1, a2, a3, b0, b1, b2, b3, words, status, duplicate_of, distance,
		       word_ratio, cluster_head, shingles, overlap, sentence_runes, plain_body, coverage_this, coverage_that
		FROM articles, generate_series(1, $2 - 1) AS g
		WHERE id = $1
		ORDER BY g`, first, n); err != nil {
		return 0, fmt.Errorf("clone the copy: %w", err)
	}
	var columns []string // the sentence rows' columns, whatever the layout of the day
	rows, err := pool.Query(ctx, `
		SELECT quote_ident(attname) FROM pg_attribute
		WHERE attrelid = 'sentences'::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = ''
		ORDER BY attnum`)
	if err == nil {
		columns, err = pgx.CollectRows(rows, pgx.RowTo[string])
	}
	if err != nil {
		return 0, fmt.Errorf("read the sentences' columns: %w", err)
	}
	values := make([]string, len(columns))
	for i, c := range columns {
		values[i] = "s." + c
		if c == "article_id" {
			values[i] = "a.id"
		}
	}
	if _, err := pool.Exec(ctx, `
		INSERT INTO sentences (`+strings.Join(columns, ", ")+`)
		SELECT `+strings.Join(values, ", ")+`
		FROM articles a JOIN sentences s ON s.article_id = $1
		WHERE a.duplicate_of = $2 AND a.id <> $1`, first, original); err != nil {
		return 0, fmt.Errorf("clone the copy's sentences: %w", err)
	}
	if _, err := pool.Exec(ctx, `VACUUM (ANALYZE) articles, sentences`); err != nil {
		return 0, fmt.Errorf("vacuum: %w", err)
	}
	return original, nil
}

// check sends the story to POST /v1/check: the warm-up of a fresh service,
// which reads what a correction's judgement reads and stores nothing.
func (a *storyAPI) check(ctx context.Context, story corpus.Article) error {
	body, err := json.Marshal(map[string]string{"title": story.Title, "body": story.Body})
	if err != nil {
		return err
	}
	return a.send(ctx, http.MethodPost, "/v1/check", body, http.StatusOK, nil)
}

// do sends operation op on the original id and returns how long the
// request took.
func (a *storyAPI) do(ctx context.Context, op string, id int64, story, other corpus.Article) (time.Duration, error) {
	next := story
	switch op {
	case opHeadline:
		next.Title = "（更新）" + story.Title
	case opCorrection:
		next.Body += "\n更正：本文此前版本中的日期有误，现已更正。"
	case opAnother:
		next = other
	case opDelete:
		start := time.Now()
		err := a.send(ctx, http.MethodDelete, "/v1/articles/"+strconv.FormatInt(id, 10), nil, http.StatusNoContent, nil)
		return time.Since(start), err
	}
	start := time.Now()
	_, err := a.post(ctx, storySource, storyID, next)
	return time.Since(start), err
}

// post stores an article through POST /v1/articles and returns its id.
func (a *storyAPI) post(ctx context.Context, source, id string, art corpus.Article) (int64, error) {
	body, err := json.Marshal(map[string]string{"source": source, "external_id": id, "title": art.Title, "body": art.Body})
	if err != nil {
		return 0, err
	}
	var v struct {
		ID int64 `json:"id"`
	}
	return v.ID, a.send(ctx, http.MethodPost, "/v1/articles", body, http.StatusCreated, &v)
}

// send sends a request and wants status want, decoding the answer into out
// unless it is nil.
func (a *storyAPI) send(ctx context.Context, method, path string, body []byte, want int, out any) error {
	req, err := http.NewRequestWithContext(ctx, method, a.base+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := a.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != want {
		return &statusError{fmt.Sprintf("%s %s", method, path), resp.StatusCode, want, string(data)}
	}
	if out != nil {
		return json.Unmarshal(data, out)
	}
	return nil
}

// checkCorrection checks that operation op on the original id, which n
// copies linked to, did what it should — a corrected original heads its
// cluster, the copies still linking to it; without it, the copies stay
// together in one cluster — and says what it found wrong, "" if nothing.
func checkCorrection(ctx context.Context, pool *pgxpool.Pool, op string, id int64, n int) (string, error) {
	var linked, clusters int
	var head bool
	if err := pool.QueryRow(ctx, `
		SELECT (SELECT count(*) FROM articles WHERE duplicate_of = $1),
		       (SELECT count(DISTINCT cluster_id) FROM articles WHERE external_id LIKE 'copy-%'),
		       coalesce((SELECT duplicate_of IS NULL FROM articles WHERE id = $1), false)`, id).Scan(&linked, &clusters, &head); err != nil {
		return "", err
	}
	switch kept := op == opHeadline || op == opCorrection; {
	case kept && !head:
		return "the corrected original no longer heads its cluster", nil
	case kept && linked != n:
		return fmt.Sprintf("%d of %d copies link to the corrected original", linked, n), nil
	case !kept && n > 0 && (linked != 0 || clusters != 1):
		return fmt.Sprintf("the copies are in %d clusters, %d linking to the original", clusters, linked), nil
	}
	return "", nil
}

// refusedWhy is what a measurement found wrong when the service refused
// the request.
const refusedWhy = "refused"

// statusError is an answer with another status than the one wanted.
type statusError struct {
	request   string
	got, want int
	body      string
}

func (e *statusError) Error() string {
	return fmt.Sprintf("%s: %d %s, want %d", e.request, e.got, e.body, e.want)
}
