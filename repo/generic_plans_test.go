package repo_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/newsdedup/newsdedup/repo"
	"github.com/newsdedup/newsdedup/service"
)

// TestOneArticleSearchesGetAGenericPlan: a check searches for the copies
// and the near candidates of one article (CopiesAndCandidates), with the
// statements of scalars. PostgreSQL plans a prepared statement for its
// values at its first five runs, then keeps one generic plan if that costs
// no more than they did; it could not price the arrays' unnest without
// their values, and planned the statements of arrays at every check. The
// checks' searches must be planned once and then reused.
func TestOneArticleSearchesGetAGenericPlan(t *testing.T) {
	ctx := context.Background()
	// One connection: the one that prepares the statements.
	st := newStore(t, 1)
	version := algorithm(t).Version()
	rng := rand.New(rand.NewPCG(20261126, 2))
	rows := randomRows(rng, 5_000, version)
	copyArticles(t, st, rows)
	if _, err := st.Pool().Exec(ctx, "ANALYZE articles"); err != nil {
		t.Fatal(err)
	}

	for i := range 20 {
		eq := service.ExactQuery{ContentHash: rows[i].Article.ContentHash, Version: version, Limit: 10}
		nq := service.NearQuery{Simhash: rows[i].Article.Simhash, Version: version, MaxDistance: 3, Limit: 10}
		if exact, _, err := st.CopiesAndCandidates(ctx, eq, nq); err != nil {
			t.Fatal(err)
		} else if len(exact) != 1 {
			t.Fatalf("the search for the copies of stored text %d found %d articles, want 1", i, len(exact))
		}
	}

	for name, sql := range map[string]string{"copies": repo.ExactMatchSQL, "near candidates": repo.NearCandidateSQL} {
		var generic, custom int64
		err := st.Pool().QueryRow(ctx,
			"SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE statement = $1", sql).Scan(&generic, &custom)
		if errors.Is(err, pgx.ErrNoRows) {
			t.Errorf("the search for %s never ran as its statement of scalars", name)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if generic == 0 {
			t.Errorf("the search for %s was planned for its values at each of its %d runs; want one generic plan, reused", name, custom)
		}
	}
}
