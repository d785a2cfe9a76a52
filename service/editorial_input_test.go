package service

import (
	"errors"
	"testing"
)

// TestEditorNames: a name with a control character, a line separator or a
// format character (bidirectional controls, zero-width characters) is
// refused, naming editor; names of every script pass.
func TestEditorNames(t *testing.T) {
	t.Parallel()
	for _, name := range []string{
		"\u202egnp.exe",  // right-to-left override: shown as exe.png
		"王\u200b芳",       // zero-width space: looks like 王芳
		"\ufeff王芳",       // byte order mark
		"a\u2066b\u2069", // left-to-right isolate
		"a\u200fb",       // right-to-left mark
		"a\u00adb",       // soft hyphen
		"a\u2028b",       // line separator
		"a\tb", "a\x07b", "a\u0085b",
	} {
		_, err := CheckEditor(name)
		var se *Error
		if !errors.As(err, &se) || se.Kind != KindInvalid || se.Field != "editor" {
			t.Errorf("CheckEditor(%+q) = %v, want KindInvalid naming editor", name, err)
		}
	}
	for _, name := range []string{"王芳", "Ana María", "O'Brien-Smith", "محمد", "Zoë 李"} {
		if got, err := CheckEditor(" " + name + " "); err != nil || got != name {
			t.Errorf("CheckEditor(%+q) = %q, %v; want %q", name, got, err, name)
		}
	}
}

// TestNoteLineBreaks: a note keeps its line breaks, LF or CRLF, as they
// are, and refuses any other control character, naming note.
func TestNoteLineBreaks(t *testing.T) {
	t.Parallel()
	for _, note := range []string{"第一行\n第二行", "第一行\r\n第二行\r\n", "\n\n", "转载稿，另案处理"} {
		in := DecisionInput{Editor: "王芳", Note: note}
		if err := in.validate(); err != nil || in.Note != note {
			t.Errorf("a note of %+q: %v, kept as %+q; want it accepted as it is", note, err, in.Note)
		}
	}
	for _, note := range []string{"a\tb", "a\x07b", "a\rb", "a\r", "\r\r\n", "a\x7fb", "a\u0085b", "a\x1bb"} {
		in := DecisionInput{Editor: "王芳", Note: note}
		err := in.validate()
		var se *Error
		if !errors.As(err, &se) || se.Kind != KindInvalid || se.Field != "note" {
			t.Errorf("a note of %+q: %v, want KindInvalid naming note", note, err)
		}
	}
}

// TestNoteRefusesWhatNamesRefuse: every format character and separator a
// name refuses, a note refuses too, naming note.
func TestNoteRefusesWhatNamesRefuse(t *testing.T) {
	t.Parallel()
	for _, r := range []rune{'\u202e', '\u200b', '\ufeff', '\u2066', '\u200f', '\u00ad', '\u2028', '\u2029'} {
		note := "转载稿" + string(r) + "另案处理"
		if _, err := CheckEditor(note); err == nil {
			t.Fatalf("CheckEditor accepts %U: the test's characters are not ones names refuse", r)
		}
		in := DecisionInput{Editor: "王芳", Note: note}
		err := in.validate()
		var se *Error
		if !errors.As(err, &se) || se.Kind != KindInvalid || se.Field != "note" {
			t.Errorf("a note with %U: %v, want KindInvalid naming note", r, err)
		}
	}
}
