package service

import (
	"context"
	"slices"
)

// CreditText is what the credit rule reads of the article a copy links to.
type CreditText struct {
	Source, Title, Plain string
}

// ArticleCredit is an article's credit, to store.
type ArticleCredit struct {
	ID     int64
	Credit Credit
}

// setCredits classifies each written article that links to another
// against it (ClassifyCredit) and stores the class: two statements
// however many articles.
func (s *Service) setCredits(ctx context.Context, tx Tx, as []*Article) error {
	var ids []int64
	for _, a := range as {
		if a.DuplicateOf != 0 {
			ids = append(ids, a.DuplicateOf)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	slices.Sort(ids)
	texts, err := tx.CreditTexts(ctx, slices.Compact(ids))
	if err != nil {
		return err
	}
	cs := make([]ArticleCredit, 0, len(as))
	for _, a := range as {
		o, ok := texts[a.DuplicateOf]
		if a.DuplicateOf == 0 || !ok {
			continue
		}
		a.Credit = ClassifyCredit(
			CreditSide{Names: creditNames(s.sources, o.Source), Title: o.Title, Body: o.Plain},
			CreditSide{Names: creditNames(s.sources, a.Source), Title: a.Title, Body: a.PlainBody})
		cs = append(cs, ArticleCredit{ID: a.ID, Credit: a.Credit})
	}
	return tx.SetCredits(ctx, cs)
}
