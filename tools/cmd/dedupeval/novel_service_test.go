package main

import (
	"math"
	"strings"
	"testing"
	"time"
)

// A copy is detected when the check links it to its original or to its
// original's cluster, and falsely linked when it links elsewhere; an
// original, checked with itself left out, is falsely linked by any link.
func TestJudgeNovel(t *testing.T) {
	t.Parallel()
	originals := []storedArticle{{ID: 1, ClusterID: 1}, {ID: 2, ClusterID: 1}, {ID: 3, ClusterID: 3}}
	link := func(status string, id, cluster int64) verdictJSON {
		return verdictJSON{Status: status, DuplicateOf: &linkJSON{ID: id, Distance: 2, Overlap: 0.7}, ClusterID: cluster}
	}
	unique := verdictJSON{Status: statusUnique}
	tests := []struct {
		name                string
		v                   verdictJSON
		q                   query
		detected, elsewhere bool
	}{
		{"copy linked to its original", link(statusNear, 3, 3), query{Edit: "light", Of: 2}, true, false},
		{"copy linked to its original's cluster", link(statusPartial, 1, 1), query{Edit: "rewritten", Of: 1}, true, false},
		{"copy linked to another original", link(statusNear, 3, 3), query{Edit: "light", Of: 0}, false, true},
		{"copy judged unique", unique, query{Edit: "light", Of: 0}, false, false},
		{"original judged unique", unique, query{Edit: editNone, Of: 0}, false, false},
		// Originals 0 and 1 share a cluster: a link between them is still
		// a false one.
		{"original linked to another", link(statusPartial, 2, 1), query{Edit: editNone, Of: 0}, false, true},
	}
	for _, tt := range tests {
		o := judgeNovel(tt.v, tt.q, originals)
		if o.Detected != tt.detected || o.Elsewhere != tt.elsewhere || o.Status != tt.v.Status {
			t.Errorf("%s: %+v, want detected %v, elsewhere %v, status %s", tt.name, o, tt.detected, tt.elsewhere, tt.v.Status)
		}
	}
}

// The outcomes are counted by band and edit, and sum adds up the groups a
// filter keeps, every field.
func TestTallyNovel(t *testing.T) {
	t.Parallel()
	qs := []query{
		{Band: 0, Edit: editNone, Of: 0},
		{Band: 2, Edit: editNone, Of: 1},
		{Band: 0, Edit: "light", Of: 0},
		{Band: 2, Edit: "light", Of: 1},
		{Band: 2, Edit: "rewritten", Of: 1},
		{Band: 2, Edit: "rewritten", Of: 1},
	}
	outcomes := []repostOutcome{
		{Status: statusUnique},
		{Status: statusNear, Elsewhere: true},
		{Status: statusNear, Detected: true},
		{Status: statusExact, Detected: true},
		{Status: statusPartial, Detected: true},
		{Refused: true},
	}
	s := &novelService{Counts: tallyNovel(qs, outcomes)}
	if got, want := s.Counts[groupKey{2, "rewritten"}], (repostCount{Reposts: 2, Detected: 1, Partial: 1, Refused: 1}); got != want {
		t.Errorf("rewritten, band 2: %+v, want %+v", got, want)
	}
	if got, want := s.sum(editedCopies), (repostCount{Reposts: 4, Detected: 3, Near: 1, Exact: 1, Partial: 1, Refused: 1}); got != want {
		t.Errorf("sum(copies) = %+v, want %+v", got, want)
	}
	if got, want := s.sum(originalsOnly), (repostCount{Reposts: 2, Elsewhere: 1}); got != want {
		t.Errorf("sum(originals) = %+v, want %+v", got, want)
	}
	if got, want := s.sum(longEdit("light")), (repostCount{Reposts: 1, Detected: 1, Exact: 1}); got != want {
		t.Errorf("sum(light, long) = %+v, want %+v", got, want)
	}
	if got := statusesOf(s.sum(editedCopies)); got != "1 / 1 / 1" {
		t.Errorf("statusesOf = %q, want 1 / 1 / 1", got)
	}
}

// An original is checked under its own key, so that the check leaves it
// out; a copy under none, two hours after its original.
func TestNovelQuery(t *testing.T) {
	t.Parallel()
	c := labelledCorpus{Originals: make([]original, 3)}
	for i := range c.Originals {
		c.Originals[i].Title, c.Originals[i].Body = "题", "正文"
	}
	qs := []query{{Edit: editNone, Of: 2}, {Edit: "light", Of: 2, Doc: doc("新题", "新正文")}}
	stored := novelArticle(c, 2)
	if stored.ExternalID != "novel-2" || stored.Source != novelSource || stored.Body != "正文" {
		t.Errorf("original 2 as stored: %+v", stored)
	}
	if got := novelQuery(c, qs, 0); got != stored {
		t.Errorf("original 2 as checked: %+v, want %+v", got, stored)
	}
	cp := novelQuery(c, qs, 1)
	if cp.ExternalID != "" || cp.Source == novelSource || cp.Title != "新题" || cp.Body != "新正文" {
		t.Errorf("copy as checked: %+v", cp)
	}
	at, err := time.Parse(time.RFC3339, cp.PublishedAt)
	if want := novelPublished.Add(2*time.Minute + repostDelay); err != nil || !at.Equal(want) {
		t.Errorf("copy published at %s (%v), want %s", cp.PublishedAt, err, want)
	}
}

// The rows take version 2's figures and version 3's fingerprint level from
// the pair tallies and version 3's from the service; the goal falls on the
// service's figures, and is not measured without them.
func TestNovelRowsAndGoal(t *testing.T) {
	t.Parallel()
	// One long original (band 2) with a light copy, a short one (band 0)
	// with a rewritten copy: version 2 finds both copies, version 3's
	// fingerprint the light one alone.
	qs := []query{
		{Band: 2, Edit: editNone, Of: 0},
		{Band: 0, Edit: editNone, Of: 1},
		{Band: 2, Edit: "light", Of: 0},
		{Band: 0, Edit: "rewritten", Of: 1},
	}
	ts := countPairs(qs, 2, novelPoints, func(q, s int, hits []bool) bool {
		if q < 2 || s != qs[q].Of {
			return false
		}
		hits[pointV2], hits[pointV2Near] = true, true
		hits[pointV3], hits[pointV3Near] = qs[q].Edit == "light", qs[q].Edit == "light"
		return true
	})
	linked := originalLinks{Originals: 2}
	row := func(rows []novelRow, what string) novelRow {
		t.Helper()
		for _, r := range rows {
			if r.What == what {
				return r
			}
		}
		t.Fatalf("no row %q", what)
		return novelRow{}
	}

	// Without the service: version 3 is not measured, nor is the goal.
	res := novelResult{Tallies: ts, ServiceSkipped: "no database", Rows: novelRows(ts, nil, linked)}
	r := row(res.Rows, "rewritten, <500 runes: recall")
	if r.V2 != 1 || r.V3Fingerprint != 0 || !math.IsNaN(float64(r.V3)) || r.V3Text != "–" || r.falls() || !r.fallsAtFingerprint() {
		t.Errorf("rewritten, short, without the service: %+v", r)
	}
	if g := res.goal(); g.Met != nil || !strings.Contains(g.Figure, "not measured: no database") || !strings.Contains(g.Figure, "2 of 18 fall") { // rewritten, short; every copy
		t.Errorf("goal without the service: %+v", g)
	}

	// The service finds the rewritten copy as a partial duplicate: nothing
	// falls.
	svc := &novelService{Counts: tallyNovel(qs, []repostOutcome{
		{Status: statusUnique}, {Status: statusUnique},
		{Status: statusNear, Detected: true}, {Status: statusPartial, Detected: true},
	})}
	res = novelResult{Tallies: ts, Service: svc, Rows: novelRows(ts, svc, linked)}
	r = row(res.Rows, "rewritten, <500 runes: recall")
	if r.V3 != 1 || r.V3Text != "1.000 (1/1)" || r.Statuses != "0 / 0 / 1" || r.falls() {
		t.Errorf("rewritten, short, through the service: %+v", r)
	}
	if r := row(res.Rows, "every copy: precision"); r.V3 != 1 || r.V3Text != "1.000 (0 FP)" || r.falls() {
		t.Errorf("precision through the service: %+v", r)
	}
	if g := res.goal(); g.Met == nil || !*g.Met || g.Figure != "none falls" {
		t.Errorf("goal with every copy found: %+v", g)
	}

	// An original linked to the other, and the rewritten copy missed: both
	// fall, and the goal is not met.
	svc = &novelService{Counts: tallyNovel(qs, []repostOutcome{
		{Status: statusPartial, Elsewhere: true}, {Status: statusUnique},
		{Status: statusNear, Detected: true}, {Status: statusUnique},
	})}
	res = novelResult{Tallies: ts, Service: svc, Rows: novelRows(ts, svc, linked)}
	if r := row(res.Rows, "originals linked to another original"); r.V3 != 0.5 || r.V3Text != "1 of 2" || !r.falls() {
		t.Errorf("originals linked through the service: %+v", r)
	}
	if r := row(res.Rows, "every copy: precision"); r.V3Text != "0.500 (1 FP)" || !r.falls() {
		t.Errorf("precision with a false link: %+v", r)
	}
	g := res.goal()
	if g.Met == nil || *g.Met || !strings.HasPrefix(g.Figure, "4 of") || !strings.Contains(g.Figure, "rewritten, <500 runes: recall 1.000 → 0.000") {
		t.Errorf("goal with falls: %+v", g)
	}
	if why := res.why(); !strings.Contains(why, "rewritten, <500 runes: recall") {
		t.Errorf("why() does not name the fall: %q", why)
	}
}
