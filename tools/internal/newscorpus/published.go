package newscorpus

import (
	"fmt"
	"time"
)

// Publication times. CCTV's stories carry their broadcast date: each is
// published at 19:00 Beijing time that day (the programme's hour), a minute
// apart in the order of the programme. Sina's have no date (the feed was
// scraped in early November 2018): they are spread in file order over
// SinaSpan from SinaStart, so that every two of them fall within the
// service's 168-hour window and it hides no pair.
var (
	Beijing   = time.FixedZone("CST", 8*3600)
	SinaStart = time.Date(2018, 11, 1, 0, 0, 0, 0, Beijing)
)

// SinaSpan is how far apart the first and last Sina articles are published.
const SinaSpan = 5 * 24 * time.Hour

// SetPublished fills in Published for articles of one corpus.
func SetPublished(articles []Article) error {
	perDay := make(map[string]int)
	for i := range articles {
		a := &articles[i]
		if a.Corpus == Sina || a.Date == "" {
			a.Published = SinaStart.Add(time.Duration(float64(SinaSpan) * float64(i) / float64(len(articles))))
			continue
		}
		day, err := time.ParseInLocation(time.DateOnly, a.Date, Beijing)
		if err != nil {
			return fmt.Errorf("%s %s: date: %w", a.Corpus, a.ID, err)
		}
		a.Published = day.Add(19*time.Hour + time.Duration(perDay[a.Date])*time.Minute)
		perDay[a.Date]++
	}
	return nil
}
