package handlers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/handlers"
	"github.com/newsdedup/newsdedup/repo/dbtest"
)

// TestBatchPastItsDeadlineAnswersWhatItStored sends a batch too long for
// the request's deadline (450 articles of 10 KB in 3 s: a body of a few MB,
// as reading it takes seconds under the race detector): the answer is 200
// with a verdict for each article stored and "unavailable" for each not,
// the articles stored are exactly those answered, and sending the same
// batch again stores more.
func TestBatchPastItsDeadlineAnswersWhatItStored(t *testing.T) {
	t.Parallel()
	dbURL := dbtest.URL(t)
	s := newServerOn(t, dbURL, withConfig(func(c *handlers.Config) { c.RequestTimeout = 3 * time.Second }))
	const n = 450
	articles := make([]any, n)
	for i := range articles {
		articles[i] = article(fmt.Sprintf("long-%d", i), fmt.Sprintf("第%d篇", i), distinctText(i, 10000))
	}
	send := func() (stored int) {
		t.Helper()
		r := s.post(t, "/v1/articles/batch", map[string]any{"articles": articles})
		if r.status != http.StatusOK {
			t.Fatalf("a batch past its deadline: %v, want 200 with a result per article\n%s", r, s.logs.String())
		}
		var out struct {
			Results []struct {
				ID    int64 `json:"id"`
				Error *struct {
					Code string `json:"code"`
				} `json:"error"`
			} `json:"results"`
		}
		if err := json.Unmarshal(r.body, &out); err != nil || len(out.Results) != n {
			t.Fatalf("results: %v (%d of %d)", err, len(out.Results), n)
		}
		for i, res := range out.Results {
			switch {
			case res.Error == nil && res.ID > 0:
				stored++
			case res.Error != nil && res.Error.Code == "unavailable":
			default:
				t.Fatalf("result %d: neither a verdict nor unavailable: %s", i, r)
			}
		}
		return stored
	}
	conn, err := pgx.Connect(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	count := func() (n int) {
		t.Helper()
		if err := conn.QueryRow(context.Background(), `SELECT count(*) FROM articles`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	first := send()
	if first == n {
		// Database tests never skip: a batch that fits its deadline tests
		// nothing here, so the fixture must grow.
		t.Fatalf("all %d articles stored within the deadline: the batch must be larger for this machine", n)
	}
	// Under the race detector reading the body may leave no time to store
	// even one article: then none is stored, and none acknowledged.
	if got := count(); got != first {
		t.Errorf("%d articles stored, %d answered with a verdict; want the same", got, first)
	}
	send()
	if got := count(); got <= first {
		t.Errorf("sending the batch again made no progress: %d articles stored, then %d", first, got)
	} else {
		t.Logf("stored %d, then %d of %d", first, got, n)
	}
}

// distinctText is about size bytes of Chinese sentences of common
// characters drawn by a generator seeded with seed: texts of different
// seeds share no sentence.
func distinctText(seed, size int) string {
	chars := []rune("的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长知民样现与点")
	r := rand.New(rand.NewPCG(uint64(seed), 44))
	var b strings.Builder
	for b.Len() < size {
		for range 12 + r.IntN(20) {
			b.WriteRune(chars[r.IntN(len(chars))])
		}
		b.WriteString("。")
		if r.IntN(6) == 0 {
			b.WriteString("\n\n")
		}
	}
	return b.String()
}
