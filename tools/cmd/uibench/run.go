package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/xuri/excelize/v2"

	"github.com/newsdedup/newsdedup/handlers"
	"github.com/newsdedup/newsdedup/handlers/tables"
	"github.com/newsdedup/newsdedup/repo"
	"github.com/newsdedup/newsdedup/repo/dbtest"
	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

type config struct {
	serverURL      string
	articles       int
	days           int
	clustersPerDay int
	longHeads      int // the newest clusters whose head is made a 2 MB compilation
	requests       int
	keep           bool
	reuse          string
	md             string
	only           string
	command        string
}

const apiKey = "uibench-key-51d2"

func run(ctx context.Context, args []string, out io.Writer) error {
	cfg := config{serverURL: os.Getenv("DATABASE_URL")}
	fs := flag.NewFlagSet("uibench", flag.ContinueOnError)
	fs.IntVar(&cfg.articles, "articles", 1_000_000, "articles to store")
	fs.IntVar(&cfg.days, "days", 100, "days they are spread over")
	fs.IntVar(&cfg.clustersPerDay, "clusters-per-day", 1000, "clusters of two or more articles a day")
	fs.IntVar(&cfg.longHeads, "long-heads", 0, "make the head of this many of the newest clusters a 2 MB compilation")
	fs.IntVar(&cfg.requests, "requests", 30, "requests timed per kind of page")
	fs.BoolVar(&cfg.keep, "keep", false, "keep the database")
	fs.StringVar(&cfg.reuse, "reuse", "", "measure this kept database again instead of loading one")
	fs.StringVar(&cfg.md, "md", "", "write the table into this Markdown file, between <!-- uibench:begin --> and <!-- uibench:end -->")
	fs.StringVar(&cfg.only, "only", "", "time only the kinds of page whose name contains this, for a quick look (not with -md)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if cfg.only != "" && cfg.md != "" {
		return errors.New("-only times a part of the table: it is not written with -md")
	}
	if cfg.serverURL == "" {
		return errors.New("DATABASE_URL is not set: it names the server where the benchmark's database is made")
	}
	// The command as it loads and measures: where the table goes is not part
	// of it.
	cfg.command = "go run ./cmd/uibench"
	for _, a := range fs.Args() {
		cfg.command += " " + a
	}
	fs.Visit(func(f *flag.Flag) {
		if f.Name != "md" {
			cfg.command += fmt.Sprintf(" -%s=%s", f.Name, f.Value)
		}
	})
	return bench(ctx, cfg, out)
}

func bench(ctx context.Context, cfg config, out io.Writer) error {
	name := cfg.reuse
	if name == "" {
		name = fmt.Sprintf("uibench_%d", cfg.articles)
	}
	dbURL, err := dbtest.DatabaseURL(cfg.serverURL, name)
	if err != nil {
		return err
	}
	if cfg.reuse == "" {
		if dbURL, err = dbtest.CreateDatabase(ctx, cfg.serverURL, name, dbtest.DatabaseOptions{}); err != nil {
			return err
		}
	}
	if err := dbtest.MigrateUp(ctx, dbURL); err != nil { // a kept database: the migrations since
		return err
	}
	if !cfg.keep && cfg.reuse == "" {
		defer func() {
			dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
			defer cancel()
			if err := dbtest.DropDatabase(dctx, cfg.serverURL, name); err != nil {
				fmt.Fprintf(out, "drop %s: %v\n", name, err)
			}
		}()
	}
	pool, err := pgxpool.New(ctx, dbURL)
	if err != nil {
		return err
	}
	defer pool.Close()

	if cfg.reuse == "" {
		fmt.Fprintf(out, "loading %d articles over %d days, %d clusters a day, into %s\n", cfg.articles, cfg.days, cfg.clustersPerDay, name)
		began := time.Now()
		if err := load(ctx, pool, cfg, out); err != nil {
			return err
		}
		if err := lengthenHeads(ctx, pool, cfg.longHeads); err != nil {
			return err
		}
		if _, err := pool.Exec(ctx, `VACUUM ANALYZE`); err != nil {
			return err
		}
		fmt.Fprintf(out, "loaded and analysed in %s\n", time.Since(began).Round(time.Second))
	}
	var articles, clusters int64
	if err := pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM articles), (SELECT count(*) FROM cluster_listing)`).Scan(&articles, &clusters); err != nil {
		return err
	}

	// The real stack, as dedupd serves it.
	dict, err := fingerprint.Load(fingerprint.DefaultDictDir())
	if err != nil {
		return err
	}
	defer dict.Close()
	st, err := repo.Open(ctx, dbURL, repo.Options{MaxConns: 16, StatementTimeout: 5 * time.Second})
	if err != nil {
		return err
	}
	defer st.Close()
	svc, err := service.New(st, fingerprint.NewWeighted(dict, fingerprint.DefaultWeightedParams), service.DefaultOptions)
	if err != nil {
		return err
	}
	if err := svc.SetKeepPolicy(service.KeepPolicy{Sources: []string{"xinhua", "people", "cctv"}}); err != nil {
		return err
	}
	e, err := handlers.New(svc, handlers.Config{APIKeys: []string{apiKey}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Registry: prometheus.NewRegistry()})
	if err != nil {
		return err
	}
	srv := httptest.NewServer(e)
	defer srv.Close()

	r, err := measure(ctx, cfg, pool, svc, srv.URL)
	if err != nil {
		return err
	}
	r.articles, r.clusters = articles, clusters
	md := r.markdown(cfg)
	fmt.Fprint(out, md)
	if cfg.md != "" {
		return writeSection(cfg.md, md)
	}
	return nil
}

// timing is the latencies of one kind of page.
type timing struct {
	name      string
	durations []time.Duration
	followed  int           // searches that led to a cluster, its page timed too
	failed    string        // the answer that was not 200, if the kind failed: no durations
	goal      time.Duration // the p50 the kind should hold: pageGoal, or exportGoal for a download
}

// The goals (issues 44 and 48): a page of results within pageGoal, an
// export of MaxExportRows rows within exportGoal.
const (
	pageGoal   = 200 * time.Millisecond
	exportGoal = 2 * time.Second
)

type results struct {
	articles, clusters int64
	timings            []timing
	when               time.Time
	// loadBefore and loadAfter are the machine's load average (1 minute)
	// as the timing began and ended: the machine may be shared.
	loadBefore, loadAfter string
}

// loadAverage is the machine's load average over the last minute, or "?"
// where /proc/loadavg is not.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "?"
}

// client is an editor's browser: a cookie jar, no redirects followed.
type client struct {
	base string
	c    *http.Client
	csrf string
}

var hiddenCSRF = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

func signIn(base string) (*client, error) {
	jar, _ := cookiejar.New(nil)
	c := &client{base: base, c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	_, body, err := c.get("/ui/signin")
	if err != nil {
		return nil, err
	}
	m := hiddenCSRF.FindStringSubmatch(body)
	if m == nil {
		return nil, errors.New("no csrf on the sign-in form")
	}
	status, _, err := c.post("/ui/signin", url.Values{"csrf": {m[1]}, "name": {"uibench"}, "key": {apiKey}, "next": {"/ui/"}})
	if err != nil || status != http.StatusSeeOther {
		return nil, fmt.Errorf("sign in: %d %v", status, err)
	}
	_, body, err = c.get("/ui/")
	if m = hiddenCSRF.FindStringSubmatch(body); err != nil || m == nil {
		return nil, fmt.Errorf("the list after signing in: %v", err)
	}
	c.csrf = m[1]
	return c, nil
}

func (c *client) do(req *http.Request) (int, string, error) {
	res, err := c.c.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return res.StatusCode, string(b), err
}

func (c *client) get(path string) (int, string, error) {
	req, err := http.NewRequest(http.MethodGet, c.base+path, nil)
	if err != nil {
		return 0, "", err
	}
	if strings.HasPrefix(path, "/v1/") {
		req.Header.Set("Authorization", "Bearer "+apiKey)
	}
	return c.do(req)
}

// follow is a search that leads to a cluster: the search's 303, then the
// page it leads to.
func (c *client) follow(path string) (int, string, error) {
	req, err := http.NewRequest(http.MethodGet, c.base+path, nil)
	if err != nil {
		return 0, "", err
	}
	res, err := c.c.Do(req)
	if err != nil {
		return 0, "", err
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther {
		return res.StatusCode, "", nil
	}
	return c.get(res.Header.Get("Location"))
}

func (c *client) post(path string, form url.Values) (int, string, error) {
	req, err := http.NewRequest(http.MethodPost, c.base+path, strings.NewReader(form.Encode()))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return c.do(req)
}

// measure times every kind of page, each over cfg.requests requests (a
// first round warms the caches and is not counted).
func measure(ctx context.Context, cfg config, pool *pgxpool.Pool, svc *service.Service, base string) (*results, error) {
	rng := rand.New(rand.NewPCG(14, 200))
	c, err := signIn(base)
	if err != nil {
		return nil, err
	}

	// Clusters to open: random ones, and the largest.
	var ids []int64
	rows, err := pool.Query(ctx, `(SELECT cluster_id FROM cluster_listing TABLESAMPLE SYSTEM (1) LIMIT $1)
		UNION ALL (SELECT cluster_id FROM cluster_listing ORDER BY size DESC LIMIT 3)`, cfg.requests)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil || len(ids) == 0 {
		return nil, fmt.Errorf("no cluster to open: %v", err)
	}
	members := map[int64][]int64{}
	for _, id := range ids {
		view, err := svc.Cluster(ctx, id)
		if err != nil {
			return nil, err
		}
		for _, m := range view.Members {
			members[id] = append(members[id], m.ID)
		}
	}
	// Editors' decisions, through the service: keeps and splits.
	for i, id := range ids {
		ms := members[id]
		if i%3 == 0 {
			if _, err := svc.Keep(ctx, id, ms[rng.IntN(len(ms))], service.DecisionInput{Editor: "uibench"}); err != nil {
				return nil, err
			}
		}
	}

	var last time.Time
	if err := pool.QueryRow(ctx, `SELECT max(published_at) FROM cluster_listing`).Scan(&last); err != nil {
		return nil, err
	}
	day := func(back int) string { return last.AddDate(0, 0, -back).Format(time.DateOnly) }
	// Cursors of deep pages, followed through the API.
	deep := map[int]string{}
	cursor := ""
	for pageNo := 2; pageNo <= 50; pageNo++ {
		var page struct {
			Next *string `json:"next_cursor"`
		}
		status, body, err := c.get("/v1/clusters?cursor=" + url.QueryEscape(cursor))
		if err != nil || status != 200 {
			return nil, fmt.Errorf("follow pages: %d %v", status, err)
		}
		if err := json.Unmarshal([]byte(body), &page); err != nil || page.Next == nil {
			break
		}
		cursor = *page.Next
		if pageNo == 2 || pageNo == 50 {
			deep[pageNo] = cursor
		}
	}

	// Searches: words drawn as the headlines draw them (most are common),
	// words drawn evenly from the vocabulary (most are rare), two words,
	// and the keys, URLs and ids of random articles.
	vocab, err := loadVocabulary()
	if err != nil {
		return nil, err
	}
	search := func(q string) string { return "/ui/search?q=" + url.QueryEscape(q) }
	var typical, rare, pairs, keys, externalIDs, urls, articleIDs []string
	for range cfg.requests {
		typical = append(typical, search(vocab.word(rng)))
		rare = append(rare, search(vocab.words[rng.IntN(len(vocab.words))]))
		pairs = append(pairs, search(vocab.word(rng)+" "+vocab.word(rng)))
	}
	rows, err = pool.Query(ctx, `SELECT id, source, external_id, url FROM articles TABLESAMPLE SYSTEM (0.5) LIMIT $1`, cfg.requests)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var id int64
		var source, externalID, u string
		if err := rows.Scan(&id, &source, &externalID, &u); err != nil {
			return nil, err
		}
		keys = append(keys, search(source+" "+externalID))
		externalIDs = append(externalIDs, search(externalID))
		urls = append(urls, search(u))
		articleIDs = append(articleIDs, search(fmt.Sprint(id)))
	}
	if err := rows.Err(); err != nil || len(keys) == 0 {
		return nil, fmt.Errorf("no article to search for: %v", err)
	}

	type kind struct {
		name string
		urls []string
	}
	each := func(format string) []string {
		var out []string
		for _, id := range ids {
			ms := members[id]
			out = append(out, fmt.Sprintf(format, id, ms[rng.IntN(len(ms))]))
		}
		return out
	}
	// The desk's report of a week (issue 48: "who copied them in a week"),
	// and downloads of a month: more copies than an export holds.
	week := fmt.Sprintf("source=xinhua&from=%s&to=%s", day(6), day(0))
	month := fmt.Sprintf("source=xinhua&from=%s&to=%s", day(29), day(0))
	var apiClusters, otherCoverage []string
	for _, id := range ids {
		apiClusters = append(apiClusters, fmt.Sprintf("/v1/clusters/%d", id))
		otherCoverage = append(otherCoverage, fmt.Sprintf("/v1/clusters/%d/other-coverage", id))
	}
	kinds := []kind{
		{"list, first page (50 clusters)", []string{"/ui/"}},
		{"list, page 2", []string{"/ui/?cursor=" + url.QueryEscape(deep[2])}},
		{"list, page 50", []string{"/ui/?cursor=" + url.QueryEscape(deep[50])}},
		{"list, source xinhua (common)", []string{"/ui/?source=xinhua"}},
		{"list, source rare-07 (rare)", []string{"/ui/?source=rare-07"}},
		{"list, source with no cluster", []string{"/ui/?source=nobody"}},
		{"list, a week a month back", []string{fmt.Sprintf("/ui/?from=%s&to=%s", day(36), day(30))}},
		{"list, the oldest week", []string{fmt.Sprintf("/ui/?from=%s&to=%s", day(cfg.days-1), day(cfg.days-7))}},
		{"list, status exact_duplicate", []string{"/ui/?status=exact_duplicate"}},
		{"list, status partial_duplicate (none)", []string{"/ui/?status=partial_duplicate"}},
		{"list, size 20 or more", []string{"/ui/?min_size=20"}},
		{"list, size 100 or more", []string{"/ui/?min_size=100"}},
		{"list, size 500 or more (none)", []string{"/ui/?min_size=500"}},
		{"list, source xinhua + size 20 or more", []string{"/ui/?source=xinhua&min_size=20"}},
		{"list, source + date + size", []string{fmt.Sprintf("/ui/?source=sina&from=%s&to=%s&min_size=4", day(20), day(10))}},
		{"list, by size", []string{"/ui/?sort=size"}},
		{"list, by latest member", []string{"/ui/?sort=latest"}},
		{"list, by size, source sina (prefix)", []string{"/ui/?sort=size&source=sina"}},
		{"search, a word as headlines draw them", typical},
		{"search, a word drawn evenly (rare)", rare},
		{"search, 中国 (the most common)", []string{search("中国")}},
		{"search, 洪水 (a sample's headline)", []string{search("洪水")}},
		{"search, two words", pairs},
		{"search, a Latin word (NBA)", []string{search("NBA")}},
		{"search, CMS key (source and id)", keys},
		{"search, CMS id alone", externalIDs},
		{"search, URL", urls},
		{"search, article id", articleIDs},
		{"cluster: diff with the original, side by side, differences, other coverage", each("/ui/clusters/%d?with=%d")},
		{"split confirmation", each("/ui/clusters/%d/split?article=%d")},
		{"API GET /v1/clusters", []string{"/v1/clusters"}},
		{"API GET /v1/clusters?limit=200", []string{"/v1/clusters?limit=200"}},
		{"API GET /v1/clusters?source=rare-07", []string{"/v1/clusters?source=rare-07"}},
		{"API GET /v1/clusters/{id}", apiClusters},
		{"API GET /v1/clusters/{id}/other-coverage", otherCoverage},
		{"API GET /v1/search?q=中国", []string{"/v1/search?q=" + url.QueryEscape("中国")}},
		{"API GET /v1/overview", []string{"/v1/overview"}},
		{"API GET /v1/sources?prefix=sina", []string{"/v1/sources?prefix=sina"}},
	}
	kinds = append(kinds, []kind{ // the copyright desk (issue 48): who copied xinhua in a month, and the downloads
		{"who copied us, page (/ui/copies), xinhua, 7 days", []string{"/ui/copies?" + week}},
		{"API GET /v1/sources/xinhua/copies, 7 days", []string{"/v1/sources/xinhua/copies?" + week}},
		{"export: who copied us, 30 days, CSV", []string{"/v1/sources/xinhua/copies?format=csv&" + month}},
		{"export: who copied us, 30 days, .xlsx", []string{"/v1/sources/xinhua/copies?format=xlsx&" + month}},
		{"export: clusters, CSV", []string{"/v1/clusters?format=csv"}},
		{"export: clusters, .xlsx", []string{"/v1/clusters?format=xlsx"}},
	}...)
	if cfg.longHeads > 0 { // the pages of the clusters whose head lengthenHeads made 2 MB long
		var long []int64
		rows, err := pool.Query(ctx, `SELECT cluster_id FROM cluster_listing ORDER BY published_at DESC, cluster_id DESC LIMIT $1`,
			min(cfg.longHeads, cfg.requests))
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				return nil, err
			}
			long = append(long, id)
		}
		if err := rows.Err(); err != nil {
			return nil, err
		}
		var pages, api []string
		for _, id := range long {
			pages, api = append(pages, fmt.Sprintf("/ui/clusters/%d", id)), append(api, fmt.Sprintf("/v1/clusters/%d", id))
		}
		kinds = append(kinds, kind{"cluster with a 2 MB head", pages}, kind{"API GET /v1/clusters/{id}, a 2 MB head", api})
	}
	res := &results{when: time.Now(), loadBefore: loadAverage()}
	defer func() { res.loadAfter = loadAverage() }()
kinds:
	for _, k := range kinds {
		if !strings.Contains(k.name, cfg.only) {
			continue
		}
		for _, u := range k.urls { // warm up, and check the page is what it should be
			status, body, err := c.get(u)
			if err == nil && status == http.StatusSeeOther && strings.HasPrefix(u, "/ui/search") {
				status, body, err = c.follow(u)
			}
			if err != nil {
				return nil, fmt.Errorf("%s %s: %v", k.name, u, err)
			}
			if status != 200 { // a page that fails is in the table, not the end of the run
				res.timings = append(res.timings, timing{name: k.name, failed: fmt.Sprintf("%d: %.200s", status, body)})
				continue kinds
			}
			if strings.HasPrefix(u, "/ui/clusters/") && !strings.Contains(u, "/split") && !strings.Contains(body, `<section id="side"`) {
				return nil, fmt.Errorf("%s %s: no side by side on the page", k.name, u)
			}
			if rows, cut, ok := exportRows(u, body); ok {
				k.name += fmt.Sprintf(" (%s rows", thousands(int64(rows)))
				if cut {
					k.name += ", cut"
				}
				k.name += ")"
			}
		}
		t := timing{name: k.name, goal: pageGoal}
		n := cfg.requests
		if strings.Contains(k.urls[0], "format=") { // a download: timed fewer times, against its own goal
			t.goal, n = exportGoal, min(n, exportRequests)
		}
		for i := range n {
			u := k.urls[i%len(k.urls)]
			start := time.Now()
			status, _, err := c.get(u)
			if err == nil && status == http.StatusSeeOther && strings.HasPrefix(u, "/ui/search") {
				status, _, err = c.follow(u) // the search leads to a cluster: both requests count
				t.followed++
			}
			t.durations = append(t.durations, time.Since(start))
			if err != nil {
				return nil, fmt.Errorf("%s %s: %v", k.name, u, err)
			}
			if status != 200 {
				t.failed = fmt.Sprintf("%d on request %d of %d, after %s ms", status, i+1, n, ms(t.durations[i]))
				res.timings = append(res.timings, t)
				continue kinds
			}
		}
		res.timings = append(res.timings, t)
	}
	if cfg.only != "" {
		return res, nil
	}
	// The keep form: a POST, the decision stored, a redirect.
	t := timing{name: "keep form (POST, then 303)", goal: pageGoal}
	for i := range cfg.requests {
		id := ids[i%len(ids)]
		ms := members[id]
		start := time.Now()
		status, _, err := c.post(fmt.Sprintf("/ui/clusters/%d/kept", id), url.Values{"csrf": {c.csrf}, "article_id": {fmt.Sprint(ms[rng.IntN(len(ms))])}})
		t.durations = append(t.durations, time.Since(start))
		if err != nil || status != http.StatusSeeOther {
			return nil, fmt.Errorf("keep: %d %v", status, err)
		}
	}
	res.timings = append(res.timings, t)
	return res, nil
}

// exportRequests is how many times a download is timed: each is seconds.
const exportRequests = 5

// exportRows counts the rows of a download, its header and a last
// #truncated row (an export cut at service.MaxExportRows) excepted, read
// back with encoding/csv or excelize, so that the table says how big the
// export it timed was; cut says it was cut.
func exportRows(u, body string) (rows int, cut bool, ok bool) {
	var records [][]string
	switch {
	case strings.Contains(u, "format=csv"):
		var err error
		if records, err = csv.NewReader(strings.NewReader(body)).ReadAll(); err != nil {
			return 0, false, false
		}
	case strings.Contains(u, "format=xlsx"):
		f, err := excelize.OpenReader(strings.NewReader(body))
		if err != nil {
			return 0, false, false
		}
		defer f.Close()
		if records, err = f.GetRows(f.GetSheetName(0)); err != nil {
			return 0, false, false
		}
	default:
		return 0, false, false
	}
	if n := len(records); n > 1 && len(records[n-1]) > 0 && records[n-1][0] == tables.TruncatedMark {
		records, cut = records[:n-1], true
	}
	return max(len(records)-1, 0), cut, true
}

func percentile(ds []time.Duration, p float64) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(p*float64(len(s)-1) + 0.5)
	return s[i]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d.Microseconds())/1000) }

func (r *results) markdown(cfg config) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Measured %s on %d CPUs (%s/%s) with `%s`: %s articles stored, %s clusters of two or more; "+
		"%d requests of each kind after one that warms the caches, timed at the client (in-process HTTP: the whole server, page rendering included).\n\n",
		r.when.UTC().Format("2006-01-02"), runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, cfg.command, thousands(r.articles), thousands(r.clusters), cfg.requests)
	fmt.Fprintf(&b, "The machine's load average (1 minute) was %s as the timing began and %s as it ended: on a shared machine, figures move with it.\n\n", r.loadBefore, r.loadAfter)
	b.WriteString("A search that leads straight to a cluster is timed with the cluster's page it leads to (its 303, then the page): " +
		"the column \"to a cluster\" says how many of a kind's requests did.\n\n")
	fmt.Fprintf(&b, "Goals: %s ms a page, %s ms a download of %s rows (timed %d times); \"met\" compares the p50.\n\n",
		ms(pageGoal), ms(exportGoal), thousands(service.MaxExportRows), min(cfg.requests, exportRequests))
	b.WriteString("| page | p50 ms | p95 ms | max ms | goal met | to a cluster |\n| --- | ---: | ---: | ---: | --- | ---: |\n")
	worst := time.Duration(0)
	for _, t := range r.timings {
		if t.failed != "" {
			fmt.Fprintf(&b, "| %s | — | — | — | **failed**: %s |  |\n", t.name, strings.Join(strings.Fields(strings.ReplaceAll(t.failed, "|", "/")), " "))
			continue
		}
		worst = max(worst, slices.Max(t.durations))
		followed := ""
		if strings.HasPrefix(t.name, "search") {
			followed = fmt.Sprintf("%d of %d", t.followed, len(t.durations))
		}
		met := "yes"
		if percentile(t.durations, 0.5) > t.goal {
			met = "**no**"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", t.name, ms(percentile(t.durations, 0.5)), ms(percentile(t.durations, 0.95)), ms(slices.Max(t.durations)), met, followed)
	}
	total := 0
	for _, t := range r.timings {
		total += len(t.durations)
	}
	fmt.Fprintf(&b, "\nThe slowest of all %s requests took %s ms.\n", thousands(int64(total)), ms(worst))
	return b.String()
}

// writeSection replaces the text between the markers in a Markdown file.
func writeSection(path, text string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	const begin, end = "<!-- uibench:begin -->\n", "<!-- uibench:end -->"
	s := string(b)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		return fmt.Errorf("%s has no %q … %q section", path, strings.TrimSpace(begin), end)
	}
	return os.WriteFile(path, []byte(s[:i+len(begin)]+text+s[j:]), 0o644)
}

// thousands writes n with commas between groups of three digits.
func thousands(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
