package handlers

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// twoPass is the batch decoded the old way: into raw values, then each
// article on its own. decodeBatch must give exactly what it gives.
func twoPass(body []byte, maxItem int64) ([]batchArticle, error) {
	var req batchRequest
	if err := unmarshalStrict(body, &req); err != nil {
		return nil, err
	}
	arts := make([]batchArticle, len(req.Articles))
	for i, raw := range req.Articles {
		if int64(len(raw)) > maxItem {
			arts[i].err = itemTooLarge(len(raw), maxItem)
			continue
		}
		arts[i].err = unmarshalStrict(raw, &arts[i].req)
	}
	return arts, nil
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func sameBatch(t *testing.T, body string, maxItem int64) (onePass bool) {
	t.Helper()
	got, gerr := decodeBatch([]byte(body), maxItem)
	want, werr := twoPass([]byte(body), maxItem)
	if errText(gerr) != errText(werr) {
		t.Fatalf("body %.200q: error %q, want %q", body, errText(gerr), errText(werr))
	}
	if len(got) != len(want) {
		t.Fatalf("body %.200q: %d articles, want %d", body, len(got), len(want))
	}
	for i := range got {
		if errText(got[i].err) != errText(want[i].err) || !reflect.DeepEqual(got[i].req, want[i].req) {
			t.Fatalf("body %.200q: article %d = %+v (%v), want %+v (%v)", body, i, got[i].req, got[i].err, want[i].req, want[i].err)
		}
	}
	_, onePass = decodeBatchOnce([]byte(body), maxItem)
	return onePass
}

// TestDecodeBatchAsTwoPasses checks the one pass against the two on
// batches of good and bad articles, odd spacing, sizes at the limit and
// malformed bodies, and that well-formed batches do take the one pass.
func TestDecodeBatchAsTwoPasses(t *testing.T) {
	fixed := []string{
		``, `{}`, `[]`, `null`, `{"articles":null}`, `{"articles":[]}`, `{"articles":[] }x`,
		`{"articles":[{}]}`, `{"articles":[{"body":"a"}],"articles":[]}`, `{"colour":1,"articles":[]}`,
		`{"articles":[{"body":"a"},]}`, `{"articles":[{"body":"a"}`, `{"articles":[42,{"body":"b"}]}`,
		`{"articles":[{"body":"a","body":"b"}]}`, `{"articles":[{"body":42},{"body":"ok"}]}`,
		`{"articles":[{"colour":"red"},{"body":"ok"}]}`, `{"articles":[{"max_distance":"x"}]}`,
		`{"articles":[{"published_at":7,"body":"x"}]}`, `{"articles":[null]}`, `{"articles":["s"]}`,
		` { "articles" : [ { "body" : "a" } , { "title" : "t\u00e9\n" } ] } `, `{"ARTICLES":[]}`,
		`{"articles":[{"BODY":"x"}]}`, `{"articles":[{"body":"a"}]}{}`,
	}
	for _, b := range fixed {
		for _, limit := range []int64{1, 12, 1 << 20} {
			sameBatch(t, b, limit)
		}
	}

	fields := []string{
		`"external_id":"id-%d"`, `"source":"s%d"`, `"title":"标题 %d"`, `"body":"正文，第%d句。\n\"引\""`,
		`"url":"https://x/%d"`, `"published_at":"2018-01-0%dT00:00:00Z"`, `"content_type":"text/plain"`,
		`"max_distance":%d`, `"min_overlap":0.%d`, `"min_word_ratio":0.5`, `"window_hours":%d.5`, `"limit":%d`,
		`"shared_sentences":true`, `"body":%d`, `"colour":%d`, `"limit":"%d"`, `"title":null`,
	}
	r := rand.New(rand.NewPCG(1, 2))
	onePass := 0
	const trials = 2000
	for trial := range trials {
		var b strings.Builder
		b.WriteString(`{"articles":[`)
		n := r.IntN(6)
		for i := range n {
			if i > 0 {
				b.WriteString(strings.Repeat(" ", r.IntN(2)) + ",\n"[:1+r.IntN(2)])
			}
			b.WriteString("{")
			for j, k := 0, r.IntN(5); j < k; j++ {
				if j > 0 {
					b.WriteString(",")
				}
				f := fields[r.IntN(len(fields)-4)] // mostly good fields
				if r.IntN(20) == 0 {
					f = fields[len(fields)-4+r.IntN(4)]
				}
				if strings.Contains(f, "%d") {
					f = fmt.Sprintf(f, r.IntN(9)+1)
				}
				b.WriteString(f)
			}
			b.WriteString("}")
		}
		b.WriteString("]}")
		if sameBatch(t, b.String(), int64(40+r.IntN(200))) {
			onePass++
		}
		_ = trial
	}
	// Most random batches are well formed but for duplicate names (which
	// the decoder refuses as syntax) and the rare bad field.
	if onePass < trials/4 {
		t.Errorf("%d of %d batches took the one pass", onePass, trials)
	}
	if _, ok := decodeBatchOnce([]byte(`{"articles":[{"body":"a"}, {"title":"b","body":"c"}]}`), 1<<20); !ok {
		t.Error("a well-formed batch did not take the one pass")
	}
}

func BenchmarkDecodeBatch(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"articles":[`)
	for i := range 100 {
		if i > 0 {
			sb.WriteString(",")
		}
		fmt.Fprintf(&sb, `{"external_id":"n-%d","source":"sina","title":"标题%d","body":%q,"published_at":"2018-01-01T00:00:00Z"}`,
			i, i, strings.Repeat("新华社北京电，记者报道了这件事。", 60))
	}
	sb.WriteString("]}")
	body := []byte(sb.String())
	b.Run("one-pass", func(b *testing.B) {
		for b.Loop() {
			if _, err := decodeBatch(body, 1<<20); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("two-pass", func(b *testing.B) {
		for b.Loop() {
			if _, err := twoPass(body, 1<<20); err != nil {
				b.Fatal(err)
			}
		}
	})
}
