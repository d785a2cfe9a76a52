package repo

import (
	"context"
	"crypto/sha256"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/service"
)

// ArticleVersions returns the latest limit earlier contents of article id,
// earliest first.
func (q queries) ArticleVersions(ctx context.Context, id int64, limit int) ([]service.StoredVersion, error) {
	rows, err := q.db.Query(ctx, `
		SELECT version, title, url, body, content_type, content_hash, published_at, stored_at, superseded_at
		FROM article_versions WHERE article_id = $1 ORDER BY version DESC LIMIT $2`, id, limit)
	if err != nil {
		return nil, interpretError(err, "read versions")
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (service.StoredVersion, error) {
		var (
			v           service.StoredVersion
			contentType string
			hash        []byte
		)
		err := r.Scan(&v.Version, &v.Title, &v.URL, &v.Text.Body, &contentType, &hash, &v.PublishedAt, &v.StoredAt, &v.SupersededAt)
		if err == nil && len(hash) != sha256.Size {
			err = fmt.Errorf("version %d of article %d: content hash of %d bytes", v.Version, id, len(hash))
		}
		v.Text.Title, v.Text.ContentType = v.Title, service.ContentType(contentType)
		if err == nil {
			v.ContentHash = [sha256.Size]byte(hash)
		}
		return v, err
	})
	if err != nil {
		return nil, interpretError(err, "read versions")
	}
	slices.Reverse(out)
	return out, nil
}
