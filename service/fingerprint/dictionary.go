package fingerprint

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/yanyiwu/gojieba"
)

// The files a dictionary folder must hold, named as gojieba names them.
const (
	dictFile      = "jieba.dict.utf8"
	hmmFile       = "hmm_model.utf8"
	userDictFile  = "user.dict.utf8"
	idfFile       = "idf.utf8"
	stopWordsFile = "stop_words.utf8"
)

// DefaultDictDir returns the dictionary folder inside gojieba's module, the
// one a binary built on this machine finds by itself. A binary shipped
// elsewhere (a container image) needs the folder copied and its path given.
func DefaultDictDir() string { return gojieba.DICT_DIR }

// Dictionary holds the segmenter and the word tables the algorithms read. It
// is safe for concurrent use. Load it once per process (it takes about half a
// second and holds the dictionaries in C memory) and Close it at shutdown.
type Dictionary struct {
	jieba     *gojieba.Jieba
	idf       map[string]float64
	meanIDF   float64
	stopWords map[string]struct{}
	closeOnce sync.Once
}

// Load reads the jieba dictionaries in dir and the English stop words built
// into this package. It returns an error naming the first missing or
// malformed file; gojieba itself would panic.
func Load(dir string) (*Dictionary, error) {
	paths := make([]string, 0, 5)
	for _, name := range []string{dictFile, hmmFile, userDictFile, idfFile, stopWordsFile} {
		p := filepath.Join(dir, name)
		if _, err := os.Stat(p); err != nil {
			return nil, fmt.Errorf("load dictionary: %w", err)
		}
		paths = append(paths, p)
	}
	idf, meanIDF, err := readIDF(paths[3])
	if err != nil {
		return nil, err
	}
	stopWords, err := readStopWords(paths[4])
	if err != nil {
		return nil, err
	}
	for _, w := range englishStopWords {
		stopWords[w] = struct{}{}
	}
	return &Dictionary{
		jieba:     gojieba.NewJieba(paths...),
		idf:       idf,
		meanIDF:   meanIDF,
		stopWords: stopWords,
	}, nil
}

// Close frees the segmenter's C memory. The Dictionary must not be used after.
func (d *Dictionary) Close() {
	d.closeOnce.Do(d.jieba.Free)
}

// IDF returns the inverse document frequency of word, or the mean IDF of the
// table when the table does not know the word.
func (d *Dictionary) IDF(word string) float64 {
	if v, ok := d.idf[word]; ok {
		return v
	}
	return d.meanIDF
}

// segmentChunkBytes is how much normalised text goes to cppjieba at once.
// cppjieba segments each run between spaces on its own, so cutting at a
// space changes no word; between chunks the caller's deadline is checked,
// and the words of one chunk are all that is held at a time.
const segmentChunkBytes = 64 << 10

// countWords segments normalised text and adds weight to counts for every
// word that counts: not a separator, not a single rune, not a stop word,
// and as rules say. It returns how many words it counted, or ctx's error
// once ctx is done.
func (d *Dictionary) countWords(ctx context.Context, text string, weight float64, rules wordRules, counts map[string]float64) (int, error) {
	return d.countWordsIn(ctx, text, weight, rules, counts, segmentChunkBytes)
}

// countWordsIn is countWords with chunks of at most chunkBytes.
func (d *Dictionary) countWordsIn(ctx context.Context, text string, weight float64, rules wordRules, counts map[string]float64, chunkBytes int) (int, error) {
	n := 0
	count := func(w string) {
		if d.counts(w) && !(rules.dropNumbers && isNumber(w)) {
			counts[w] += weight
			n++
		}
	}
	for text != "" {
		if err := ctx.Err(); err != nil {
			return n, err
		}
		chunk := nextChunk(text, chunkBytes)
		text = strings.TrimPrefix(text[len(chunk):], " ")
		if rules.allScripts {
			var others []string
			chunk, others = splitScripts(chunk)
			for _, w := range others {
				count(w)
			}
		}
		for _, w := range d.jieba.Cut(chunk, true) {
			count(w)
		}
	}
	return n, nil
}

// nextChunk returns the start of text, at most max bytes, cut at its last
// space, or at a rune boundary when there is none.
func nextChunk(text string, max int) string {
	if len(text) <= max {
		return text
	}
	if cut := strings.LastIndexByte(text[:max], ' '); cut > 0 {
		return text[:cut]
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	return text[:cut]
}

// counts reports whether a segment is a word that carries meaning.
func (d *Dictionary) counts(w string) bool {
	if w == " " || w == "" {
		return false
	}
	if _, size := utf8.DecodeRuneInString(w); size == len(w) {
		return false // a single rune: a separator, a letter, a digit, a particle
	}
	_, stop := d.stopWords[w]
	return !stop
}

func readIDF(path string) (map[string]float64, float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, fmt.Errorf("load idf: %w", err)
	}
	defer f.Close()
	idf := make(map[string]float64, 260_000)
	sum := 0.0
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		word, value, ok := strings.Cut(strings.TrimSpace(sc.Text()), " ")
		if !ok {
			continue // cppjieba skips such lines too
		}
		v, err := strconv.ParseFloat(value, 64)
		if err != nil {
			return nil, 0, fmt.Errorf("load idf: %s line %d: %w", path, line, err)
		}
		idf[word] = v
		sum += v
	}
	if err := sc.Err(); err != nil {
		return nil, 0, fmt.Errorf("load idf: %w", err)
	}
	if len(idf) == 0 {
		return nil, 0, errors.New("load idf: " + path + " holds no entries")
	}
	return idf, sum / float64(len(idf)), nil
}

func readStopWords(path string) (map[string]struct{}, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load stop words: %w", err)
	}
	words := make(map[string]struct{}, 2048)
	for _, w := range strings.Split(string(data), "\n") {
		if w = strings.TrimSpace(w); w != "" {
			words[w] = struct{}{}
		}
	}
	return words, nil
}
