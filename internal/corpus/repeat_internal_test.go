package corpus

import (
	"strings"
	"testing"
)

func TestDropRepeat(t *testing.T) {
	var s []string
	for i := range 30 {
		s = append(s, strings.Repeat(string(rune('一'+i)), 3)+"。")
	}
	lines := []string{strings.Join(s[:15], ""), strings.Join(s[15:], "")}

	if got, dropped := dropRepeat(lines); len(got) != 2 || dropped != 0 {
		t.Errorf("dropRepeat(no repeat) = %q, %d; want the lines unchanged, 0", got, dropped)
	}
	// A few repeated sentences are a common phrase, not a repeat.
	withPhrase := append(append([]string{}, lines...), s[3]+s[4]+"新的。")
	if got, dropped := dropRepeat(withPhrase); len(got) != 3 || dropped != 0 {
		t.Errorf("dropRepeat(a short repeat) = %q, %d; want the lines unchanged, 0", got, dropped)
	}
	// The last line goes on, in its middle, by repeating sentences 5–19
	// quoted: the text is cut where the repeat starts.
	var tail []string
	for _, x := range s[5:20] {
		tail = append(tail, "“"+x+"”")
	}
	repeated := []string{lines[0], lines[1] + strings.Join(tail, "")}
	got, dropped := dropRepeat(repeated)
	if strings.Join(got, "\n") != strings.Join(lines, "\n") || dropped != 15 {
		t.Errorf("dropRepeat(a repeated tail) = %q, %d; want %q, 15", got, dropped, lines)
	}
}
