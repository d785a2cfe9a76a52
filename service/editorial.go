package service

import (
	"context"
	"crypto/rand"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// The editors' decisions: which member of a cluster to keep (keep.go), and
// which articles are not duplicates of each other. Every decision is
// recorded with who made it, when, and what it was.
//
// A split of article X out of its cluster makes X, with the articles whose
// links lead to it (its subtree), a cluster of its own, headed by X, and
// separates every article of the subtree from every other member of the
// cluster: the judging never links one of a separated pair to the other
// again (judge), so re-ingesting X, or any article of its subtree, with the
// same or an edited text keeps it apart. Splitting out the head of a
// cluster leaves it alone: it is separated from every other member, and the
// articles that linked to it are judged again, as when an article leaves.

// Action is what an editor decided.
type Action string

// The editors' actions.
const (
	ActionKeep  Action = "keep"  // keep an article in its cluster, whatever the rule says
	ActionReset Action = "reset" // the cluster returns to the keep rule
	ActionSplit Action = "split" // an article and its subtree are not duplicates of the rest
)

// Decision is one decision of an editor.
type Decision struct {
	ID        int64
	Action    Action
	ClusterID int64 // the cluster the decision was made in, as it was then
	// ArticleID is the article kept or split out: 0 for ActionReset, and
	// once the article is deleted. Its key stays.
	ArticleID         int64
	ArticleSource     string
	ArticleExternalID string
	Editor            string
	Note              string
	DecidedAt         time.Time
}

// DecisionInput says who decides, and why.
type DecisionInput struct {
	// Editor is the editor's name: 1 to MaxEditorLength characters, no
	// control or format characters (CheckEditor). It is their word, not an
	// identity the service checks.
	Editor string
	// Note is at most MaxNoteLength characters, its lines broken by LF or
	// CRLF, with no other control character.
	Note string
}

// The longest editor's name and note, in characters.
const (
	MaxEditorLength = 100
	MaxNoteLength   = 1000
)

// MaxClusterMembers is the most members a cluster's view lists.
const MaxClusterMembers = 500

// MaxSplitPairs bounds the pairs one split may separate (the size of the
// subtree times the size of the rest of the cluster).
const MaxSplitPairs = 100_000

// maxDecisionsShown is the most decisions a cluster's view lists.
const maxDecisionsShown = 50

func (in *DecisionInput) validate() error {
	editor, err := CheckEditor(in.Editor)
	if err != nil {
		return err
	}
	in.Editor = editor
	if err := checkStrings("", field{"note", in.Note}); err != nil {
		return err
	}
	if err := checkNote(in.Note); err != nil {
		return err
	}
	return checkLength("note", in.Note, MaxNoteLength)
}

// checkNote refuses a note with a control character other than a line
// break (LF, or CR before LF): a tab, a bell, a lone CR.
func checkNote(note string) error {
	for i, r := range note {
		if r == '\n' || (r == '\r' && strings.HasPrefix(note[i+1:], "\n")) {
			continue
		}
		if unicode.IsControl(r) {
			return Invalid("note", "must not contain control characters other than line breaks (LF, CRLF), not %U", r)
		}
	}
	return nil
}

// CheckEditor returns an editor's name without the blanks around it, or
// KindInvalid (field "editor") for a name that is empty, longer than
// MaxEditorLength characters, not UTF-8, or holds a control character, a
// line or paragraph separator, or a format character (Unicode Cf: the
// bidirectional controls such as U+202E, which would show the name, and
// the text after it, reversed; zero-width characters such as U+200B, which
// would make two names look alike).
func CheckEditor(name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", Invalid("editor", "is required: the name of the editor who decides")
	}
	if err := checkStrings("", field{"editor", name}); err != nil {
		return "", err
	}
	if i := strings.IndexFunc(name, unicode.IsControl); i >= 0 {
		return "", Invalid("editor", "must not contain control characters (line breaks, tabs), not %U", []rune(name[i:])[0])
	}
	if i := strings.IndexFunc(name, func(r rune) bool { return unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp) }); i >= 0 {
		return "", Invalid("editor", "must not contain format characters (bidirectional controls, zero-width characters) or line separators, not %U", []rune(name[i:])[0])
	}
	return name, checkLength("editor", name, MaxEditorLength)
}

// editorial is the service's part of the editors' decisions: the keep
// policy, and whether it is recorded in the database.
type editorial struct {
	policy    KeepPolicy
	recorded  atomic.Bool
	cursorKey atomic.Pointer[[]byte] // see CursorKey
}

// SetKeepPolicy sets the preferred sources of the keep rule. Call it before
// the service is used. KindInvalid for a blank, repeated or overlong source.
func (s *Service) SetKeepPolicy(p KeepPolicy) error {
	if err := p.Validate(); err != nil {
		return err
	}
	s.editorial.policy = KeepPolicy{Sources: slices.Clone(p.Sources)}
	return nil
}

// KeepPolicy returns the keep rule's preferred sources.
func (s *Service) KeepPolicy() KeepPolicy { return s.editorial.policy }

// RecordKeepPolicy records the keep rule in the database, for the
// reporting views (keep_policy, cluster_kept). The service records it
// itself before its first editorial read or write; dedupd serve records it
// at start.
func (s *Service) RecordKeepPolicy(ctx context.Context) error {
	err := s.store.InTx(ctx, func(tx Tx) error {
		return tx.RecordKeepPolicy(ctx, s.editorial.policy.Sources, KeepLengthTolerancePercent)
	})
	if err == nil {
		s.editorial.recorded.Store(true)
	}
	return err
}

func (s *Service) ensureKeepPolicy(ctx context.Context) error {
	if s.editorial.recorded.Load() {
		return nil
	}
	return s.RecordKeepPolicy(ctx)
}

// Member is a member of a cluster as its view shows it.
type Member struct {
	Article
	TextLength int       // characters of its text (an HTML body without markup)
	Kept       *Decision // the editor's choice in force on it, if any
}

// Likeness is how a member compares with its cluster's kept member.
type Likeness struct {
	Similarity
	// Coverage is the share of the member's text found in the kept
	// member's; KeptCoverage the share of the kept member's found in the
	// member's.
	Coverage, KeptCoverage float64
}

// ClusterView is a cluster with its members, its kept member and the
// decisions made in it.
type ClusterView struct {
	ID        int64 // its head's id
	Size      int
	Members   []Member // at most MaxClusterMembers, earliest ingested first
	Kept      Kept
	Original  Original           // the member the others derive from (original.go)
	Likeness  map[int64]Likeness // of each member but the kept one, with the kept one
	Decisions []Decision         // in this cluster or about its members, latest first
	Policy    KeepPolicy
}

// Member returns the member with this id, if the view lists it.
func (v *ClusterView) Member(id int64) (Member, bool) {
	i := slices.IndexFunc(v.Members, func(m Member) bool { return m.ID == id })
	if i < 0 {
		return Member{}, false
	}
	return v.Members[i], true
}

// Cluster returns the cluster headed by article id. KindNotFound when no
// such article heads a cluster; the error of an article that is a member of
// another cluster names that cluster.
func (s *Service) Cluster(ctx context.Context, id int64) (ClusterView, error) {
	if err := s.ensureKeepPolicy(ctx); err != nil {
		return ClusterView{}, err
	}
	if err := s.isHead(ctx, s.store, id); err != nil {
		return ClusterView{}, err
	}
	candidates, err := s.store.KeepCandidates(ctx, []int64{id})
	if err != nil {
		return ClusterView{}, err
	}
	if len(candidates) == 0 {
		return ClusterView{}, noCluster(id)
	}
	members, err := s.store.Members(ctx, id, MaxClusterMembers)
	if err != nil {
		return ClusterView{}, err
	}
	v := ClusterView{ID: id, Size: len(candidates), Members: members, Policy: s.editorial.policy,
		Kept: keep(candidates, s.editorial.policy), Original: originalOf(candidates)}

	kept, ok := v.Member(v.Kept.ID)
	if !ok { // beyond the members listed
		a, err := s.store.Article(ctx, v.Kept.ID)
		if err != nil {
			return ClusterView{}, err
		}
		kept = Member{Article: a}
	}
	v.Likeness = make(map[int64]Likeness, len(members))
	for _, m := range members {
		if m.ID != kept.ID {
			v.Likeness[m.ID] = likeness(&m.Article, &kept.Article)
		}
	}

	ids := make([]int64, len(members))
	for i, m := range members {
		ids[i] = m.ID
	}
	if v.Decisions, err = s.store.Decisions(ctx, id, ids, maxDecisionsShown); err != nil {
		return ClusterView{}, err
	}
	return v, nil
}

// likeness compares two stored articles by their stored fingerprints.
func likeness(m, kept *Article) Likeness {
	mInK, kInM := fingerprint.Coverage(m.Shingles, kept.Shingles)
	return Likeness{
		Similarity:   similarity(m.fingerprint(), kept.Simhash, kept.Words, kept.Shingles),
		Coverage:     mInK,
		KeptCoverage: kInM,
	}
}

// isHead checks that article id exists and heads its cluster.
func (s *Service) isHead(ctx context.Context, r Reader, id int64) error {
	a, err := r.Article(ctx, id)
	switch {
	case errors.Is(err, ErrNotFound):
		return noCluster(id)
	case err != nil:
		return err
	case a.ClusterID != id:
		return &Error{Kind: KindNotFound, Message: "no such cluster: article " + itoa(id) + " is a member of cluster " + itoa(a.ClusterID)}
	}
	return nil
}

func noCluster(id int64) error {
	return &Error{Kind: KindNotFound, Message: "no such cluster: no article " + itoa(id)}
}

// ClusterQuery asks for a page of the clusters of two or more articles,
// newest first (by their heads' publication time, then id).
type ClusterQuery struct {
	Source           string      // a member from this source; "" for any
	SourcePrefix     string      // a member from a source that begins with this, without case; "" for any
	Sources          []string    // a member from one of these sources (SourcePrefix resolved); nil for any
	From, To         time.Time   // the head published at or after From and before To; zero for no bound
	Status           Status      // a member with this verdict; "" for any
	MinSize, MaxSize int         // 0 for no bound
	Sort             ClusterSort // "" is SortPublished
	Limit            int         // 1 to MaxClusterPage
	// After is where the previous page ended: the clusters after it.
	After *ClusterCursor
}

// ClusterCursor is a place in the list of clusters, in its order.
type ClusterCursor struct {
	Sort         ClusterSort // "" is SortPublished
	PublishedAt  time.Time   // SortPublished's key
	Size         int         // SortSize's
	LastIngested time.Time   // SortLatest's
	ID           int64
}

// MaxClusterPage is the most clusters one page of the list holds.
const MaxClusterPage = 200

// MaxClusterSize is the largest size the list of clusters filters by: the
// database counts a cluster's members in a 32-bit integer.
const MaxClusterSize = math.MaxInt32

// cursorKeyName names the key of the list's cursors in the SecretStore.
const cursorKeyName = "cluster_cursor"

// CursorKey returns the key that signs the cursors of the list of clusters
// (32 random bytes). It is made once and stored in the database, so that
// every instance on it accepts the others' cursors and a restart breaks no
// client's paging; it is read once a process.
func (s *Service) CursorKey(ctx context.Context) ([]byte, error) {
	if k := s.editorial.cursorKey.Load(); k != nil {
		return *k, nil
	}
	fresh := make([]byte, 32)
	rand.Read(fresh) // never fails (crypto/rand)
	k, err := s.store.Secret(ctx, cursorKeyName, fresh)
	if err != nil {
		return nil, err
	}
	s.editorial.cursorKey.Store(&k)
	return k, nil
}

// ClusterSummary is a cluster as the list shows it.
type ClusterSummary struct {
	ClusterRow
	Kept       Kept
	KeptMember KeepCandidate
}

// ClusterPage is a page of the list of clusters.
type ClusterPage struct {
	Clusters []ClusterSummary
	Next     *ClusterCursor // nil on the last page
}

// Clusters returns a page of the clusters of two or more articles, each
// with its kept member. KindInvalid for a query out of range.
func (s *Service) Clusters(ctx context.Context, q ClusterQuery) (ClusterPage, error) {
	if err := q.validate(); err != nil {
		return ClusterPage{}, err
	}
	err := s.ensureKeepPolicy(ctx)
	if err != nil {
		return ClusterPage{}, err
	}
	if q.SourcePrefix != "" {
		if q.Sources, err = s.store.Sources(ctx, q.SourcePrefix, MaxSources); err != nil || len(q.Sources) == 0 {
			return ClusterPage{}, err
		}
	}
	limit := q.Limit
	q.Limit++ // one more, to know whether a next page exists
	rows, err := s.store.ListClusters(ctx, q)
	if err != nil {
		return ClusterPage{}, err
	}
	var page ClusterPage
	if len(rows) > limit {
		rows = rows[:limit]
		last := rows[limit-1]
		page.Next = &ClusterCursor{Sort: q.Sort, PublishedAt: last.PublishedAt, Size: last.Size, LastIngested: last.LastIngested, ID: last.ID}
	}
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	candidates, err := s.store.KeepCandidates(ctx, ids)
	if err != nil {
		return ClusterPage{}, err
	}
	byCluster := map[int64][]KeepCandidate{}
	for _, c := range candidates {
		byCluster[c.ClusterID] = append(byCluster[c.ClusterID], c)
	}
	for _, r := range rows {
		members := byCluster[r.ID]
		if len(members) == 0 { // it changed between the two reads: shown as the list read it
			page.Clusters = append(page.Clusters, ClusterSummary{ClusterRow: r})
			continue
		}
		k := keep(members, s.editorial.policy)
		i := slices.IndexFunc(members, func(c KeepCandidate) bool { return c.ID == k.ID })
		page.Clusters = append(page.Clusters, ClusterSummary{ClusterRow: r, Kept: k, KeptMember: members[i]})
	}
	return page, nil
}

func (q *ClusterQuery) validate() error {
	switch {
	case q.Limit < 1 || q.Limit > MaxClusterPage:
		return Invalid("limit", "must be between 1 and %d, not %d", MaxClusterPage, q.Limit)
	case q.MinSize < 0 || q.MinSize > MaxClusterSize:
		return Invalid("min_size", "must be from 0 to %d, not %d", MaxClusterSize, q.MinSize)
	case q.MaxSize < 0 || q.MaxSize > MaxClusterSize:
		return Invalid("max_size", "must be from 0 to %d, not %d", MaxClusterSize, q.MaxSize)
	case q.MaxSize > 0 && q.MaxSize < q.MinSize:
		return Invalid("max_size", "must not be below min_size (%d)", q.MinSize)
	case !q.From.IsZero() && !q.To.IsZero() && !q.From.Before(q.To):
		return Invalid("to", "must be after from")
	}
	if err := q.validateOrder(); err != nil {
		return err
	}
	if q.Status != "" && !knownStatus(q.Status) {
		return Invalid("status", "%q is not a verdict: unique, near_duplicate, exact_duplicate or partial_duplicate", q.Status)
	}
	if err := checkStrings("", field{"source", q.Source}, field{"source_prefix", q.SourcePrefix}); err != nil {
		return err
	}
	if err := checkLength("source_prefix", q.SourcePrefix, MaxSourceLength); err != nil {
		return err
	}
	return checkLength("source", q.Source, MaxSourceLength)
}

// knownStatus reports a verdict the list may filter by: one of the
// service's, so that a misspelt one is refused rather than matching
// nothing.
func knownStatus(s Status) bool {
	switch s {
	case StatusUnique, StatusNearDuplicate, StatusExactDuplicate, StatusPartialDuplicate:
		return true
	}
	return false
}

// Keep records that an editor keeps article articleID in the cluster
// headed by clusterID, whatever the rule says, and returns the decision.
// KindNotFound when there is no such cluster or article, KindInvalid when
// the article is not a member of the cluster or the input is invalid.
func (s *Service) Keep(ctx context.Context, clusterID, articleID int64, in DecisionInput) (Decision, error) {
	if err := in.validate(); err != nil {
		return Decision{}, err
	}
	if err := s.ensureKeepPolicy(ctx); err != nil {
		return Decision{}, err
	}
	var d Decision
	err := s.withRetry(ctx, func(tx Tx) error {
		var locks clusterLocks
		a, err := lockMember(ctx, tx, &locks, clusterID, articleID)
		if err != nil {
			return err
		}
		d = Decision{Action: ActionKeep, ClusterID: clusterID, ArticleID: a.ID, ArticleSource: a.Source,
			ArticleExternalID: a.ExternalID, Editor: in.Editor, Note: in.Note}
		if err := tx.RecordDecision(ctx, &d); err != nil {
			return err
		}
		return tx.SetKept(ctx, clusterID, a.ID, d.ID)
	})
	return d, err
}

// ResetKept records that the cluster headed by clusterID returns to the
// keep rule: the editors' choices on its members are withdrawn.
// KindNotFound when there is no such cluster.
func (s *Service) ResetKept(ctx context.Context, clusterID int64, in DecisionInput) (Decision, error) {
	if err := in.validate(); err != nil {
		return Decision{}, err
	}
	if err := s.ensureKeepPolicy(ctx); err != nil {
		return Decision{}, err
	}
	var d Decision
	err := s.withRetry(ctx, func(tx Tx) error {
		var locks clusterLocks
		if _, err := lockMember(ctx, tx, &locks, clusterID, clusterID); err != nil {
			return err
		}
		d = Decision{Action: ActionReset, ClusterID: clusterID, Editor: in.Editor, Note: in.Note}
		if err := tx.RecordDecision(ctx, &d); err != nil {
			return err
		}
		return tx.SetKept(ctx, clusterID, 0, d.ID)
	})
	return d, err
}

// lockMember locks the cluster headed by clusterID and returns its member
// articleID as it is under the lock.
func lockMember(ctx context.Context, tx Tx, locks *clusterLocks, clusterID, articleID int64) (Article, error) {
	head, err := tx.Article(ctx, clusterID)
	switch {
	case errors.Is(err, ErrNotFound):
		return Article{}, noCluster(clusterID)
	case err != nil:
		return Article{}, err
	}
	if head, err = lockCluster(ctx, tx, locks, head.ID, head.ClusterID); err != nil {
		return Article{}, err
	}
	if head.ClusterID != clusterID {
		return Article{}, &Error{Kind: KindNotFound,
			Message: "no such cluster: article " + itoa(clusterID) + " is a member of cluster " + itoa(head.ClusterID)}
	}
	a, err := tx.Article(ctx, articleID)
	switch {
	case errors.Is(err, ErrNotFound):
		return Article{}, &Error{Kind: KindNotFound, Message: "no such article: " + itoa(articleID)}
	case err != nil:
		return Article{}, err
	case a.ClusterID != clusterID:
		return Article{}, Invalid("article_id", "article %d is not a member of cluster %d (it is in cluster %d)",
			articleID, clusterID, a.ClusterID)
	}
	return a, nil
}

// SplitPreview is what splitting an article out of its cluster would do.
type SplitPreview struct {
	Article Article
	// Moved are the articles that would go with it, itself included (for
	// a head, only itself); Rest how many members would stay.
	Moved []Article
	Rest  int
}

// PreviewSplit says what Split would do, changing nothing. Errors as
// Split's.
func (s *Service) PreviewSplit(ctx context.Context, clusterID, articleID int64) (SplitPreview, error) {
	if err := s.isHead(ctx, s.store, clusterID); err != nil {
		return SplitPreview{}, err
	}
	a, err := s.store.Article(ctx, articleID)
	switch {
	case errors.Is(err, ErrNotFound):
		return SplitPreview{}, &Error{Kind: KindNotFound, Message: "no such article: " + itoa(articleID)}
	case err != nil:
		return SplitPreview{}, err
	case a.ClusterID != clusterID:
		return SplitPreview{}, Invalid("article_id", "article %d is not a member of cluster %d (it is in cluster %d)", articleID, clusterID, a.ClusterID)
	}
	members, err := s.store.KeepCandidates(ctx, []int64{clusterID})
	if err != nil {
		return SplitPreview{}, err
	}
	if len(members) < 2 {
		return SplitPreview{}, Invalid("article_id", "article %d is the only member of its cluster: there is nothing to split it from", articleID)
	}
	ids := []int64{a.ID}
	if !a.IsCanonical() {
		if ids, err = s.store.Subtree(ctx, a.ID); err != nil {
			return SplitPreview{}, err
		}
	}
	p := SplitPreview{Article: a, Rest: len(members) - len(ids)}
	for _, id := range ids {
		m, err := s.store.Article(ctx, id)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return SplitPreview{}, err
		}
		p.Moved = append(p.Moved, m)
	}
	return p, nil
}

// SplitResult is what a split did.
type SplitResult struct {
	Decision Decision
	// ClusterID is the cluster the article heads now: its own id.
	ClusterID int64
	// Moved are the articles that went with it (its subtree, itself
	// included); for a head split out, only itself.
	Moved []int64
	// Separated is how many pairs the split separated.
	Separated int
}

// Split records that article articleID, with the articles whose links lead
// to it, is not a duplicate of the rest of the cluster headed by clusterID:
// they become a cluster of their own, headed by the article, and every one
// of them is separated from every other member, so that none is linked to
// one of those again. Splitting out the head leaves it alone, and the
// articles that linked to it are judged again without it.
//
// Errors: KindNotFound when there is no such cluster or article,
// KindInvalid when the article is not a member of the cluster, is its only
// member, or the split would separate more than MaxSplitPairs pairs.
func (s *Service) Split(ctx context.Context, clusterID, articleID int64, in DecisionInput) (SplitResult, error) {
	if err := in.validate(); err != nil {
		return SplitResult{}, err
	}
	if err := s.ensureKeepPolicy(ctx); err != nil {
		return SplitResult{}, err
	}
	var res SplitResult
	err := s.withRetry(ctx, func(tx Tx) error {
		var err error
		res, err = s.splitTx(ctx, tx, clusterID, articleID, in)
		return err
	})
	return res, err
}

func (s *Service) splitTx(ctx context.Context, tx Tx, clusterID, articleID int64, in DecisionInput) (SplitResult, error) {
	// The key's lock first, as writers take it: a re-ingest of the article
	// waits for the split, and is judged with its separations.
	a, err := tx.Article(ctx, articleID)
	if errors.Is(err, ErrNotFound) {
		return SplitResult{}, &Error{Kind: KindNotFound, Message: "no such article: " + itoa(articleID)}
	} else if err != nil {
		return SplitResult{}, err
	}
	if err := tx.Lock(ctx, []LockKey{keyLock(a.Source, a.ExternalID)}); err != nil {
		return SplitResult{}, err
	}
	var locks clusterLocks
	if a, err = lockMember(ctx, tx, &locks, clusterID, articleID); err != nil {
		return SplitResult{}, err
	}
	members, err := tx.KeepCandidates(ctx, []int64{clusterID})
	if err != nil {
		return SplitResult{}, err
	}
	if len(members) < 2 {
		return SplitResult{}, Invalid("article_id", "article %d is the only member of its cluster: there is nothing to split it from", articleID)
	}

	moved := []int64{a.ID}
	if !a.IsCanonical() {
		if moved, err = tx.Subtree(ctx, a.ID); err != nil {
			return SplitResult{}, err
		}
	}
	inMoved := make(map[int64]bool, len(moved))
	for _, id := range moved {
		inMoved[id] = true
	}
	var rest []int64
	for _, m := range members {
		if !inMoved[m.ID] {
			rest = append(rest, m.ID)
		}
	}
	if n := len(moved) * len(rest); n > MaxSplitPairs {
		return SplitResult{}, Invalid("article_id", "splitting article %d out would separate %d pairs (%d articles from %d), more than %d",
			articleID, n, len(moved), len(rest), MaxSplitPairs)
	}
	pairs := make([][2]int64, 0, len(moved)*len(rest))
	for _, x := range moved {
		for _, y := range rest {
			pairs = append(pairs, [2]int64{min(x, y), max(x, y)})
		}
	}

	d := Decision{Action: ActionSplit, ClusterID: clusterID, ArticleID: a.ID, ArticleSource: a.Source,
		ArticleExternalID: a.ExternalID, Editor: in.Editor, Note: in.Note}
	if err := tx.RecordDecision(ctx, &d); err != nil {
		return SplitResult{}, err
	}
	separated, err := tx.Separate(ctx, pairs, d.ID)
	if err != nil {
		return SplitResult{}, err
	}
	if a.IsCanonical() {
		// The head stays where it is, alone: the articles linking to it are
		// judged again, and cannot link to it (separated).
		err = s.leave(ctx, tx, &locks, a)
	} else {
		err = tx.Relink(ctx, Link{ID: a.ID, Status: StatusUnique})
	}
	if err != nil {
		return SplitResult{}, err
	}
	return SplitResult{Decision: d, ClusterID: a.ID, Moved: moved, Separated: separated}, nil
}

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

// separations are the articles an editor separated from the article
// judged: never linked to it again.
type separations map[int64]bool

// separatedFrom reads the separations of stored article id; none for 0, an
// article not stored yet.
func separatedFrom(ctx context.Context, r Reader, id int64) (separations, error) {
	if id == 0 {
		return nil, nil
	}
	ids, err := r.Separated(ctx, id)
	if err != nil || len(ids) == 0 {
		return nil, err
	}
	apart := make(separations, len(ids))
	for _, x := range ids {
		apart[x] = true
	}
	return apart, nil
}

// has reports whether article id is separated.
func (s separations) has(id int64) bool { return s[id] }

// drop removes the separated articles from candidates.
func (s separations) drop(candidates []Candidate) []Candidate {
	if len(s) == 0 {
		return candidates
	}
	return slices.DeleteFunc(candidates, func(c Candidate) bool { return s[c.ID] })
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
