package handlers

import "fmt"

// surrogateError reports a \u escape in a JSON string that encodes half of
// a UTF-16 surrogate pair without the other half.
type surrogateError struct {
	Offset int    // of the backslash, in bytes from the start of the body
	Unit   uint16 // the lone surrogate
}

func (e *surrogateError) Error() string {
	half := "high"
	if e.Unit >= 0xDC00 {
		half = "low"
	}
	return fmt.Sprintf("a JSON string holds a lone UTF-16 %s surrogate escape \\u%04x at byte %d: "+
		"strings must encode valid Unicode (a surrogate escape must be a high one followed by a low one)",
		half, e.Unit, e.Offset)
}

// findLoneSurrogate scans JSON text for a \u escape that is a lone UTF-16
// surrogate: a high surrogate (D800–DBFF) not followed at once by a \u escape
// of a low surrogate (DC00–DFFF), or a low surrogate not preceded by a high
// one. encoding/json silently turns such an escape into U+FFFD, which would
// store text the client did not send. It returns nil when there is none.
//
// It knows only enough JSON to tell strings from the rest (a quote opens and
// closes a string, a backslash escapes the next character inside one), and
// it uses no recursion, so any depth of nesting is fine. On malformed JSON it
// stops quietly: the decoder reports that.
func findLoneSurrogate(data []byte) *surrogateError {
	inString := false
	for i := 0; i < len(data); i++ {
		b := data[i]
		if !inString {
			if b == '"' {
				inString = true
			}
			continue
		}
		switch b {
		case '"':
			inString = false
			continue
		case '\\':
		default:
			continue
		}
		// An escape: data[i] is the backslash.
		if i+1 >= len(data) {
			return nil
		}
		if data[i+1] != 'u' {
			i++ // skip the escaped character, which may be a quote or a backslash
			continue
		}
		unit, ok := hex4(data, i+2)
		if !ok {
			return nil
		}
		switch {
		case unit >= 0xDC00 && unit <= 0xDFFF:
			return &surrogateError{Offset: i, Unit: unit}
		case unit >= 0xD800 && unit <= 0xDBFF:
			next := i + 6
			if next+1 < len(data) && data[next] == '\\' && data[next+1] == 'u' {
				if low, ok := hex4(data, next+2); ok && low >= 0xDC00 && low <= 0xDFFF {
					i = next + 5 // the pair is whole: go on after the low surrogate
					continue
				}
			}
			return &surrogateError{Offset: i, Unit: unit}
		}
		i += 5 // the u and four hex digits
	}
	return nil
}

// hex4 reads four hex digits at data[at:].
func hex4(data []byte, at int) (uint16, bool) {
	if at+4 > len(data) {
		return 0, false
	}
	var v uint16
	for _, c := range data[at : at+4] {
		var d byte
		switch {
		case '0' <= c && c <= '9':
			d = c - '0'
		case 'a' <= c && c <= 'f':
			d = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		v = v<<4 | uint16(d)
	}
	return v, true
}
