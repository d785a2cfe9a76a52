package service

import (
	"context"
	"slices"
)

// Reading a crowded neighbourhood. A near query returns up to CandidateCap
// candidates, and each used to travel with its word and shingle sets —
// hundreds of integers each, sent and decoded — although a verdict lists at
// most opts.Limit matches, closest first. Where hundreds of copies of one
// story are stored, that transfer was most of a check's and an ingest's
// cost. The query now reads the sets of the closest candidates only
// (NearQuery.SetsFor: whole distance levels, so every candidate as close as
// one read is read too), and the verdict is decided on those.
//
// Candidates left without their sets cannot change that verdict unless it
// found fewer than opts.Limit matches: each is farther than every candidate
// read, so farther than every match found, and matches are listed closest
// first. When it found fewer, their sets are read (Reader.Candidates) and
// the verdict decided again on all of them. Either way the verdict is the
// one every set read would give; in a sparse neighbourhood nothing is left
// out and nothing is read twice.

// closestWithSets is how many of the closest candidates are read with
// their sets at least; setsFor reads more for a verdict that lists more.
const closestWithSets = 64

// setsFor is NearQuery.SetsFor for a verdict under opts: four times the
// matches it lists, at least closestWithSets, so that candidates rejected
// by their shared text or words rarely leave it short.
func setsFor(opts Options) int { return max(closestWithSets, 4*opts.Limit) }

// withSets returns the candidates of near that were read with their sets.
func withSets(near []Candidate) []Candidate {
	if !setsOmitted(near) {
		return near
	}
	return slices.DeleteFunc(slices.Clone(near), func(c Candidate) bool { return c.SetsOmitted })
}

// setsOmitted reports whether a candidate of near came without its sets.
func setsOmitted(near []Candidate) bool {
	return slices.ContainsFunc(near, func(c Candidate) bool { return c.SetsOmitted })
}

// needsAllSets reports whether d, decided on the candidates of near read
// with their sets, might change once the others are read: it lists fewer
// than opts.Limit matches and some candidate came without its sets. (decide
// cuts its matches to opts.Limit, so fewer means all it found.)
func needsAllSets(d decision, near []Candidate, opts Options) bool {
	return len(d.matches) < opts.Limit && setsOmitted(near)
}

// readSets returns each list of lists with the sets of its candidates that
// came without them read, all in one statement; a candidate deleted since
// is left out.
func readSets(ctx context.Context, r Reader, lists [][]Candidate) ([][]Candidate, error) {
	var ids []int64
	for _, near := range lists {
		for _, c := range near {
			if c.SetsOmitted {
				ids = append(ids, c.ID)
			}
		}
	}
	slices.Sort(ids)
	read, err := r.Candidates(ctx, slices.Compact(ids))
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]Candidate, len(read))
	for _, c := range read {
		byID[c.ID] = c
	}
	out := make([][]Candidate, len(lists))
	for i, near := range lists {
		out[i] = make([]Candidate, 0, len(near))
		for _, c := range near {
			if c.SetsOmitted {
				full, ok := byID[c.ID]
				if !ok {
					continue
				}
				c.Words, c.Shingles, c.SetsOmitted = full.Words, full.Shingles, false
			}
			out[i] = append(out[i], c)
		}
	}
	return out, nil
}
