package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/newsdedup/newsdedup/internal/corpus"
	"github.com/newsdedup/newsdedup/repo"
	"github.com/newsdedup/newsdedup/repo/dbtest"
	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// TestRefingerprintCommand stores articles of fingerprint version 2 and runs
// dedupd refingerprint twice: the first run upgrades them all, with progress
// lines and a summary, and the second finds nothing left to do.
func TestRefingerprintCommand(t *testing.T) {
	t.Parallel()
	dbURL := dbtest.URL(t)
	ctx := context.Background()
	store, err := repo.Open(ctx, dbURL, repo.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	a, stdout, stderr := testApp(t, map[string]string{"DATABASE_URL": dbURL})
	dict, _, err := a.loadDictionary("")
	if err != nil {
		t.Fatal(err)
	}
	old, err := service.New(store, fingerprint.NewWeighted(dict, fingerprint.WeightedParamsV2), service.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	bodies := []string{importArticle, strings.Replace(importArticle, "会议要求", "会议强调", 1), "明天北京将迎来大范围降雨，气温明显下降，请市民注意出行安全。"}
	for i, b := range bodies {
		in := service.ArticleInput{Text: service.Text{Title: "旧标题", Body: b}, ExternalID: fmt.Sprintf("v2-%d", i), Source: "old"}
		if _, err := old.Ingest(ctx, in, old.Defaults()); err != nil {
			t.Fatal(err)
		}
	}

	// A row of version 3 is older too: compared by its own version, it is
	// upgraded like version 2's.
	v3, err := service.New(store, fingerprint.NewWeighted(dict, fingerprint.WeightedParamsV3), service.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	v3Body := "市政府宣布将在明年年底前完成全市老旧小区的电梯加装工程，目前已有三百多个小区提交了申请。"
	if _, err := v3.Ingest(ctx, service.ArticleInput{Text: service.Text{Title: "电梯", Body: v3Body}, ExternalID: "v3-0", Source: "old"}, v3.Defaults()); err != nil {
		t.Fatal(err)
	}

	env := map[string]string{"DATABASE_URL": dbURL}
	a.progressInterval = 0
	if err := a.run(ctx, []string{"refingerprint"}); err != nil {
		t.Fatalf("refingerprint = %v; stderr:\n%s", err, stderr)
	}
	want := map[string]int{
		"articles of older versions at the start":      4,
		"fingerprinted and judged again":               4,
		"skipped (upgraded meanwhile or gone)":         0,
		"unique articles of this version judged again": 0,
		"of them now linked to an older article":       0,
	}
	if got := summaryCounts(t, stdout.String()); !mapsEqual(got, want) {
		t.Errorf("summary = %v, want %v:\n%s", got, want, stdout)
	}
	if !strings.Contains(stderr.String(), "refingerprint: ") {
		t.Errorf("no progress line on stderr:\n%s", stderr)
	}
	for i := range bodies {
		art, err := store.ArticleByKey(ctx, "old", fmt.Sprintf("v2-%d", i))
		if err != nil || art.FingerprintVersion != fingerprint.VersionOneScript {
			t.Errorf("v2-%d after the run: version %d, %v; want %d", i, art.FingerprintVersion, err, fingerprint.VersionOneScript)
		}
	}
	if art, err := store.ArticleByKey(ctx, "old", "v3-0"); err != nil || art.FingerprintVersion != fingerprint.VersionOneScript {
		t.Errorf("v3-0 after the run: version %d, %v; want %d", art.FingerprintVersion, err, fingerprint.VersionOneScript)
	}
	if art, _ := store.ArticleByKey(ctx, "old", "v2-1"); art.Status != service.StatusNearDuplicate {
		t.Errorf("the edited copy is %s after the upgrade, want near_duplicate", art.Status)
	}

	a, stdout, _ = testApp(t, env)
	if err := a.run(ctx, []string{"refingerprint"}); err != nil {
		t.Fatal(err)
	}
	if got := summaryCounts(t, stdout.String()); got["articles of older versions at the start"] != 0 {
		t.Errorf("second run: %v, want nothing left", got)
	}
}

// progressHook is dedupd's stderr in a test: it calls each hook once, on
// the progress line that holds its phase's words, counting those lines from
// one.
type progressHook struct {
	syncBuffer
	mu    sync.Mutex
	seen  map[string]int
	hooks []lineHook
}

// The words of the two phases' progress lines.
const upgrading, rejudging = "fingerprinted again", "judged again"

type lineHook struct {
	phase string // upgrading or rejudging
	line  int
	do    func()
}

func (h *progressHook) Write(p []byte) (int, error) {
	n, err := h.syncBuffer.Write(p)
	line := string(p)
	if !strings.HasPrefix(line, "refingerprint: ") {
		return n, err
	}
	h.mu.Lock()
	for _, phase := range []string{upgrading, rejudging} {
		if strings.Contains(line, phase) {
			h.seen[phase]++
		}
	}
	var due []func()
	for _, k := range h.hooks {
		if strings.Contains(line, k.phase) && h.seen[k.phase] == k.line {
			due = append(due, k.do)
		}
	}
	h.mu.Unlock()
	for _, do := range due {
		do()
	}
	return n, err
}

// TestRefingerprintLinksEveryRepostIngestedMeanwhile upgrades a store of
// version 2 as a newsroom does: the new binary serves (and stores light
// reposts of the old articles, which cannot see them) before the first run
// of refingerprint, during a run that is stopped in its upgrade, during a
// run stopped while it judges again, while an older binary still serving
// writes more old articles, and during the last run. Every repost ends
// linked to its original, and a run after that has nothing left to judge.
func TestRefingerprintLinksEveryRepostIngestedMeanwhile(t *testing.T) {
	t.Parallel()
	dbURL := dbtest.URL(t)
	ctx := context.Background()
	store, err := repo.Open(ctx, dbURL, repo.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	a, _, _ := testApp(t, map[string]string{"DATABASE_URL": dbURL})
	dict, _, err := a.loadDictionary("")
	if err != nil {
		t.Fatal(err)
	}
	old, err := service.New(store, fingerprint.NewWeighted(dict, fingerprint.WeightedParamsV2), service.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	svc, err := service.New(store, fingerprint.NewWeighted(dict, fingerprint.DefaultWeightedParams), service.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	nv, err := corpus.LoadNovel()
	if err != nil {
		t.Fatal(err)
	}

	// Twenty originals, each with a light repost that version 4 judges its
	// near duplicate.
	rng := rand.New(rand.NewPCG(33, 1))
	var originals, reposts []corpus.Article
	for _, o := range nv.Originals(rng, 60, 500, 1200) {
		r := nv.Apply(rng, o, corpus.Light)
		c, err := svc.Compare(ctx, service.Text{Title: o.Title, Body: o.Body}, service.Text{Title: r.Title, Body: r.Body})
		if err != nil {
			t.Fatal(err)
		}
		if c.NearDuplicate {
			originals, reposts = append(originals, o), append(reposts, r)
		}
		if len(originals) == 20 {
			break
		}
	}
	if len(originals) < 20 {
		t.Fatalf("only %d usable originals", len(originals))
	}
	storeOld := func(from, to int) {
		t.Helper()
		for i := from; i < to; i++ {
			in := service.ArticleInput{Text: service.Text{Title: originals[i].Title, Body: originals[i].Body}, ExternalID: fmt.Sprintf("o-%d", i), Source: "old"}
			if _, err := old.Ingest(ctx, in, old.Defaults()); err != nil {
				t.Fatal(err)
			}
		}
	}
	// when says when each repost was ingested, by its original's index.
	when := map[int]string{}
	repost := func(moment string, is ...int) func() {
		return func() {
			for _, i := range is {
				in := service.ArticleInput{Text: service.Text{Title: reposts[i].Title, Body: reposts[i].Body}, ExternalID: fmt.Sprintf("r-%d", i), Source: "new"}
				v, err := svc.Ingest(ctx, in, svc.Defaults())
				if err != nil {
					t.Errorf("ingest the repost of o-%d %s: %v", i, moment, err)
					continue
				}
				if v.Status != service.StatusUnique {
					t.Errorf("the repost of o-%d, ingested %s, is %s: it saw an article of version 2", i, moment, v.Status)
				}
				when[i] = moment
			}
		}
	}
	env := map[string]string{"DATABASE_URL": dbURL}
	runRefingerprint := func(hooks ...lineHook) (string, error) {
		t.Helper()
		runCtx, cancel := context.WithCancel(ctx)
		defer cancel()
		a, stdout, _ := testApp(t, env)
		a.progressInterval = 0
		h := &progressHook{seen: map[string]int{}, hooks: hooks}
		for i := range h.hooks {
			if h.hooks[i].do == nil {
				h.hooks[i].do = cancel // stop the run here
			}
		}
		a.stderr = h
		err := a.run(runCtx, []string{"refingerprint"})
		return stdout.String(), err
	}
	storeOld(0, 16)
	repost("before the first run", 0, 1, 2)()
	// A run stopped after four articles upgraded, with reposts of two not
	// yet upgraded ingested during it.
	if out, err := runRefingerprint(lineHook{upgrading, 2, repost("during a stopped run", 12, 13)}, lineHook{upgrading, 4, nil}); err == nil {
		t.Errorf("the first run was not stopped:\n%s", out)
	}
	// A run that upgrades the rest, with reposts ingested during it, and is
	// stopped as it judges again.
	if out, err := runRefingerprint(lineHook{upgrading, 1, repost("during a run stopped as it judges again", 14, 15)}, lineHook{rejudging, 2, nil}); err == nil {
		t.Errorf("the second run was not stopped:\n%s", out)
	}
	// An older binary still serving writes more articles of version 2; the
	// last run meets them, and reposts of them arrive as it upgrades.
	storeOld(16, 20)
	out, err := runRefingerprint(lineHook{upgrading, 1, repost("during the last run", 18, 19)})
	if err != nil {
		t.Fatalf("the last run: %v\n%s", err, out)
	}
	if !strings.Contains(out, fmt.Sprintf("every article is of version %d", fingerprint.VersionOneScript)) {
		t.Errorf("the last run's summary does not say the upgrade is done:\n%s", out)
	}
	if len(when) != 9 {
		t.Fatalf("%d reposts ingested, want 9: %v", len(when), when)
	}
	for i, moment := range when {
		r, err := store.ArticleByKey(ctx, "new", fmt.Sprintf("r-%d", i))
		if err != nil {
			t.Fatal(err)
		}
		o, err := store.ArticleByKey(ctx, "old", fmt.Sprintf("o-%d", i))
		if err != nil {
			t.Fatal(err)
		}
		if r.Status == service.StatusUnique || r.ClusterID != o.ClusterID {
			t.Errorf("the repost of o-%d ingested %s is %s in cluster %d after the upgrade, want linked to its original (cluster %d)",
				i, moment, r.Status, r.ClusterID, o.ClusterID)
		}
	}

	out, err = runRefingerprint()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"articles of older versions at the start": 0, "unique articles of this version judged again": 0}
	if got := summaryCounts(t, out); got["articles of older versions at the start"] != 0 || got["unique articles of this version judged again"] != 0 {
		t.Errorf("a run after the upgrade: %v, want %v:\n%s", got, want, out)
	}
}
