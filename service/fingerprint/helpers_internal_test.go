package fingerprint

import (
	"os"
	"strings"
	"testing"
)

// dictionaryAndNovel loads the dictionary, closed when the test ends, and
// reads 围城, which ships with gojieba.
func dictionaryAndNovel(t *testing.T) (*Dictionary, []byte) {
	t.Helper()
	d, err := Load(DefaultDictDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.Close)
	novel, err := os.ReadFile(novelPathForTest())
	if err != nil {
		t.Fatal(err)
	}
	return d, novel
}

func novelPathForTest() string {
	return strings.TrimSuffix(DefaultDictDir(), "dict") + "test/testdata/weicheng.utf8"
}
