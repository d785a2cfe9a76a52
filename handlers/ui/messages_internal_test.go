package ui

import (
	"io/fs"
	"maps"
	"slices"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

// TestMessagesInEveryLanguage: every message is in both languages, with
// the plural forms its language has, and every page renders in both
// (TestLanguages in ui_test.go); a missing one fails the page.
func TestMessagesInEveryLanguage(t *testing.T) {
	t.Parallel()
	ids := map[string][]string{}
	files, err := fs.Glob(messageFiles, "messages/*.yaml")
	if err != nil || len(files) != len(languages) {
		t.Fatalf("message files %v (%v), want one for each of %v", files, err, languages)
	}
	for _, f := range files {
		b, err := messageFiles.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := yaml.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		ids[f] = slices.Sorted(maps.Keys(m))
	}
	en, zh := ids["messages/en.yaml"], ids["messages/zh-Hans.yaml"]
	for _, id := range en {
		if !slices.Contains(zh, id) {
			t.Errorf("%s is in en.yaml, not in zh-Hans.yaml", id)
		}
	}
	for _, id := range zh {
		if !slices.Contains(en, id) {
			t.Errorf("%s is in zh-Hans.yaml, not in en.yaml", id)
		}
	}
	locales, err := loadLocales(time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range locales {
		for _, id := range en {
			if _, err := l.t(id, "Count", 2); err != nil {
				t.Errorf("%s: %v", l.Lang(), err)
			}
		}
		if _, err := l.t("no.such.message"); err == nil {
			t.Errorf("%s: an unknown message = nil error", l.Lang())
		}
	}
}
