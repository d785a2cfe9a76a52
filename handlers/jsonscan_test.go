package handlers_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/newsdedup/newsdedup/handlers"
)

func TestFindLoneSurrogate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		in     string
		found  bool
		offset int
		unit   uint16
	}{
		{name: "no strings", in: `[1, 2, {"a": null}]`},
		{name: "plain text", in: `{"body":"国家统计局"}`},
		{name: "valid pair", in: `{"body":"\ud83d\ude00"}`},
		{name: "valid pair upper case", in: `{"body":"\uD83D\uDE00"}`},
		{name: "two valid pairs", in: `"\ud83d\ude00\ud83d\ude01"`},
		{name: "BMP escapes", in: `"\u4e2d\u6587\u0041"`},
		{name: "lone high", in: `{"body":"\ud800"}`, found: true, offset: 9, unit: 0xd800},
		{name: "lone high at end of string", in: `"x\udbff"`, found: true, offset: 2, unit: 0xdbff},
		{name: "lone low", in: `{"body":"\udc00"}`, found: true, offset: 9, unit: 0xdc00},
		{name: "low then high", in: `"\udc00\ud800"`, found: true, offset: 1, unit: 0xdc00},
		{name: "high then BMP escape", in: `"\ud800\u0041"`, found: true, offset: 1, unit: 0xd800},
		{name: "high then high", in: `"\ud800\ud800\udc00"`, found: true, offset: 1, unit: 0xd800},
		{name: "high then text", in: `"\ud800abc"`, found: true, offset: 1, unit: 0xd800},
		{name: "pair then lone low", in: `"\ud83d\ude00\ude00"`, found: true, offset: 13, unit: 0xde00},
		{name: "in a key", in: `{"\ud800":1}`, found: true, offset: 2, unit: 0xd800},
		{name: "escaped backslash before u", in: `"\\ud800"`},
		{name: "escaped backslash then escape", in: `"\\\ud800"`, found: true, offset: 3, unit: 0xd800},
		{name: "escaped quote keeps the string open", in: `"\"\ud800"`, found: true, offset: 3, unit: 0xd800},
		{name: "outside a string", in: `[1] \ud800`},
		{name: "after a closed string", in: `["a", "b"] "\udc00"`, found: true, offset: 12, unit: 0xdc00},
		{name: "truncated escape", in: `"\ud8`},
		{name: "backslash at end", in: `"\`},
		{name: "not hex", in: `"\uzzzz\ud800"`},
		{name: "empty", in: ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			offset, unit, found := handlers.FindLoneSurrogate([]byte(tt.in))
			if found != tt.found || offset != tt.offset || unit != tt.unit {
				t.Errorf("FindLoneSurrogate(%s) = %d, %#x, %v; want %d, %#x, %v",
					tt.in, offset, unit, found, tt.offset, tt.unit, tt.found)
			}
		})
	}
}

// TestFindLoneSurrogateAgreesWithEncodingJSON checks the premise: whenever
// the scanner finds nothing in a valid JSON string, encoding/json decodes it
// without inventing a U+FFFD; and where it finds a lone surrogate,
// encoding/json would have silently replaced it.
func TestFindLoneSurrogateAgreesWithEncodingJSON(t *testing.T) {
	t.Parallel()
	units := []string{`\ud800`, `\udbff`, `\udc00`, `\udfff`, `\u0041`, `\u4e2d`, `x`, `\\`, `\"`}
	for _, a := range units {
		for _, b := range units {
			for _, c := range units {
				in := `"` + a + b + c + `"`
				var s string
				if err := json.Unmarshal([]byte(in), &s); err != nil {
					t.Fatalf("json.Unmarshal(%s) = %v", in, err)
				}
				_, _, found := handlers.FindLoneSurrogate([]byte(in))
				replaced := strings.ContainsRune(s, '\uFFFD')
				if found != replaced {
					t.Errorf("FindLoneSurrogate(%s) found = %v, but encoding/json replaced a surrogate = %v", in, found, replaced)
				}
			}
		}
	}
}
