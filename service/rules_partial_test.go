package service

import (
	"testing"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// TestDecidePartialByText feeds decidePartial candidates that share few
// whole sentences with the article and more or less of its text: the text
// share decides where the sentences do not, boilerplate's shingles do not
// count, and a short article must be found whole.
func TestDecidePartialByText(t *testing.T) {
	const long, short = 5, 2 // indexed sentences of the article judged
	shingles := func(from, to uint32) fingerprint.ShingleSet {
		var s fingerprint.ShingleSet
		for x := from; x < to; x++ {
			s = append(s, x)
		}
		return s
	}
	article := shingles(0, 100)
	opts := Options{Limit: 10}
	tests := []struct {
		name        string
		sentences   int                    // the article's indexed sentences
		theirs      fingerprint.ShingleSet // the candidate's shingles
		boilerplate fingerprint.ShingleSet
		shared      Coverage // by sentences
		want        Status
		wantThis    float64
	}{
		{"80 % of its text found, few sentences", long, shingles(20, 300), nil, Coverage{This: 0.2, That: 0.1}, StatusPartialDuplicate, 0.8},
		{"79 % of its text found", long, shingles(21, 300), nil, Coverage{This: 0.2, That: 0.1}, StatusUnique, 0},
		{"holds 80 % of the other's text", long, shingles(80, 105), nil, Coverage{This: 0.1, That: 0.2}, StatusPartialDuplicate, 0.2},
		{"the sentences alone suffice", long, shingles(90, 300), nil, Coverage{This: 0.6, That: 0.1}, StatusPartialDuplicate, 0.6},
		{"80 % only with boilerplate counted", long, shingles(20, 300), shingles(20, 50), Coverage{This: 0.2}, StatusUnique, 0},
		{"a short article 80 % found", short, shingles(20, 300), nil, Coverage{This: 0.5}, StatusUnique, 0},
		{"a short article found whole", short, shingles(0, 300), nil, Coverage{This: 0.5}, StatusPartialDuplicate, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fp := fingerprint.Fingerprint{Shingles: article, Sentences: make([]fingerprint.Sentence, tt.sentences)}
			links := map[int64]*sharedArticle{7: {coverage: tt.shared}}
			c := Candidate{ID: 7, Shingles: tt.theirs}
			d := decidePartial(fp, links, []Candidate{c}, tt.boilerplate, opts)
			if d.status != tt.want {
				t.Fatalf("status %s, want %s", d.status, tt.want)
			}
			if d.best != nil && d.best.Coverage.This != tt.wantThis {
				t.Errorf("coverage %+v, want this %v", d.best.Coverage, tt.wantThis)
			}
		})
	}
}
