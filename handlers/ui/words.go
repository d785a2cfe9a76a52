package ui

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/newsdedup/newsdedup/service"
)

// What the page says of the service's values in the editors' language:
// the keep rule's reasons from their figures (service.KeepFacts), the rule
// itself, the notice after a decision, and errors — by their kind and
// field, since the service's own messages are English for the API.

// keepReason says why a member is kept.
func (l *locale) keepReason(k service.Kept) (string, error) {
	f := k.Facts
	prefix := ""
	if f.Source != "" && k.Rule != service.KeepBySource && k.Rule != service.KeepByEditor {
		var err error
		if prefix, err = l.t("reason.prefix", "Count", f.AtSource, "Source", f.Source); err != nil {
			return "", err
		}
	}
	var s string
	var err error
	switch k.Rule {
	case service.KeepByEditor:
		if k.By == nil {
			return l.t("reason.editor.unknown")
		}
		s, err = l.t("reason.editor", "Editor", k.By.Editor, "When", l.when(k.By.DecidedAt), "Zone", l.ZoneName())
	case service.KeepOnlyMember:
		s, err = l.t("reason.only")
	case service.KeepBySource:
		s, err = l.t("reason.source", "Source", f.Source, "Rank", f.Rank, "Count", f.Ranked)
	case service.KeepByLength:
		s, err = l.t("reason.length", "Held", f.Held, "Next", f.NextHeld)
	case service.KeepEarliest:
		s, err = l.t("reason.earliest", "When", l.when(f.Published), "Zone", l.ZoneName(), "Count", f.Complete,
			"Tolerance", f.TolerancePercent, "Held", f.Held)
	default:
		return k.Reason, nil
	}
	if err != nil {
		return "", err
	}
	if f.SetAside > 0 && (k.Rule == service.KeepByLength || k.Rule == service.KeepEarliest) {
		aside, err := l.t("reason.aside", "Count", f.SetAside)
		if err != nil {
			return "", err
		}
		s += aside
	}
	return prefix + s, nil
}

// policy says the keep rule in a sentence.
func (l *locale) policy(p service.KeepPolicy) (string, error) {
	if len(p.Sources) == 0 {
		return l.t("policy.nosources", "Tolerance", service.KeepLengthTolerancePercent)
	}
	return l.t("policy.sources", "Sources", strings.Join(p.Sources, l.must("list.sep")), "Tolerance", service.KeepLengthTolerancePercent)
}

// decisionNotice says what decision d did, in one sentence.
func (l *locale) decisionNotice(d service.Decision) string {
	switch d.Action {
	case service.ActionKeep:
		return l.must("notice.keep", "Article", d.ArticleID)
	case service.ActionReset:
		return l.must("notice.reset")
	case service.ActionUndoSplit:
		return l.must("notice.undo_split", "Article", d.ArticleID)
	case service.ActionSplit:
		if d.ArticleID == d.ClusterID {
			return l.must("notice.split.head", "Article", d.ArticleID)
		}
		return l.must("notice.split", "Article", d.ArticleID)
	}
	return ""
}

// errorText says what went wrong, for a page that answered status: an
// invalid field by its name (error.field.<name>), anything else by its
// status (error.<status>).
func (l *locale) errorText(err error, status int) string {
	var se *service.Error
	if errors.As(err, &se) && se.Kind == service.KindInvalid && se.Field != "" {
		if s, ferr := l.t("error.field." + se.Field); ferr == nil {
			return s
		}
		return l.must("error.field", "Field", se.Field)
	}
	if s, terr := l.t("error." + strconv.Itoa(status)); terr == nil {
		return s
	}
	if status >= http.StatusInternalServerError {
		return l.must("error.500")
	}
	return l.must("error.400")
}
