package main

import (
	"context"
	"fmt"
	"strings"
	"testing"

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

	env := map[string]string{"DATABASE_URL": dbURL}
	a.progressInterval = 0
	if err := a.run(ctx, []string{"refingerprint"}); err != nil {
		t.Fatalf("refingerprint = %v; stderr:\n%s", err, stderr)
	}
	want := map[string]int{
		"articles of older versions at the start":  3,
		"fingerprinted and judged again":           3,
		"skipped (upgraded meanwhile or gone)":     0,
		"ingested during the run and judged again": 0,
		"of them now linked to an older article":   0,
	}
	if got := summaryCounts(t, stdout.String()); !mapsEqual(got, want) {
		t.Errorf("summary = %v, want %v:\n%s", got, want, stdout)
	}
	if !strings.Contains(stderr.String(), "refingerprint: ") {
		t.Errorf("no progress line on stderr:\n%s", stderr)
	}
	for i := range bodies {
		art, err := store.ArticleByKey(ctx, "old", fmt.Sprintf("v2-%d", i))
		if err != nil || art.FingerprintVersion != fingerprint.VersionNews {
			t.Errorf("v2-%d after the run: version %d, %v; want %d", i, art.FingerprintVersion, err, fingerprint.VersionNews)
		}
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
