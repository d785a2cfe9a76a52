package repo_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/newsdedup/newsdedup/service"
)

// TestCopiesAndCandidates: the two searches asked together, in one round
// trip on the pool or one after the other in a writer's transaction, find
// what each finds asked alone: the copies of a text stored three times, and
// the near neighbours of a fingerprint stored with variants 0–4 bits away.
func TestCopiesAndCandidates(t *testing.T) {
	ctx := context.Background()
	st := newStore(t, 2)
	version := algorithm(t).Version()
	rng := rand.New(rand.NewPCG(20261126, 3))
	rows := randomRows(rng, 200, version)
	var queries []uint64
	for i := range 20 {
		h := rng.Uint64()
		queries = append(queries, h)
		for flips := range 5 {
			v := h
			for _, bit := range rng.Perm(64)[:flips] {
				v ^= 1 << bit
			}
			r := fixtureRow("variant", i*5+flips, v, version)
			if flips < 3 { // three stored copies of one text
				r.Article.ContentHash = rows[i].Article.ContentHash
			}
			rows = append(rows, r)
		}
	}
	copyArticles(t, st, rows)

	for i, h := range queries {
		eq := service.ExactQuery{ContentHash: rows[i].Article.ContentHash, Version: version, Limit: 10}
		nq := service.NearQuery{Simhash: h, Version: version, MaxDistance: 3, Limit: 10}
		exact, err := st.ExactMatches(ctx, []service.ExactQuery{eq})
		if err != nil {
			t.Fatal(err)
		}
		near, err := st.NearCandidates(ctx, []service.NearQuery{nq})
		if err != nil {
			t.Fatal(err)
		}
		if len(exact[0]) != 4 || len(near[0]) != 4 {
			t.Fatalf("query %d alone: %d copies and %d near candidates; the fixture stores 4 and 4", i, len(exact[0]), len(near[0]))
		}
		check := func(how string, gotExact, gotNear []service.Candidate) {
			t.Helper()
			if !slices.Equal(ids(gotExact), ids(exact[0])) || !slices.Equal(ids(gotNear), ids(near[0])) {
				t.Errorf("query %d %s: copies %v and near candidates %v; alone %v and %v",
					i, how, ids(gotExact), ids(gotNear), ids(exact[0]), ids(near[0]))
			}
		}
		gotExact, gotNear, err := st.CopiesAndCandidates(ctx, eq, nq)
		if err != nil {
			t.Fatal(err)
		}
		check("together on the pool", gotExact, gotNear)
		err = st.InTx(ctx, func(tx service.Tx) error {
			gotExact, gotNear, err := tx.CopiesAndCandidates(ctx, eq, nq)
			check("together in a transaction", gotExact, gotNear)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

func ids(cs []service.Candidate) []int64 {
	out := make([]int64, len(cs))
	for i, c := range cs {
		out[i] = c.ID
	}
	return out
}
