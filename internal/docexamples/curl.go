package docexamples

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// Request is what a curl command sends.
type Request struct {
	Method string
	Path   string // with the query
	Header http.Header
	Body   []byte
}

// ParseCurl reads one curl command as a POSIX shell and curl would: single
// and double quotes, backslashes, line continuations; the options -s, -X,
// -H, -d (or --data; @FILE reads the file, dropping its line breaks as curl
// does) and --data-binary (@FILE as it is); and one URL on the documented
// address, localhost:8080 or 127.0.0.1:8080. Anything else is an error, so
// that an example never silently sends something other than it shows.
func ParseCurl(command string, readFile func(string) ([]byte, error)) (Request, error) {
	words, err := shellWords(command)
	if err != nil {
		return Request{}, err
	}
	if len(words) == 0 || words[0] != "curl" {
		return Request{}, fmt.Errorf("not a curl command: %.40q", command)
	}
	r := Request{Header: http.Header{}}
	var hasBody bool
	arg := func(i int) (string, error) {
		if i+1 >= len(words) {
			return "", fmt.Errorf("curl: %s needs a value", words[i])
		}
		return words[i+1], nil
	}
	for i := 1; i < len(words); i++ {
		w := words[i]
		switch w {
		case "-s", "--silent":
		case "-X", "--request", "-H", "--header", "-d", "--data", "--data-binary":
			v, err := arg(i)
			if err != nil {
				return Request{}, err
			}
			i++
			switch w {
			case "-X", "--request":
				r.Method = v
			case "-H", "--header":
				name, value, ok := strings.Cut(v, ":")
				if !ok {
					return Request{}, fmt.Errorf("curl: header %q has no colon", v)
				}
				r.Header.Add(strings.TrimSpace(name), strings.TrimSpace(value))
			default:
				if hasBody {
					return Request{}, fmt.Errorf("curl: more than one body; curl would join them with &")
				}
				hasBody = true
				body := []byte(v)
				if file, ok := strings.CutPrefix(v, "@"); ok {
					if body, err = readFile(file); err != nil {
						return Request{}, fmt.Errorf("curl: %s: %w", w, err)
					}
					if w != "--data-binary" {
						body = bytes.ReplaceAll(bytes.ReplaceAll(body, []byte("\r"), nil), []byte("\n"), nil)
					}
				}
				r.Body = body
			}
		default:
			if strings.HasPrefix(w, "-") {
				return Request{}, fmt.Errorf("curl: option %s is not one the examples may use (docs/development.md)", w)
			}
			if r.Path != "" {
				return Request{}, fmt.Errorf("curl: a second URL %q", w)
			}
			if r.Path, err = documentedPath(w); err != nil {
				return Request{}, err
			}
		}
	}
	if r.Path == "" {
		return Request{}, fmt.Errorf("curl: no URL")
	}
	if r.Method == "" {
		r.Method = http.MethodGet
		if hasBody {
			r.Method = http.MethodPost
		}
	}
	if hasBody && r.Header.Get("Content-Type") == "" {
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded") // curl's default for -d
	}
	return r, nil
}

// documentedPath returns the path and query of a URL on the address make run
// serves.
func documentedPath(raw string) (string, error) {
	if !strings.Contains(raw, "://") {
		raw = "http://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("curl: URL %q: %w", raw, err)
	}
	if u.Scheme != "http" || (u.Host != "localhost:8080" && u.Host != "127.0.0.1:8080") {
		return "", fmt.Errorf("curl: URL %q is not on localhost:8080, where make run serves", raw)
	}
	if u.Path == "" {
		u.Path = "/"
	}
	return u.RequestURI(), nil
}

// shellWords splits a command as a POSIX shell does, without expansions:
// a $, a backquote, a glob or an operator outside quotes is an error.
func shellWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\':
			if i+1 < len(s) && s[i+1] == '\n' {
				i++ // a line continuation
				continue
			}
			if i+1 < len(s) {
				i++
				cur.WriteByte(s[i])
				inWord = true
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("shell: an unclosed single quote")
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				switch {
				case s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0:
					i++
					if s[i] != '\n' {
						cur.WriteByte(s[i])
					}
				case s[i] == '$' || s[i] == '`':
					return nil, fmt.Errorf("shell: an expansion in double quotes")
				default:
					cur.WriteByte(s[i])
				}
			}
			if i >= len(s) {
				return nil, fmt.Errorf("shell: an unclosed double quote")
			}
			inWord = true
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case strings.IndexByte("$`*?[|&;<>()#", c) >= 0:
			return nil, fmt.Errorf("shell: %q outside quotes, which the examples do not use", c)
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}
