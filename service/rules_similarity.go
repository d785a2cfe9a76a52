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
