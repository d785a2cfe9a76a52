package profstages

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"
)

// TestStagesFromTheLeafUp builds a profile of known stacks: each sample
// goes to the first stage its stack meets from the leaf up, the samples
// of fingerprint-only and of the peer are left out, and the table is in
// ms an article.
func TestStagesFromTheLeafUp(t *testing.T) {
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:     10_000_000,
	}
	fn := map[string]*profile.Location{}
	loc := func(name string) *profile.Location {
		if l, ok := fn[name]; ok {
			return l
		}
		f := &profile.Function{ID: uint64(len(p.Function) + 1), Name: name}
		p.Function = append(p.Function, f)
		l := &profile.Location{ID: uint64(len(p.Location) + 1), Line: []profile.Line{{Function: f}}}
		p.Location = append(p.Location, l)
		fn[name] = l
		return l
	}
	sample := func(cpu time.Duration, stack ...string) { // leaf first
		s := &profile.Sample{Value: []int64{1, int64(cpu)}}
		for _, name := range stack {
			s.Location = append(s.Location, loc(name))
		}
		p.Sample = append(p.Sample, s)
	}
	fp := "github.com/newsdedup/newsdedup/service/fingerprint."
	sample(30*time.Millisecond, "runtime.cgocall", "github.com/yanyiwu/gojieba.(*Jieba).Cut", fp+"(*Dictionary).tag", fp+"(*Weighted).Fingerprint", "github.com/newsdedup/newsdedup/service.(*Service).Ingest")
	sample(10*time.Millisecond, "golang.org/x/text/unicode/norm.(*Iter).Next", fp+"normalizeAny", fp+"normalize", fp+"cutPieces", fp+"(*Dictionary).readSegmented")
	sample(10*time.Millisecond, fp+"unsplit", fp+"cutPieces")
	sample(5*time.Millisecond, fp+"cutPieces.sentenceSpans.func1", fp+"cutPieces")
	sample(5*time.Millisecond, "github.com/jackc/pgx/v5.(*Conn).Exec", "github.com/newsdedup/newsdedup/repo.(*Store).Insert")
	sample(100*time.Millisecond, "runtime.cgocall", "github.com/yanyiwu/gojieba.(*Jieba).Cut", fp+"(*Weighted).Fingerprint", "main.fingerprintOnly")
	sample(100*time.Millisecond, "main.peerGrams", "main.peerIngest")
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		t.Fatal(err)
	}
	rows, err := Stages(&buf)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]time.Duration{}
	var all time.Duration
	for _, r := range rows {
		got[r.Stage] += r.CPU
		all += r.CPU
	}
	want := map[string]time.Duration{
		"segmentation (cppjieba Cut)":                                30 * time.Millisecond,
		"normalisation (NFKC, unsplit, script fold), title and body": 20 * time.Millisecond,
		"sentence spans and other segment work":                      5 * time.Millisecond,
		"pgx (encoding, protocol)":                                   5 * time.Millisecond,
	}
	for stage, d := range want {
		if got[stage] != d {
			t.Errorf("%s: %v, want %v", stage, got[stage], d)
		}
	}
	if all != 60*time.Millisecond {
		t.Errorf("all stages %v, want 60ms (fingerprint-only and the peer left out)", all)
	}
	md := Markdown(rows, 10)
	if !strings.Contains(md, "| segmentation (cppjieba Cut) | 3.000 | 50 % |") || !strings.Contains(md, "**6.000**") {
		t.Errorf("table:\n%s", md)
	}
}
