package service

import "github.com/newsdedup/newsdedup/service/fingerprint"

// similarity measures fingerprint fp against a stored one.
func similarity(fp fingerprint.Fingerprint, simhash uint64, words fingerprint.WordSet, shingles fingerprint.ShingleSet) Similarity {
	aInB, bInA := fingerprint.Coverage(fp.Shingles, shingles)
	return Similarity{
		Distance:      fingerprint.Distance(fp.Simhash, simhash),
		WordRatio:     fingerprint.Ratio(fp.Words, words),
		Overlap:       max(aInB, bInA),
		LongerOverlap: min(aInB, bInA),
	}
}

func newMatch(fp fingerprint.Fingerprint, c Candidate, exact bool) Match {
	return Match{
		ID:          c.ID,
		ExternalID:  c.ExternalID,
		Source:      c.Source,
		Title:       c.Title,
		PublishedAt: c.PublishedAt,
		Similarity:  similarity(fp, c.Simhash, c.Words, c.Shingles),
		simhash:     c.Simhash,
		contentHash: c.ContentHash,
		clusterID:   c.ClusterID,
		exact:       exact,
		ingestedAt:  c.IngestedAt,
	}
}
