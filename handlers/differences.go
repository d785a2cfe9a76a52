package handlers

import "github.com/newsdedup/newsdedup/service"

// A cluster's original and how each member differs from it, in
// GET /v1/clusters/{id}.

type originalResponse struct {
	ID          int64  `json:"id"`
	PublishedAt string `json:"published_at"`
	Copies      int    `json:"copies"`
}

func original(o service.Original) originalResponse {
	return originalResponse{ID: o.ID, PublishedAt: timestamp(o.PublishedAt), Copies: o.Copies}
}

type differenceResponse struct {
	Same              bool `json:"same"`
	HeadlineChanged   bool `json:"headline_changed"`
	BylineAdded       bool `json:"byline_added"`
	BoilerplateAdded  int  `json:"boilerplate_added"`
	FirstPercent      int  `json:"first_percent"`
	ParagraphsDropped int  `json:"paragraphs_dropped"`
	ParagraphsAdded   int  `json:"paragraphs_added"`
	OtherEdits        int  `json:"other_edits"`
}

func difference(d service.Difference) *differenceResponse {
	return &differenceResponse{Same: d.Same, HeadlineChanged: d.HeadlineChanged, BylineAdded: d.BylineAdded,
		BoilerplateAdded: d.BoilerplateAdded, FirstPercent: d.FirstPercent, ParagraphsDropped: d.ParagraphsDropped,
		ParagraphsAdded: d.ParagraphsAdded, OtherEdits: d.OtherEdits}
}
