package service

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Credit is how a copy credits the article it links to (rules_credit.go).
type Credit string

// The credit classes; a unique article has none ("").
const (
	CreditCredited     Credit = "credited"      // a credit line or byline names the original's source or author
	CreditCreditsOther Credit = "credits_other" // it credits a third source
	CreditUncredited   Credit = "uncredited"    // no credit, or the original's byline or credit removed
)

// SourceInfo is a known source: the owner it belongs to and the names a
// credit line uses for it (xinhua: 新华社, 新华网).
type SourceInfo struct {
	Source string
	Owner  string
	Names  []string
}

// SourceOwner is the owner of source: the one sources lists, else the part
// of its name before the first '-' (cctv-news: cctv), else the source; the
// SQL function source_owner says the same.
func SourceOwner(sources map[string]SourceInfo, source string) string {
	if s, ok := sources[source]; ok && s.Owner != "" {
		return s.Owner
	}
	if i := strings.IndexByte(source, '-'); i > 0 {
		return source[:i]
	}
	return source
}

// creditNames are the names a credit of source may use: the source, its
// owner and its listed names.
func creditNames(sources map[string]SourceInfo, source string) []string {
	names := []string{source, SourceOwner(sources, source)}
	if s, ok := sources[source]; ok {
		names = append(names, s.Names...)
	}
	return names
}

// ParseSources reads a sources file (DEDUP_SOURCES_FILE): one source a
// line, its name first, then owner=OWNER if its owner is not what
// SourceOwner makes of its name, then its names separated by commas;
// blank lines and lines starting with # are skipped:
//
//	xinhua owner=xinhua 新华社,新华网
//	bjwb 北京晚报,北晚新视觉
//
// A source listed twice, or a line with no name, is an error naming the line.
func ParseSources(r io.Reader) ([]SourceInfo, error) {
	var out []SourceInfo
	seen := map[string]bool{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if !utf8.ValidString(line) {
			return nil, fmt.Errorf("line %d: not valid UTF-8", n)
		}
		fields := strings.Fields(line)
		s := SourceInfo{Source: fields[0]}
		rest := fields[1:]
		if len(rest) > 0 && strings.HasPrefix(rest[0], "owner=") {
			s.Owner, rest = strings.TrimPrefix(rest[0], "owner="), rest[1:]
		}
		if len(s.Source) > MaxSourceLength || len(s.Owner) > MaxSourceLength {
			return nil, fmt.Errorf("line %d: a source or owner longer than %d bytes", n, MaxSourceLength)
		}
		if seen[s.Source] {
			return nil, fmt.Errorf("line %d: source %q listed twice", n, s.Source)
		}
		seen[s.Source] = true
		if s.Owner == "" {
			s.Owner = SourceOwner(nil, s.Source)
		}
		for _, name := range strings.FieldsFunc(strings.Join(rest, " "), func(r rune) bool { return r == ',' || r == '，' || r == '、' }) {
			if name = strings.TrimSpace(name); name != "" {
				s.Names = append(s.Names, name)
			}
		}
		out = append(out, s)
	}
	return out, sc.Err()
}
