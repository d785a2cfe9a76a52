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
	jieba *gojieba.Jieba
	// words holds what the tables say of every word they know, so that a
	// word the segmenter finds is looked up once.
	words     *wordTable
	meanIDF   float64
	closeOnce sync.Once
}

// wordFacts is what the tables say of a word.
type wordFacts struct {
	idf    float64 // its inverse document frequency, when hasIDF
	hasIDF bool
	stop   bool // a stop word, which does not count
	// pos is what cppjieba's tagger would say of it, had it tagged it:
	// posContent or posOther for a word of the segmenter's dictionaries
	// with a part of speech, posUnknown for another, which the tagger's
	// special rule decides (isContent).
	pos int8
}

const (
	posUnknown int8 = iota
	posContent
	posOther
)

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
	content, err := readContentWords(paths[0], paths[2])
	if err != nil {
		return nil, err
	}
	words := make(map[string]wordFacts, len(content)+len(idf)/4)
	for w, c := range content {
		f := words[w]
		f.pos = posOther
		if c {
			f.pos = posContent
		}
		words[w] = f
	}
	for w, v := range idf {
		f := words[w]
		f.idf, f.hasIDF = v, true
		words[w] = f
	}
	for w := range stopWords {
		f := words[w]
		f.stop = true
		words[w] = f
	}
	table, ok := newWordTable(words, nil)
	if !ok {
		return nil, fmt.Errorf("load dictionary: %d words of more than 4 GiB together, too long to index", len(words))
	}
	return &Dictionary{
		jieba:   gojieba.NewJieba(paths...),
		words:   table,
		meanIDF: meanIDF,
	}, nil
}

// Close frees the segmenter's C memory. The Dictionary must not be used after.
func (d *Dictionary) Close() {
	d.closeOnce.Do(d.jieba.Free)
}

// IDF returns the inverse document frequency of word, or the mean IDF of the
// table when the table does not know the word.
func (d *Dictionary) IDF(word string) float64 {
	return d.idfOf(d.words.facts(word))
}

func (d *Dictionary) idfOf(f wordFacts) float64 {
	if f.hasIDF {
		return f.idf
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
	return countable(w) && !d.words.facts(w).stop
}

// countable reports whether a segment may be a word: not a separator, not a
// single rune (a letter, a digit, a particle).
func countable(w string) bool {
	if w == " " || w == "" {
		return false
	}
	_, size := utf8.DecodeRuneInString(w)
	return size < len(w)
}

// readContentWords reads the part of speech of every word of the main and
// the user dictionary, as cppjieba's trie holds them: the main dictionary's
// lines are "word freq tag", the user dictionary's "word", "word tag" or
// "word freq tag", and a later line for a word replaces an earlier one.
func readContentWords(mainDict, userDict string) (map[string]bool, error) {
	content := make(map[string]bool, 360_000)
	for _, path := range []string{mainDict, userDict} {
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("load parts of speech: %w", err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			tag := ""
			switch len(fields) {
			case 0:
				continue
			case 2:
				tag = fields[1]
			case 3:
				tag = fields[2]
			}
			if tag == "" {
				delete(content, fields[0]) // no tag: the tagger's special rule decides
				continue
			}
			content[fields[0]] = contentPOS(tag)
		}
		err = sc.Err()
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("load parts of speech: %w", err)
		}
	}
	return content, nil
}

// isContent reports whether a word the segmenter found carries content, as
// cppjieba's tagger would tag it: a word of the dictionaries by its part of
// speech, any other by the tagger's special rule (no ASCII letter or digit:
// x; only ASCII digits among them: m, a numeral; else eng, a foreign word).
func (d *Dictionary) isContent(word string) bool {
	return isContent(word, d.words.facts(word))
}

func isContent(word string, f wordFacts) bool {
	switch f.pos {
	case posContent:
		return true
	case posOther:
		return false
	}
	runes := []rune(word)
	ascii, digits := 0, 0
	for i := 0; i < len(runes) && ascii < len(runes)/2; i++ {
		if runes[i] < utf8.RuneSelf {
			ascii++
			if '0' <= runes[i] && runes[i] <= '9' {
				digits++
			}
		}
	}
	return ascii > 0 // m and eng carry content, x does not
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
