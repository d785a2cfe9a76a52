package fingerprint

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Credit lines. A line that is only a byline, a credit, an editor's line or
// the original headline (本报记者 李立 J148, 来源：…, 责任编辑：…,
// 原标题：…) says who handled a story, not what it says: two unrelated
// stories by one reporter share it, and a portal stacks two or three of
// them on top of what it copies. VersionOneScript indexes no such line as
// a sentence, and leaves those at a body's ends out of the fingerprint
// before the short lines are counted (edges.go), so that a copy with a
// stack of them keeps its original's bits.

// creditPrefixes start a credit line, in Simplified and Traditional script.
var creditPrefixes = []string{
	"来源", "來源", "本报记者", "本報記者", "本报讯", "本報訊", "记者", "記者", "通讯员", "通訊員",
	"责任编辑", "責任編輯", "责编", "責編", "编辑", "編輯", "原标题", "原標題", "原文标题", "作者",
	"校对", "校對", "审核", "審核", "监制", "監製", "主编", "主編", "撰文", "摄影", "攝影", "转载自", "轉載自",
	"文/", "文／", "图/", "圖/", "图／", "圖／", "文|", "文｜",
}

// creditLineRunes: a credit line is shorter than this (white space not
// counted); a longer line that starts so is a sentence of the story.
const creditLineRunes = 40

// isCreditLine reports whether line is only a credit: it starts, after
// white space and opening brackets, with a credit prefix, and is short.
func isCreditLine(line string) bool {
	line = strings.TrimLeftFunc(line, func(r rune) bool {
		return unicode.IsSpace(r) || isFormat(r) || strings.ContainsRune("（(【[［〔", r)
	})
	for _, p := range creditPrefixes {
		if rest, ok := strings.CutPrefix(line, p); ok {
			// Counted only for a line that starts so: most lines do not,
			// and a paragraph is long to count.
			if !fewerVisibleRunes(line, creditLineRunes) {
				return false
			}
			// A separator after the prefix, unless it ends with one: 记者从…
			// 获悉 opens a story's first sentence.
			r, _ := utf8.DecodeRuneInString(rest)
			last, _ := utf8.DecodeLastRuneInString(p)
			return rest == "" || strings.ContainsRune(creditSeparators, last) ||
				strings.ContainsRune(creditSeparators, r) || unicode.IsSpace(r)
		}
	}
	return false
}

// creditSeparators follow a credit prefix (or end one).
const creditSeparators = "：:/／|｜丨 　）)】]"

// isQuoteOpening reports whether r opens a quotation.
func isQuoteOpening(r rune) bool {
	switch r {
	case '“', '「', '『', '"', '＂', '‘', '﹁', '﹃':
		return true
	}
	return false
}

// quoteAfterColon reports whether the text after a colon opens a quotation,
// white space allowed between: 有媒体评论：“…” quotes a sentence, which is
// then indexed as the sentence it quotes.
func quoteAfterColon(rest string) bool {
	for rest != "" {
		r, n := utf8.DecodeRuneInString(rest)
		if !unicode.IsSpace(r) || r == '\n' {
			return isQuoteOpening(r)
		}
		rest = rest[n:]
	}
	return false
}
