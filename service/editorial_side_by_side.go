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
	// Cut says that Text is the start of a longer text (MaxReadRunes of
	// it), Length the whole text's characters.
	Cut    bool
	Length int
	// Shared are the parts of Text the other article shares (see
	// SideBySide.Marked).
	Shared []Span
}

// SideBySide compares two members of the cluster headed by clusterID.
// KindNotFound when one is not a member of that cluster. It reads the
// start of each body (MaxReadRunes), never the whole of a long one: two
// short texts are compared as Compare compares them; when one was cut,
// their likeness is that of their stored fingerprints (likeness) and the
// keywords marked are those of the starts shown (issue 44).
func (s *Service) SideBySide(ctx context.Context, clusterID, left, right int64) (SideBySide, error) {
	member := func(id int64) (Member, error) {
		a, err := s.store.Member(ctx, id)
		if errors.Is(err, ErrNotFound) || (err == nil && a.ClusterID != clusterID) {
			return Member{}, &Error{Kind: KindNotFound, Message: "article " + itoa(id) + " is not a member of cluster " + itoa(clusterID)}
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
	bodies, err := s.store.BodyHeads(ctx, []int64{l.ID, r.ID}, MaxReadRunes)
	if err != nil {
		return SideBySide{}, err
	}
	lt := Text{Title: l.Title, Body: bodies[l.ID].Body, ContentType: l.ContentType}
	rt := Text{Title: r.Title, Body: bodies[r.ID].Body, ContentType: r.ContentType}
	cut := bodies[l.ID].Cut || bodies[r.ID].Cut
	c, err := s.Compare(ctx, lt, rt)
	if err != nil {
		return SideBySide{}, err
	}
	lik := likeness(&r, &l)
	if cut { // the starts' keywords, the whole texts' likeness
		c.Similarity = lik.Similarity
		c.NearDuplicate = l.ContentHash == r.ContentHash || nearEnough(c.Similarity, s.defaults)
	}
	out := SideBySide{
		Left:       SideText{Article: l.Article, Text: readable(lt), Cut: bodies[l.ID].Cut, Length: l.TextLength},
		Right:      SideText{Article: r.Article, Text: readable(rt), Cut: bodies[r.ID].Cut, Length: r.TextLength},
		Comparison: c,
	}
	out.RightCoverage, out.LeftCoverage = lik.Coverage, lik.KeptCoverage
	ls, lPlain, lCut, err := s.store.ArticleTextHead(ctx, l.ID, MaxReadRunes)
	if err != nil {
		return SideBySide{}, err
	}
	rs, rPlain, rCut, err := s.store.ArticleTextHead(ctx, r.ID, MaxReadRunes)
	if err != nil {
		return SideBySide{}, err
	}
	if lSpans, rSpans := SentenceSpans(lPlain, ls, rPlain, rs); len(lSpans) > 0 {
		// The sentences point into the text as it was fingerprinted.
		out.Left.Text, out.Right.Text = lPlain, rPlain
		out.Left.Cut, out.Right.Cut = lCut, rCut
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
