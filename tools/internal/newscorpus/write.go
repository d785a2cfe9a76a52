package newscorpus

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// WriteLines writes lines, one JSON object each, as corpus name's plain
// .jsonl file in dir, which Read reads as it reads the real one: the tests'
// way to give the tools a corpus of their own text. The real corpora are
// third parties' text and are never written anywhere.
func WriteLines[T any](dir, name string, lines []T) error {
	file, ok := Files[name]
	if !ok {
		return fmt.Errorf("no corpus named %q", name)
	}
	var b bytes.Buffer
	for _, l := range lines {
		data, err := json.Marshal(l)
		if err != nil {
			return fmt.Errorf("corpus %s: %w", name, err)
		}
		b.Write(data)
		b.WriteByte('\n')
	}
	return os.WriteFile(filepath.Join(dir, file), b.Bytes(), 0o644)
}
