package service

import (
	"context"
	"crypto/sha256"
	"time"
)

// MaxVersions bounds the versions of an article GET /v1/articles/{id}/versions
// lists: the latest ones, the current content included.
const MaxVersions = 50

// StoredVersion is an earlier content of an article, as article_versions
// keeps it (migration 00037).
type StoredVersion struct {
	Version      int
	Title, URL   string
	Text         Text
	ContentHash  [sha256.Size]byte
	PublishedAt  time.Time
	StoredAt     time.Time
	SupersededAt time.Time
}

// Version is one content of an article: an earlier one, or the current
// one (Current, no SupersededAt).
type Version struct {
	Version      int
	Title        string
	ContentHash  [sha256.Size]byte
	PublishedAt  time.Time
	StoredAt     time.Time
	SupersededAt time.Time // zero for the current content
	Current      bool
	// Changed is what this version changed from the one before (nil for
	// the first listed).
	Changed *Difference
}

// Versions returns the contents article id has had, earliest first, the
// current one last, each with what it changed from the one before.
// KindNotFound when there is no such article.
func (s *Service) Versions(ctx context.Context, id int64) ([]Version, error) {
	a, err := s.store.Article(ctx, id)
	if err != nil {
		return nil, err
	}
	body, err := s.store.Body(ctx, id)
	if err != nil {
		return nil, err
	}
	stored, err := s.store.ArticleVersions(ctx, id, MaxVersions-1)
	if err != nil {
		return nil, err
	}
	stored = append(stored, StoredVersion{
		Version: len(stored) + 1, Title: a.Title, Text: Text{Title: a.Title, Body: body, ContentType: a.ContentType},
		ContentHash: a.ContentHash, PublishedAt: a.PublishedAt,
	})
	if n := len(stored); n > 1 {
		stored[n-1].Version = stored[n-2].Version + 1
		stored[n-1].StoredAt = stored[n-2].SupersededAt
	} else {
		stored[0].StoredAt = a.IngestedAt
	}
	out := make([]Version, len(stored))
	for i, v := range stored {
		out[i] = Version{Version: v.Version, Title: v.Title, ContentHash: v.ContentHash, PublishedAt: v.PublishedAt,
			StoredAt: v.StoredAt, SupersededAt: v.SupersededAt, Current: i == len(stored)-1}
		if i > 0 {
			d := Differ(stored[i-1].Title, readable(stored[i-1].Text), v.Title, readable(v.Text))
			out[i].Changed = &d
		}
	}
	return out, nil
}
