package repo_test

import (
	"context"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/repo/dbtest"
)

// TestSentenceHalfKeys checks the half keys' guarantee in a partition's
// own functions (sentence_partition.sql), on every simhash within 2 bits
// of random queries and on random ones 3 and 4 bits away: a stored simhash
// within 3 bits of the query holds one of its probes; the probes are
// nothing but each half within 1 bit, so 4 bits apart split 2 and 2 does
// not.
func TestSentenceHalfKeys(t *testing.T) {
	ctx := context.Background()
	part, err := pgx.Connect(ctx, partitionDatabases(t, dbtest.URL(t), 1)[0])
	if err != nil {
		t.Fatal(err)
	}
	defer part.Close(ctx)
	rng := rand.New(rand.NewPCG(56, 56))
	var qs, ss []int64
	for range 4 {
		q := rng.Uint64()
		add := func(s uint64) { qs, ss = append(qs, int64(q)), append(ss, int64(s)) }
		add(q)
		for i := range 64 {
			add(q ^ 1<<i)
			for j := range i {
				add(q ^ 1<<i ^ 1<<j)
			}
		}
		for range 3000 {
			p := rng.Perm(64)
			add(q ^ 1<<p[0] ^ 1<<p[1] ^ 1<<p[2])
			add(q ^ 1<<p[0] ^ 1<<p[1] ^ 1<<p[2] ^ 1<<p[3])
		}
	}
	rows, err := part.Query(ctx, `
		SELECT q, s, sentence_part.half_keys(s) && sentence_part.half_probes(q)
		FROM unnest($1::int8[], $2::int8[]) AS x(q, s)`, qs, ss)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	checked := 0
	for rows.Next() {
		var q, s int64
		var found bool
		if err := rows.Scan(&q, &s, &found); err != nil {
			t.Fatal(err)
		}
		d := bits.OnesCount64(uint64(q ^ s))
		lo, hi := bits.OnesCount32(uint32(q^s)), bits.OnesCount32(uint32(uint64(q^s)>>32))
		if want := min(lo, hi) <= 1; found != want {
			t.Fatalf("%016x and %016x (%d bits apart, %d low, %d high): found = %v, want %v", uint64(q), uint64(s), d, lo, hi, found, want)
		}
		if d <= 3 && !found {
			t.Fatalf("%016x and %016x are %d bits apart and share no key", uint64(q), uint64(s), d)
		}
		checked++
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if checked != len(qs) {
		t.Fatalf("checked %d pairs of %d", checked, len(qs))
	}
}
