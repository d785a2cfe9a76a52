package service

import (
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// CreditSide is one side of a copy as the credit rule reads it: the names
// its source goes by (creditNames), its headline and its plain text.
type CreditSide struct {
	Names []string
	Title string
	Body  string
}

// The lines that credit a source: 来源/转自 lines, 据…报道, an agency's
// dateline (新华社北京3月1日电); and the bylines that name an author.
var (
	creditLine = regexp.MustCompile(`(?:本文来源|文章来源|稿件来源|信息来源|来源|稿源|出处|转载自|转载于|转自|来自)[：:\s]*([^\n。；;，,）)】\]|]{2,40})`)
	reportLine = regexp.MustCompile(`据([^\n。；;，,]{2,30}?)(?:报道|消息|讯)`)
	datelineRe = regexp.MustCompile(`(?m)^[\s（(【]*([\p{Han}A-Za-z]{2,20}?)[\p{Han}]{0,6}\d{1,2}月\d{1,2}日电`)
	titleLine  = regexp.MustCompile(`原标题[：:\s]*([^\n]{2,200})`)
	// 文 is a byline's word only at a line's start or after a blank or a
	// bracket (文｜李立), not ending a word (叶诗文：…).
	bylineRe = regexp.MustCompile(`(?m)(?:本报记者|本台记者|本网记者|特约记者|见习记者|记者|通讯员|作者|撰文|(?:^|[ \t\x{3000}（(【])文)[：:/｜| \t\x{3000}]+([\p{Han}·]{2,4}(?:[ \t\x{3000}、，,]+[\p{Han}·]{2,4})*)`)
	// A byline line with nothing between 记者 and the names (新华社记者王浩明、
	// 丁文娴): read only when the names end the line, as in a running text
	// 记者了解到 would be a name.
	bylineLineRe = regexp.MustCompile(`(?m)^[ \t\x{3000}（(]*[\p{Han}]{0,8}(?:记者|通讯员)([\p{Han}·]{2,4}(?:[ \t\x{3000}、，,]+[\p{Han}·]{2,4})*)[ \t\x{3000}）)]*$`)
)

// ClassifyCredit says how copy credits original: credited when a credit
// line names the original's source (or a source the original itself
// credits), a byline names its author, or 原标题 names its headline;
// credits_other when a credit line names another source than the copy's
// own; uncredited otherwise — no credit, or the original's byline and
// credit removed. A promotion line or the copy's own byline credits no one.
func ClassifyCredit(original, copy CreditSide) Credit {
	own := slices.Concat(original.Names, sourceCredits(original.Body))
	authors := bylineNames(original.Body)

	for _, m := range sourceCredits(copy.Body) {
		if namesAny(m, own) {
			return CreditCredited
		}
	}
	for _, a := range bylineNames(copy.Body) {
		if namesAny(a, authors) {
			return CreditCredited
		}
	}
	if t := strings.TrimSpace(original.Title); t != "" {
		for _, m := range titleLine.FindAllStringSubmatch(copy.Body, -1) {
			if strings.Contains(m[1], t) {
				return CreditCredited
			}
		}
	}
	for _, m := range sourceCredits(copy.Body) {
		if !namesAny(m, copy.Names) {
			return CreditCreditsOther
		}
	}
	return CreditUncredited
}

// sourceCredits are the sources body's credit lines name.
func sourceCredits(body string) []string {
	var out []string
	for _, re := range []*regexp.Regexp{creditLine, reportLine, datelineRe} {
		for _, m := range re.FindAllStringSubmatch(body, -1) {
			if s := strings.TrimSpace(m[1]); s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}

// bylineNames are the authors body's bylines name, one name each.
func bylineNames(body string) []string {
	var out []string
	for _, m := range slices.Concat(bylineRe.FindAllStringSubmatch(body, -1), bylineLineRe.FindAllStringSubmatch(body, -1)) {
		out = append(out, strings.FieldsFunc(m[1], func(r rune) bool {
			return r == ' ' || r == '、' || r == '，' || r == ',' || r == '\t' || r == '\u3000'
		})...)
	}
	return out
}

// namesAny reports whether mention names one of names: holds it, or is
// held by it, ignoring case; names of fewer than two characters never match.
func namesAny(mention string, names []string) bool {
	m := strings.ToLower(mention)
	for _, n := range names {
		n = strings.ToLower(strings.TrimSpace(n))
		if utf8.RuneCountInString(n) < 2 {
			continue
		}
		if strings.Contains(m, n) || (utf8.RuneCountInString(m) >= 2 && strings.Contains(n, m)) {
			return true
		}
	}
	return false
}
