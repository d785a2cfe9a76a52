package service

import (
	"context"
	"errors"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// SideBySide is two members of a cluster, their texts as a reader sees
// them, what they share and how alike they are.
type SideBySide struct {
	Left, Right SideText
	Comparison  // Right compared with Left, and their shared keywords
	// LeftCoverage is the share of Left's text found in Right's;
	// RightCoverage the share of Right's found in Left's.
	LeftCoverage, RightCoverage float64
	// Marked says what Shared marks: MarkedSentences or MarkedKeywords.
	Marked string
}

// What a SideBySide marks in both texts: the sentences they share, or when
// they share no indexed sentence (the sentence index is off, or the texts
// are short), the keywords they share.
const (
	MarkedSentences = "sentences"
	MarkedKeywords  = "keywords"
)

// SideText is the text of one article of a SideBySide.
type SideText struct {
	Article
	Text string // the body as a reader sees it (an HTML body without markup)
	// Shared are the parts of Text the other article shares (see
	// SideBySide.Marked).
	Shared []Span
}

// SideBySide compares two members of the cluster headed by clusterID.
// KindNotFound when one is not a member of that cluster.
func (s *Service) SideBySide(ctx context.Context, clusterID, left, right int64) (SideBySide, error) {
	member := func(id int64) (Article, error) {
		a, err := s.store.Article(ctx, id)
		if errors.Is(err, ErrNotFound) || (err == nil && a.ClusterID != clusterID) {
			return Article{}, &Error{Kind: KindNotFound, Message: "article " + itoa(id) + " is not a member of cluster " + itoa(clusterID)}
		}
		return a, err
	}
	l, err := member(left)
	if err != nil {
		return SideBySide{}, err
	}
	r, err := member(right)
	if err != nil {
		return SideBySide{}, err
	}
	bodies, err := s.store.Bodies(ctx, []int64{l.ID, r.ID})
	if err != nil {
		return SideBySide{}, err
	}
	lt := Text{Title: l.Title, Body: bodies[l.ID], ContentType: l.ContentType}
	rt := Text{Title: r.Title, Body: bodies[r.ID], ContentType: r.ContentType}
	c, err := s.Compare(ctx, lt, rt)
	if err != nil {
		return SideBySide{}, err
	}
	out := SideBySide{
		Left:       SideText{Article: l, Text: readable(lt)},
		Right:      SideText{Article: r, Text: readable(rt)},
		Comparison: c,
	}
	out.LeftCoverage, out.RightCoverage = fingerprint.Coverage(l.Shingles, r.Shingles)
	ls, lPlain, err := s.store.ArticleText(ctx, l.ID)
	if err != nil {
		return SideBySide{}, err
	}
	rs, rPlain, err := s.store.ArticleText(ctx, r.ID)
	if err != nil {
		return SideBySide{}, err
	}
	if lSpans, rSpans := SentenceSpans(lPlain, ls, rPlain, rs); len(lSpans) > 0 {
		// The sentences point into the text as it was fingerprinted.
		out.Left.Text, out.Right.Text = lPlain, rPlain
		out.Left.Shared, out.Right.Shared, out.Marked = lSpans, rSpans, MarkedSentences
		return out, nil
	}
	out.Left.Shared = KeywordSpans(out.Left.Text, c.SharedKeywords)
	out.Right.Shared = KeywordSpans(out.Right.Text, c.SharedKeywords)
	out.Marked = MarkedKeywords
	return out, nil
}

// readable is a text's body as a reader sees it.
func readable(t Text) string {
	if t.ContentType == ContentHTML {
		return fingerprint.HTMLText(t.Body)
	}
	return t.Body
}
