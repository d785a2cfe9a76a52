package docexamples

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
)

// A placeholder: a string a document shows for a value the server chooses.
var placeholder = regexp.MustCompile(`^<[a-z][a-z ]*>$`)

// member and object keep an object's keys in the server's order, so that
// an answer written back reads as the server sent it.
type member struct {
	key string
	val any
}
type object []member

func (o object) get(key string) (any, bool) {
	for _, m := range o {
		if m.key == key {
			return m.val, true
		}
	}
	return nil, false
}

// decode reads one JSON value: object, []any, string, json.Number, bool
// or nil.
func decode(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("more than one JSON value")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		o := object{}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			o = append(o, member{k.(string), v})
		}
		_, err := dec.Token()
		return o, err
	case json.Delim('['):
		a := []any{}
		for dec.More() {
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err := dec.Token()
		return a, err
	}
	return tok, nil
}

// Compare returns how the live answer got differs from the document's
// answer want, one line a difference, naming the field; nothing when they
// are the same JSON (key order and spacing aside), placeholders matching any
// value.
func Compare(want string, got []byte) []string {
	w, err := decode([]byte(want))
	if err != nil {
		return []string{fmt.Sprintf("the document's answer is not JSON: %v", err)}
	}
	g, err := decode(got)
	if err != nil {
		return []string{fmt.Sprintf("the answer is not JSON: %v: %.200q", err, got)}
	}
	var diffs []string
	compare("$", w, g, &diffs)
	return diffs
}

func compare(path string, want, got any, diffs *[]string) {
	if s, ok := want.(string); ok && placeholder.MatchString(s) {
		return
	}
	switch w := want.(type) {
	case object:
		g, ok := got.(object)
		if !ok {
			break
		}
		for _, m := range w {
			gv, ok := g.get(m.key)
			if !ok {
				*diffs = append(*diffs, fmt.Sprintf("%s.%s: the document shows it, the answer has no such field", path, m.key))
				continue
			}
			compare(path+"."+m.key, m.val, gv, diffs)
		}
		for _, m := range g {
			if _, ok := w.get(m.key); !ok {
				*diffs = append(*diffs, fmt.Sprintf("%s.%s: the answer has %s, the document no such field", path, m.key, render(m.val)))
			}
		}
		return
	case []any:
		g, ok := got.([]any)
		if !ok {
			break
		}
		if len(g) != len(w) {
			*diffs = append(*diffs, fmt.Sprintf("%s: the answer has %d elements, the document %d: %s", path, len(g), len(w), render(g)))
			return
		}
		var inner []string
		for i := range w {
			compare(path+"["+strconv.Itoa(i)+"]", w[i], g[i], &inner)
		}
		if len(inner) > 3 { // a reordered list: one line says it better
			inner = []string{fmt.Sprintf("%s: the answer is %s, the document says %s", path, render(g), render(w))}
		}
		*diffs = append(*diffs, inner...)
		return
	case json.Number:
		if g, ok := got.(json.Number); ok && sameNumber(w, g) {
			return
		}
	default: // string, bool, nil
		if want == got {
			return
		}
	}
	*diffs = append(*diffs, fmt.Sprintf("%s: the answer is %s, the document says %s", path, render(got), render(want)))
}

func sameNumber(a, b json.Number) bool {
	if a == b {
		return true
	}
	x, err1 := strconv.ParseFloat(string(a), 64)
	y, err2 := strconv.ParseFloat(string(b), 64)
	return err1 == nil && err2 == nil && x == y
}

// Fill returns the live answer as the document should show it: the
// server's bytes, but with the document's placeholders where the answer
// still has their field. It fails when the server's JSON cannot be written
// back byte for byte (an encoder this package does not mimic).
func Fill(documented string, live []byte) (string, error) {
	g, err := decode(live)
	if err != nil {
		return "", fmt.Errorf("the answer is not JSON: %v", err)
	}
	live = bytes.TrimSpace(live)
	if r := render(g); r != string(live) {
		return "", fmt.Errorf("the answer does not render back as the server sent it:\n%s\n%s", live, r)
	}
	w, err := decode([]byte(documented))
	if err != nil {
		return string(live), nil // the document's block was not JSON: nothing to keep
	}
	return render(fill(w, g)), nil
}

// kept is a placeholder carried into a rewritten answer, written as it is.
type kept string

func fill(want, got any) any {
	if s, ok := want.(string); ok && placeholder.MatchString(s) {
		return kept(s)
	}
	switch g := got.(type) {
	case object:
		w, ok := want.(object)
		if !ok {
			return g
		}
		out := make(object, len(g))
		for i, m := range g {
			out[i] = m
			if wv, ok := w.get(m.key); ok {
				out[i].val = fill(wv, m.val)
			}
		}
		return out
	case []any:
		w, ok := want.([]any)
		if !ok {
			return g
		}
		out := make([]any, len(g))
		for i := range g {
			out[i] = g[i]
			if i < len(w) {
				out[i] = fill(w[i], g[i])
			}
		}
		return out
	}
	return got
}

// render writes v compactly as encoding/json does (HTML characters
// escaped, as echo's encoder leaves them), keys in their order.
func render(v any) string {
	var b bytes.Buffer
	renderTo(&b, v)
	return b.String()
}

func renderTo(b *bytes.Buffer, v any) {
	switch v := v.(type) {
	case object:
		b.WriteByte('{')
		for i, m := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			k, _ := json.Marshal(m.key)
			b.Write(k)
			b.WriteByte(':')
			renderTo(b, m.val)
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			renderTo(b, e)
		}
		b.WriteByte(']')
	case kept:
		b.WriteString(`"` + string(v) + `"`)
	case json.Number:
		b.WriteString(string(v))
	default:
		s, _ := json.Marshal(v)
		b.Write(s)
	}
}

// Placeholders lists the placeholders an answer shows, sorted: what a
// reader of a test's log sees is left unchecked.
func Placeholders(answer string) []string {
	v, err := decode([]byte(answer))
	if err != nil {
		return nil
	}
	var out []string
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case object:
			for _, m := range v {
				walk(path+"."+m.key, m.val)
			}
		case []any:
			for i, e := range v {
				walk(path+"["+strconv.Itoa(i)+"]", e)
			}
		case string:
			if placeholder.MatchString(v) {
				out = append(out, path+" "+v)
			}
		}
	}
	walk("$", v)
	sort.Strings(out)
	return out
}
