package service

import (
	"context"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// What changed between two texts, for an editor: the insertions and
// deletions that turn one into the other (sergi/go-diff, Myers' algorithm
// with its semantic cleanup), and a summary of them (summary.go).
//
// The unit of the diff is a token: a run of letters or digits of an
// alphabetic script (an English word, a number) or any other single
// character (a Chinese character, a punctuation mark). Chinese is diffed by
// characters: after the cleanup the changes fall on words and sentences
// anyway, and no segmenter is needed to show them.

// diffTimeout bounds the search for the shortest diff of two long texts
// that share little: past it the diff stays correct but may be longer than
// the shortest one. It is each diff's budget from its first step: the steps
// go-diff takes before it applies its own timeout (an index search and a
// search for a half match, each quadratic) only ever see sequences of at
// most maxDirectTokens (below).
const diffTimeout = 150 * time.Millisecond

// MaxDiffRunes is how much of each text a diff compares past the start the
// two share: a longer text is diffed in its first MaxDiffRunes characters
// from there, and the diff says it was truncated. A news article is a few
// thousand characters; a compilation of two million would cost its page
// megabytes of marks that say nothing an editor can read.
const MaxDiffRunes = 20000

// Where a diff cuts the work it hands go-diff, in tokens: sequences of at
// most maxDirectTokens are diffed as they are; longer ones by units (runs
// of tokens up to a sentence's end, at least minUnitTokens and at most
// maxUnitTokens long), then the units that changed by tokens when they are
// short enough. So go-diff sees at most MaxDiffRunes/minUnitTokens
// (maxDirectTokens) units, or maxDirectTokens tokens, at once: its
// quadratic steps cost a few milliseconds whatever the texts
// (docs/measurements.md, issue 44).
const (
	maxDirectTokens = 2000
	minUnitTokens   = MaxDiffRunes / maxDirectTokens
	maxUnitTokens   = 64
)

// Diff returns the runs that turn from into to: the runs that are not
// DiffInsert spell from, those not DiffDelete spell to, or their starts
// (DiffWithin).
func Diff(from, to string) []DiffRun {
	d, _ := DiffWithin(context.Background(), from, to)
	return d.Runs
}

// DiffWithin diffs from into to within diffTimeout and ctx's deadline: past
// either, what is left of the texts is shown deleted and inserted whole.
// It returns ctx's error once ctx is done.
func DiffWithin(ctx context.Context, from, to string) (TextDiff, error) {
	return diffWithin(ctx, from, to, true)
}

// diffWithin is DiffWithin; without ends, the texts are starts of longer
// ones (diffHeads) and the end they seem to share is not looked for.
func diffWithin(ctx context.Context, from, to string, ends bool) (TextDiff, error) {
	if err := ctx.Err(); err != nil {
		return TextDiff{}, err
	}
	if from == to && ends {
		if from == "" {
			return TextDiff{}, nil
		}
		return TextDiff{Runs: []DiffRun{{Kind: DiffEqual, Text: from}}}, nil
	}
	deadline := time.Now().Add(diffTimeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	prefix, suffix := sharedEnds(from, to)
	if !ends {
		suffix = 0
	}
	midFrom, midTo := from[prefix:len(from)-suffix], to[prefix:len(to)-suffix]
	var d TextDiff
	windowFrom, cutFrom := firstRunes(midFrom, MaxDiffRunes)
	windowTo, cutTo := firstRunes(midTo, MaxDiffRunes)
	if d.Truncated = cutFrom || cutTo; d.Truncated {
		d.FromRest = utf8.RuneCountInString(midFrom[len(windowFrom):])
		d.ToRest = utf8.RuneCountInString(midTo[len(windowTo):])
		d.SharedEnd = utf8.RuneCountInString(from[len(from)-suffix:])
	}
	midFrom, midTo = windowFrom, windowTo
	tokens := tokenTable{index: map[string]rune{}}
	w := differ{ctx: ctx, deadline: deadline, tokens: &tokens}
	runs, err := w.diff(tokens.encode(midFrom), tokens.encode(midTo))
	if err != nil {
		return TextDiff{}, err
	}
	var inner []DiffRun
	for _, r := range runs {
		inner = appendRun(inner, r.Kind, r.Text)
	}
	d.Runs = startWith(from[:prefix], inner)
	if !d.Truncated {
		d.Runs = endWith(d.Runs, from[len(from)-suffix:])
	}
	return d, nil
}

// startWith puts the start the texts share before runs. A change just
// after it that ends as it does is moved to the very start, as go-diff's
// cleanup would have had it seen the whole: a copy that drops a byline
// (本报记者…) before a text that begins with the same character (本市…)
// begins with the deletion of the byline, not with that character.
func startWith(start string, runs []DiffRun) []DiffRun {
	out := make([]DiffRun, 0, len(runs)+1)
	if start == "" || len(runs) == 0 || runs[0].Kind == DiffEqual || (len(runs) > 1 && runs[1].Kind != DiffEqual) ||
		!strings.HasSuffix(runs[0].Text, start) {
		out = appendRun(out, DiffEqual, start)
		for _, r := range runs {
			out = appendRun(out, r.Kind, r.Text)
		}
		return out
	}
	first := runs[0]
	out = append(out, DiffRun{Kind: first.Kind, Text: start + first.Text[:len(first.Text)-len(start)]})
	out = appendRun(out, DiffEqual, start)
	for _, r := range runs[1:] {
		out = appendRun(out, r.Kind, r.Text)
	}
	return out
}

// endWith appends the end the texts share to runs. A change just before it
// that begins as it does is moved to the very end, as go-diff's cleanup
// would have had it seen the whole: a copy that stops early, or adds a
// line, ends with a deletion or an insertion, not with the full stop both
// texts end with.
func endWith(runs []DiffRun, end string) []DiffRun {
	n := len(runs)
	if end == "" || n == 0 || runs[n-1].Kind == DiffEqual || (n > 1 && runs[n-2].Kind != DiffEqual) ||
		!strings.HasPrefix(runs[n-1].Text, end) {
		return appendRun(runs, DiffEqual, end)
	}
	last := runs[n-1]
	runs = runs[:n-1]
	runs = appendRun(runs, DiffEqual, end)
	return append(runs, DiffRun{Kind: last.Kind, Text: last.Text[len(end):] + end})
}

// Differ compares a copy (toTitle, toBody) with its original (fromTitle,
// fromBody), texts as a reader sees them.
func Differ(fromTitle, fromBody, toTitle, toBody string) Difference {
	d, _ := DiffWithin(context.Background(), fromBody, toBody)
	return summarize(headlineChanged(fromTitle, toTitle), d)
}

// appendRun appends a run of text, joined to the last when of its kind.
func appendRun(runs []DiffRun, kind DiffKind, text string) []DiffRun {
	if text == "" {
		return runs
	}
	if n := len(runs); n > 0 && runs[n-1].Kind == kind {
		runs[n-1].Text += text
		return runs
	}
	return append(runs, DiffRun{Kind: kind, Text: text})
}

// sharedEnds returns the lengths in bytes of the start and the end that a
// and b share, each cut at a token's edge and not overlapping: found in one
// pass, before any diff, whatever the texts' lengths.
func sharedEnds(a, b string) (prefix, suffix int) {
	n := min(len(a), len(b))
	for prefix < n && a[prefix] == b[prefix] {
		prefix++
	}
	for { // an edge of a token in both texts
		p := tokenEdgeBefore(b, tokenEdgeBefore(a, prefix))
		if p == prefix {
			break
		}
		prefix = p
	}
	for suffix < n-prefix && a[len(a)-1-suffix] == b[len(b)-1-suffix] {
		suffix++
	}
	for {
		s := len(a) - tokenEdgeAfter(a, len(a)-suffix)
		s = len(b) - tokenEdgeAfter(b, len(b)-s)
		if s == suffix {
			break
		}
		suffix = s
	}
	return prefix, suffix
}

// tokenEdgeBefore returns the last edge of a token of s at or before i.
func tokenEdgeBefore(s string, i int) int {
	for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
		i--
	}
	for i > 0 && i < len(s) {
		before, _ := utf8.DecodeLastRuneInString(s[:i])
		at, _ := utf8.DecodeRuneInString(s[i:])
		if !wordRune(before) || !wordRune(at) {
			break
		}
		i -= utf8.RuneLen(before)
	}
	return i
}

// tokenEdgeAfter returns the first edge of a token of s at or after i.
func tokenEdgeAfter(s string, i int) int {
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	for i > 0 && i < len(s) {
		before, _ := utf8.DecodeLastRuneInString(s[:i])
		at, size := utf8.DecodeRuneInString(s[i:])
		if !wordRune(before) || !wordRune(at) {
			break
		}
		i += size
	}
	return i
}

// firstRunes returns s's first n characters, and whether s was longer.
func firstRunes(s string, n int) (string, bool) {
	for i := range s {
		if n == 0 {
			return s[:i], true
		}
		n--
	}
	return s, false
}

// differ diffs token sequences within a deadline and a context.
type differ struct {
	ctx      context.Context
	deadline time.Time
	tokens   *tokenTable
}

// diff diffs two token sequences: as they are when short, by units first
// when long.
func (w *differ) diff(a, b []rune) ([]DiffRun, error) {
	if len(a) <= maxDirectTokens && len(b) <= maxDirectTokens {
		return w.direct(a, b, true)
	}
	units := tokenTable{index: map[string]rune{}}
	ua, pa := splitUnits(a, w.tokens, &units)
	ub, pb := splitUnits(b, w.tokens, &units)
	unitRuns, err := w.direct(ua, ub, false)
	if err != nil {
		return nil, err
	}
	// Each run of units as the tokens it holds; a change (units deleted,
	// inserted) diffed again by tokens when short enough and time is left.
	var out []DiffRun
	var del, ins []rune
	i, j := 0, 0
	flush := func() error {
		if len(del) == 0 && len(ins) == 0 {
			return nil
		}
		var runs []DiffRun
		if len(del) <= maxDirectTokens && len(ins) <= maxDirectTokens && time.Now().Before(w.deadline) {
			var err error
			if runs, err = w.direct(del, ins, true); err != nil {
				return err
			}
		} else {
			runs = []DiffRun{{Kind: DiffDelete, Text: w.tokens.decode(string(del))}, {Kind: DiffInsert, Text: w.tokens.decode(string(ins))}}
		}
		for _, r := range runs {
			out = appendRun(out, r.Kind, r.Text)
		}
		del, ins = del[:0], ins[:0]
		return nil
	}
	for _, r := range unitRuns {
		n := utf8.RuneCountInString(r.Text)
		switch r.Kind {
		case DiffEqual:
			if err := flush(); err != nil {
				return nil, err
			}
			out = appendRun(out, DiffEqual, w.tokens.decode(string(a[pa[i]:pa[i+n]])))
			i, j = i+n, j+n
		case DiffDelete:
			del = append(del, a[pa[i]:pa[i+n]]...)
			i += n
		case DiffInsert:
			ins = append(ins, b[pb[j]:pb[j+n]]...)
			j += n
		}
	}
	return out, flush()
}

// direct diffs two sequences of at most maxDirectTokens with go-diff, with
// its semantic cleanup when they are tokens; the runs' texts are decoded
// tokens for tokens, unit codes for units.
func (w *differ) direct(a, b []rune, tokens bool) ([]DiffRun, error) {
	if err := w.ctx.Err(); err != nil {
		return nil, err
	}
	var diffs []diffmatchpatch.Diff
	left := time.Until(w.deadline)
	if left <= 0 { // out of time: deleted and inserted whole
		diffs = []diffmatchpatch.Diff{{Type: diffmatchpatch.DiffDelete, Text: string(a)}, {Type: diffmatchpatch.DiffInsert, Text: string(b)}}
	} else {
		dmp := diffmatchpatch.New()
		dmp.DiffTimeout = left
		diffs = dmp.DiffMainRunes(a, b, false)
		if tokens {
			diffs = dmp.DiffCleanupSemantic(diffs)
		}
	}
	var out []DiffRun
	for _, d := range diffs {
		text := d.Text
		if tokens {
			text = w.tokens.decode(text)
		}
		kind := DiffEqual
		switch d.Type {
		case diffmatchpatch.DiffInsert:
			kind = DiffInsert
		case diffmatchpatch.DiffDelete:
			kind = DiffDelete
		}
		out = appendRun(out, kind, text)
	}
	return out, nil
}

// splitUnits cuts a token sequence into units: each ends after a token
// that ends a sentence or a line once it is minUnitTokens long, or at
// maxUnitTokens. It returns each unit as a character of units' table and
// where each unit starts in seq (with len(seq) last), so that a diff of
// units reads as runs of units.
func splitUnits(seq []rune, tokens, units *tokenTable) ([]rune, []int) {
	var codes []rune
	starts := []int{0}
	start := 0
	for i, r := range seq {
		n := i + 1 - start
		if n < maxUnitTokens && (n < minUnitTokens || !endsSentence(tokens.token(r))) && i+1 < len(seq) {
			continue
		}
		codes = append(codes, units.code(string(seq[start:i+1])))
		start = i + 1
		starts = append(starts, start)
	}
	return codes, starts
}

// endsSentence reports a token after which a sentence or a line ends.
func endsSentence(tok string) bool {
	switch tok {
	case "。", "！", "？", "；", "!", "?", ";", ".", "\n", "…":
		return true
	}
	return false
}

// tokenTable maps each token of the texts diffed to a character of
// Unicode's supplementary private use area, so that the diff compares
// tokens as characters; decode maps them back.
type tokenTable struct {
	index  map[string]rune
	tokens []string
}

// firstToken is the first character tokens are mapped to (plane 15, private
// use: 65,534 characters, and plane 16's after it).
const firstToken = 0xF0000

func (t *tokenTable) encode(text string) []rune {
	var out []rune
	for len(text) > 0 {
		n := tokenLength(text)
		out = append(out, t.code(text[:n]))
		text = text[n:]
	}
	return out
}

// code returns tok's character, given it when tok is new.
func (t *tokenTable) code(tok string) rune {
	r, ok := t.index[tok]
	if !ok {
		r = rune(firstToken + len(t.tokens))
		if r > unicode.MaxRune {
			return unicode.ReplacementChar // beyond 131,068 distinct tokens: an unlikely text, diffed coarsely
		}
		t.index[tok] = r
		t.tokens = append(t.tokens, tok)
	}
	return r
}

// token returns the token of character r; "" for none.
func (t *tokenTable) token(r rune) string {
	if i := int(r) - firstToken; i >= 0 && i < len(t.tokens) {
		return t.tokens[i]
	}
	return ""
}

func (t *tokenTable) decode(s string) string {
	var b strings.Builder
	for _, r := range s {
		if i := int(r) - firstToken; i >= 0 && i < len(t.tokens) {
			b.WriteString(t.tokens[i])
		}
	}
	return b.String()
}

// tokenLength is the length in bytes of text's first token: a run of
// letters and digits outside the Han script, or one character.
func tokenLength(text string) int {
	n := 0
	for n < len(text) {
		r, size := utf8.DecodeRuneInString(text[n:])
		if !wordRune(r) {
			break
		}
		n += size
	}
	if n == 0 {
		_, n = utf8.DecodeRuneInString(text)
	}
	return n
}

func wordRune(r rune) bool {
	return (unicode.IsLetter(r) || unicode.IsDigit(r)) && !unicode.Is(unicode.Han, r) &&
		!unicode.In(r, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}
