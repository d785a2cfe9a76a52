package repo

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/service"
)

// CreditTexts returns the source, headline and plain text of each of
// articles ids that exists, for the credit rule.
func (q queries) CreditTexts(ctx context.Context, ids []int64) (map[int64]service.CreditText, error) {
	out := make(map[int64]service.CreditText, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := q.db.Query(ctx, `SELECT id, source, title, coalesce(plain_body, body) FROM articles WHERE id = ANY($1)`, q.writerArgs(ids)...)
	if err != nil {
		return nil, interpretError(err, "read credit texts")
	}
	var (
		id int64
		t  service.CreditText
	)
	_, err = pgx.ForEachRow(rows, []any{&id, &t.Source, &t.Title, &t.Plain}, func() error {
		out[id] = t
		return nil
	})
	return out, interpretError(err, "read credit texts")
}

// SetCredits stores the credit of each article, in one statement.
func (t *storeTx) SetCredits(ctx context.Context, cs []service.ArticleCredit) error {
	if len(cs) == 0 {
		return nil
	}
	ids := make([]int64, len(cs))
	credits := make([]string, len(cs))
	for i, c := range cs {
		ids[i], credits[i] = c.ID, string(c.Credit)
	}
	_, err := t.db.Exec(ctx, `
		UPDATE articles a SET credit = nullif(c.credit, '')
		FROM unnest($1::int8[], $2::text[]) AS c(id, credit)
		WHERE a.id = c.id`, ids, credits)
	return interpretError(err, "set credits")
}

// KnownSources returns the sources table, by source.
func (s *Store) KnownSources(ctx context.Context) ([]service.SourceInfo, error) {
	rows, err := s.pool.Query(ctx, `SELECT source, owner, names FROM sources ORDER BY source`)
	if err != nil {
		return nil, interpretError(err, "read sources")
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (service.SourceInfo, error) {
		var si service.SourceInfo
		err := r.Scan(&si.Source, &si.Owner, &si.Names)
		return si, err
	})
	return out, interpretError(err, "read sources")
}

// ReplaceSources makes the sources table hold exactly these sources, in
// one transaction (the replicas that load the same file at once write the
// same rows). It writes only the rows that differ: a changed owner
// rewrites original_owner on that source's copies (trigger
// sources_copy_owners, migration 00048), which an unchanged file at each
// start must not cost.
func (s *Store) ReplaceSources(ctx context.Context, sources []service.SourceInfo) error {
	return interpretError(pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `LOCK TABLE sources IN EXCLUSIVE MODE`); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `CREATE TEMP TABLE new_sources (LIKE sources INCLUDING ALL) ON COMMIT DROP`); err != nil {
			return err
		}
		_, err := tx.CopyFrom(ctx, pgx.Identifier{"new_sources"}, []string{"source", "owner", "names"},
			pgx.CopyFromSlice(len(sources), func(i int) ([]any, error) {
				names := sources[i].Names
				if names == nil {
					names = []string{}
				}
				return []any{sources[i].Source, sources[i].Owner, names}, nil
			}))
		if err != nil {
			return err
		}
		for _, sql := range []string{
			`DELETE FROM sources s WHERE NOT EXISTS (SELECT 1 FROM new_sources n WHERE n.source = s.source)`,
			`UPDATE sources s SET owner = n.owner, names = n.names FROM new_sources n
			 WHERE n.source = s.source AND (n.owner, n.names) IS DISTINCT FROM (s.owner, s.names)`,
			`INSERT INTO sources (source, owner, names) SELECT source, owner, names FROM new_sources
			 ON CONFLICT (source) DO NOTHING`,
		} {
			if _, err := tx.Exec(ctx, sql); err != nil {
				return err
			}
		}
		return nil
	}), "replace sources")
}
