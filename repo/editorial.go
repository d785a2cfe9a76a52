package repo

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// The editors' decisions (migration 00009): the decisions log, the choices
// in force, the separated pairs, and the list of clusters that triggers
// keep up to date.

// Separated returns the ids of the articles separated from article id.
func (q queries) Separated(ctx context.Context, id int64) ([]int64, error) {
	rows, err := q.db.Query(ctx, `
		SELECT b FROM separations WHERE a = $1
		UNION ALL
		SELECT a FROM separations WHERE b = $1`, id)
	if err != nil {
		return nil, interpretError(err, "list separations")
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	return ids, interpretError(err, "list separations")
}

// withExtra is a row whose Scan fills extra destinations after the ones it
// is given: scanArticle reads a row's article columns, the caller the
// columns it selected after them.
type withExtra struct {
	row   pgx.Row
	extra []any
}

func (r withExtra) Scan(dest ...any) error { return r.row.Scan(append(dest, r.extra...)...) }

// memberColumns are an article's columns as a cluster's page reads them,
// then its text length and whether its shingles were read cut: of a long
// article's shingles the first 4,096 (shingles_head, migration 00025), and
// its length as stored (text_length, migration 00046), counted only for a
// row stored before that — so a 2 MB member costs its page no more than a
// news article does (issue 44).
var memberColumns = strings.Replace(articleColumns, " shingles,", " coalesce(shingles_head, shingles),", 1) + `,
	coalesce(text_length, article_text_length(content_type, body)), shingles_head IS NOT NULL`

func init() {
	if !strings.Contains(memberColumns, "shingles_head, shingles") {
		panic("repo: memberColumns does not cut the shingles")
	}
}

// Members returns the members of a cluster with their text lengths and the
// editors' choices on them.
func (q queries) Members(ctx context.Context, clusterID int64, limit int) ([]service.Member, error) {
	rows, err := q.db.Query(ctx, `
		SELECT `+memberColumns+`, k.decision_id
		FROM articles
		LEFT JOIN kept_articles k ON k.article_id = articles.id
		WHERE cluster_id = $1
		ORDER BY ingested_at, id
		LIMIT $2`, clusterID, limitArg(limit))
	if err != nil {
		return nil, interpretError(err, "list members")
	}
	var decisionIDs []int64
	members, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (service.Member, error) {
		var m service.Member
		var decision *int64
		a, err := scanArticle(withExtra{row: row, extra: []any{&m.TextLength, &m.ShinglesCut, &decision}})
		m.Article = a
		if decision != nil {
			decisionIDs = append(decisionIDs, *decision)
			m.Kept = &service.Decision{ID: *decision}
		}
		return m, err
	})
	if err != nil {
		return nil, interpretError(err, "list members")
	}
	decisions, err := q.decisionsByID(ctx, decisionIDs)
	for i := range members {
		if k := members[i].Kept; k != nil {
			members[i].Kept = decisions[k.ID]
		}
	}
	return members, err
}

// Member returns article id as a cluster's page reads it (memberColumns),
// without the editors' choice on it; KindNotFound if there is none.
func (q queries) Member(ctx context.Context, id int64) (service.Member, error) {
	var m service.Member
	a, err := scanArticle(withExtra{row: q.db.QueryRow(ctx, `SELECT `+memberColumns+` FROM articles WHERE id = $1`, id),
		extra: []any{&m.TextLength, &m.ShinglesCut}})
	m.Article = a
	return m, interpretError(err, "find member")
}

// KeepCandidates returns the members of clusters as the keep rule reads
// them; whether a member is a compilation is asked of the sentence index
// (article_holds_other_story, migration 00023) only for the few that hold
// the article they link to plus much more, as the view cluster_kept asks.
// It reads no body: the rule weighs the story held, not the length, and
// reading the bodies to measure them took half the statement's time for
// a page of large clusters (docs/ui.md, "The list's keep rule"); of a
// long member's shingles it reads the first 4,096 (shingles_head,
// migration 00025).
func (q queries) KeepCandidates(ctx context.Context, clusterIDs []int64) ([]service.KeepCandidate, error) {
	rows, err := q.db.Query(ctx, `
		SELECT a.id, a.cluster_id, a.source, a.external_id, a.title, a.published_at, k.decision_id,
		       a.status, coalesce(a.coverage_this, 0), coalesce(a.coverage_that, 0),
		       coalesce(a.shingles_head, a.shingles), a.shingles_head IS NOT NULL, a.fingerprint_version,
		       CASE WHEN a.status = 'partial_duplicate' AND a.coverage_that >= 0.8::real AND a.coverage_this < 0.8::real
		            THEN article_holds_other_story(a.id, a.cluster_id) ELSE false END
		FROM articles a
		LEFT JOIN kept_articles k ON k.article_id = a.id
		WHERE a.cluster_id = ANY ($1)
		ORDER BY a.cluster_id, a.ingested_at, a.id`, clusterIDs)
	if err != nil {
		return nil, interpretError(err, "list keep candidates")
	}
	var decisionIDs []int64
	cs, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (service.KeepCandidate, error) {
		var c service.KeepCandidate
		var decision *int64
		var this, that float32
		var shingles []int32
		var version int16
		err := row.Scan(&c.ID, &c.ClusterID, &c.Source, &c.ExternalID, &c.Title, &c.PublishedAt, &decision,
			&c.Status, &this, &that, &shingles, &c.ShinglesCut, &version, &c.Compilation)
		c.Version = fingerprint.Version(version)
		c.Coverage = service.Coverage{This: float64(this), That: float64(that)}
		c.Shingles = shingleSet(shingles)
		if decision != nil {
			decisionIDs = append(decisionIDs, *decision)
			c.Kept = &service.Decision{ID: *decision}
		}
		return c, err
	})
	if err != nil {
		return nil, interpretError(err, "list keep candidates")
	}
	decisions, err := q.decisionsByID(ctx, decisionIDs)
	for i := range cs {
		if k := cs[i].Kept; k != nil {
			cs[i].Kept = decisions[k.ID]
		}
	}
	return cs, err
}

// Subtree returns article id and every article of its cluster whose links
// lead to it (an article heading a cluster of its own, though it links
// into this one, is not of it: service/rules_drift.go).
func (q queries) Subtree(ctx context.Context, id int64) ([]int64, error) {
	rows, err := q.db.Query(ctx, `
		WITH RECURSIVE subtree(id) AS (
			SELECT $1::bigint
			UNION
			SELECT a.id FROM articles a JOIN subtree s ON a.duplicate_of = s.id WHERE a.cluster_head IS NOT NULL
		)
		SELECT id FROM subtree ORDER BY id`, id)
	if err != nil {
		return nil, interpretError(err, "list subtree")
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	return ids, interpretError(err, "list subtree")
}

// decisionColumns are the columns of a service.Decision, in scanDecision's
// order.
const decisionColumns = `id, action, cluster_id, coalesce(article_id, 0), coalesce(article_source, ''),
	coalesce(article_external_id, ''), editor, note, decided_at`

func scanDecision(row pgx.Row) (service.Decision, error) {
	var d service.Decision
	var action string
	err := row.Scan(&d.ID, &action, &d.ClusterID, &d.ArticleID, &d.ArticleSource, &d.ArticleExternalID,
		&d.Editor, &d.Note, &d.DecidedAt)
	d.Action = service.Action(action)
	return d, err
}

func collectDecisions(rows pgx.Rows, err error) ([]service.Decision, error) {
	if err != nil {
		return nil, interpretError(err, "list decisions")
	}
	ds, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (service.Decision, error) { return scanDecision(row) })
	return ds, interpretError(err, "list decisions")
}

// decisionsByID returns the decisions with these ids.
func (q queries) decisionsByID(ctx context.Context, ids []int64) (map[int64]*service.Decision, error) {
	out := make(map[int64]*service.Decision, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := q.db.Query(ctx, `SELECT `+decisionColumns+` FROM editor_decisions WHERE id = ANY ($1)`, ids)
	ds, err := collectDecisions(rows, err)
	for i := range ds {
		out[ds[i].ID] = &ds[i]
	}
	return out, err
}

// Decisions returns the decisions made in a cluster or about its members,
// latest first.
func (q queries) Decisions(ctx context.Context, clusterID int64, articleIDs []int64, limit int) ([]service.Decision, error) {
	rows, err := q.db.Query(ctx, `
		SELECT `+decisionColumns+`,
		       action = 'split' AND EXISTS (SELECT FROM separations s WHERE s.decision_id = editor_decisions.id)
		FROM editor_decisions
		WHERE cluster_id = $1 OR article_id = ANY ($2)
		ORDER BY id DESC
		LIMIT $3`, clusterID, articleIDs, limitArg(limit))
	if err != nil {
		return nil, interpretError(err, "list decisions")
	}
	ds, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (service.Decision, error) {
		var d service.Decision
		var action string
		err := row.Scan(&d.ID, &action, &d.ClusterID, &d.ArticleID, &d.ArticleSource, &d.ArticleExternalID,
			&d.Editor, &d.Note, &d.DecidedAt, &d.Undoable)
		d.Action = service.Action(action)
		return d, err
	})
	return ds, interpretError(err, "list decisions")
}

// Bodies returns the stored bodies of the articles ids.
func (q queries) Bodies(ctx context.Context, ids []int64) (map[int64]string, error) {
	rows, err := q.db.Query(ctx, `SELECT id, body FROM articles WHERE id = ANY ($1)`, ids)
	if err != nil {
		return nil, interpretError(err, "read bodies")
	}
	out := make(map[int64]string, len(ids))
	var id int64
	var body string
	_, err = pgx.ForEachRow(rows, []any{&id, &body}, func() error {
		out[id] = body
		return nil
	})
	return out, interpretError(err, "read bodies")
}

// BodyHeads returns the first runes characters of the stored bodies of the
// articles ids, and whether each is longer: of a long body, its start kept
// apart (body_head, migration 00047, where PostgreSQL would fetch every
// chunk of the compressed whole to cut it), and its length read from its
// header (octet_length), so a 2 MB body costs what its start does.
func (q queries) BodyHeads(ctx context.Context, ids []int64, runes int) (map[int64]service.BodyHead, error) {
	rows, err := q.db.Query(ctx, `SELECT id, substr(coalesce(body_head, body), 1, $2), octet_length(body)
		FROM articles WHERE id = ANY ($1)`, ids, runes)
	if err != nil {
		return nil, interpretError(err, "read bodies")
	}
	out := make(map[int64]service.BodyHead, len(ids))
	var (
		id    int64
		head  string
		bytes int
	)
	_, err = pgx.ForEachRow(rows, []any{&id, &head, &bytes}, func() error {
		out[id] = service.BodyHead{Body: head, Cut: bytes > len(head)}
		return nil
	})
	return out, interpretError(err, "read bodies")
}

// RecordDecision stores a decision and sets its ID and DecidedAt.
func (t *storeTx) RecordDecision(ctx context.Context, d *service.Decision) error {
	key := d.ArticleID != 0
	err := t.db.QueryRow(ctx, `
		INSERT INTO editor_decisions (action, cluster_id, article_id, article_source, article_external_id, editor, note)
		VALUES ($1, $2, $3, $4, $5, $6, $7)
		RETURNING id, decided_at`,
		string(d.Action), d.ClusterID, nullIf(key, d.ArticleID), nullIf(key, d.ArticleSource), nullIf(key, d.ArticleExternalID),
		d.Editor, d.Note).Scan(&d.ID, &d.DecidedAt)
	return interpretError(err, "record decision")
}

// Separate stores separated pairs, each (smaller id, larger id).
func (t *storeTx) Separate(ctx context.Context, pairs [][2]int64, decisionID int64) (int, error) {
	as := make([]int64, len(pairs))
	bs := make([]int64, len(pairs))
	for i, p := range pairs {
		as[i], bs[i] = min(p[0], p[1]), max(p[0], p[1])
	}
	tag, err := t.db.Exec(ctx, `
		INSERT INTO separations (a, b, decision_id)
		SELECT a, b, $3 FROM unnest($1::bigint[], $2::bigint[]) AS p(a, b)
		ON CONFLICT (a, b) DO NOTHING`, as, bs, decisionID)
	if err != nil {
		return 0, interpretError(err, "separate articles")
	}
	return int(tag.RowsAffected()), nil
}

// SetKept withdraws the choices on a cluster's members and keeps one.
func (t *storeTx) SetKept(ctx context.Context, clusterID, articleID, decisionID int64) error {
	_, err := t.db.Exec(ctx, `
		DELETE FROM kept_articles k USING articles a
		WHERE a.id = k.article_id AND a.cluster_id = $1`, clusterID)
	if err != nil || articleID == 0 {
		return interpretError(err, "withdraw kept articles")
	}
	_, err = t.db.Exec(ctx, `
		INSERT INTO kept_articles (article_id, decision_id) VALUES ($1, $2)
		ON CONFLICT (article_id) DO UPDATE SET decision_id = excluded.decision_id`, articleID, decisionID)
	return interpretError(err, "keep article")
}

// RecordKeepPolicy records the keep rule, leaving the row as it is when it
// already says the same.
func (t *storeTx) RecordKeepPolicy(ctx context.Context, sources []string, tolerancePercent int) error {
	if sources == nil {
		sources = []string{}
	}
	_, err := t.db.Exec(ctx, `
		INSERT INTO keep_policy AS p (only_row, sources, length_tolerance_percent) VALUES (true, $1, $2)
		ON CONFLICT (only_row) DO UPDATE SET
			sources = excluded.sources,
			length_tolerance_percent = excluded.length_tolerance_percent,
			recorded_at = clock_timestamp()
		WHERE p.sources IS DISTINCT FROM excluded.sources
		   OR p.length_tolerance_percent IS DISTINCT FROM excluded.length_tolerance_percent`, sources, tolerancePercent)
	return interpretError(err, "record keep policy")
}

// DecisionByID returns decision id.
func (t *storeTx) DecisionByID(ctx context.Context, id int64) (service.Decision, error) {
	ds, err := t.decisionsByID(ctx, []int64{id})
	if err != nil {
		return service.Decision{}, err
	}
	d, ok := ds[id]
	if !ok {
		return service.Decision{}, &service.Error{Kind: service.KindNotFound, Message: fmt.Sprintf("no such decision: %d", id)}
	}
	return *d, nil
}

// Unseparate removes the pairs decision decisionID separated.
func (t *storeTx) Unseparate(ctx context.Context, decisionID int64) ([][2]int64, error) {
	rows, err := t.db.Query(ctx, `DELETE FROM separations WHERE decision_id = $1 RETURNING a, b`, decisionID)
	if err != nil {
		return nil, interpretError(err, "remove separations")
	}
	pairs, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) ([2]int64, error) {
		var p [2]int64
		err := row.Scan(&p[0], &p[1])
		return p, err
	})
	return pairs, interpretError(err, "remove separations")
}

// DecisionLog returns the decisions made in [from, to), by editor and of
// action when they are set, latest first, at most limit, as the rows come. Decisions are the
// editors' own clicks, few; the primary key read backwards serves the
// order.
func (q queries) DecisionLog(ctx context.Context, dq service.DecisionQuery, limit int, fn func(service.Decision) error) error {
	rows, err := q.db.Query(ctx, `
		SELECT `+decisionColumns+`
		FROM editor_decisions
		WHERE decided_at >= $1 AND decided_at < $2 AND ($3 = '' OR editor = $3) AND ($5 = '' OR action = $5)
		ORDER BY id DESC
		LIMIT $4`, dq.From, dq.To, dq.Editor, limit, string(dq.Action))
	if err != nil {
		return interpretError(err, "read decisions")
	}
	defer rows.Close()
	for rows.Next() {
		d, err := scanDecision(rows)
		if err != nil {
			return interpretError(err, "read decisions")
		}
		if err := fn(d); err != nil {
			return err
		}
	}
	return interpretError(rows.Err(), "read decisions")
}
