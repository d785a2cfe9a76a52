package service

import (
	"context"
	"slices"
)

// recredit classifies again the credit of each relinked article against
// the article it now links to, and clears it for one that links to none:
// a copy's credit is how it credits what it links to, so a relink — a
// promotion, a correction, an article leaving, an editor's split — judges
// it anew. Two statements however many.
func (s *Service) recredit(ctx context.Context, tx Tx, ls []Link) error {
	if len(ls) == 0 {
		return nil
	}
	ids := make([]int64, 0, 2*len(ls))
	for _, l := range ls {
		if l.DuplicateOf != 0 {
			ids = append(ids, l.ID, l.DuplicateOf)
		}
	}
	var texts map[int64]CreditText
	if len(ids) > 0 {
		slices.Sort(ids)
		var err error
		if texts, err = tx.CreditTexts(ctx, slices.Compact(ids)); err != nil {
			return err
		}
	}
	cs := make([]ArticleCredit, 0, len(ls))
	for _, l := range ls {
		if l.DuplicateOf == 0 {
			cs = append(cs, ArticleCredit{ID: l.ID}) // links to none: no credit
			continue
		}
		c, okc := texts[l.ID]
		o, oko := texts[l.DuplicateOf]
		if !okc || !oko {
			continue
		}
		cs = append(cs, ArticleCredit{ID: l.ID, Credit: ClassifyCredit(
			CreditSide{Names: creditNames(s.sources, o.Source), Title: o.Title, Body: o.Plain},
			CreditSide{Names: creditNames(s.sources, c.Source), Title: c.Title, Body: c.Plain})})
	}
	return tx.SetCredits(ctx, cs)
}
