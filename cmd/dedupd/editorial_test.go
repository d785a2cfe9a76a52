package main

import (
	"reflect"
	"strings"
	"testing"
)

func TestKeepSourcesConfig(t *testing.T) {
	t.Parallel()
	for v, want := range map[string][]string{
		"xinhua":                  {"xinhua"},
		" xinhua , people,, 人民网 ": {"xinhua", "people", "人民网"},
	} {
		c, err := loadConfig(envFrom(map[string]string{"DEDUP_KEEP_SOURCES": v}))
		if err != nil || !reflect.DeepEqual(c.KeepSources, want) {
			t.Errorf("DEDUP_KEEP_SOURCES=%q: %v, %v; want %v", v, c.KeepSources, err, want)
		}
		if !strings.Contains(c.String(), "keep_sources=") {
			t.Errorf("Config.String() = %s, want keep_sources", c)
		}
	}
	for v, want := range map[string]string{
		",,":                     "holds no source",
		"xinhua,xinhua":          "listed twice",
		"xinhua,a\x00b":          "NUL",
		strings.Repeat("x", 300): "at most 256",
	} {
		_, err := loadConfig(envFrom(map[string]string{"DEDUP_KEEP_SOURCES": v}))
		if err == nil || !strings.Contains(err.Error(), "DEDUP_KEEP_SOURCES: ") || !strings.Contains(err.Error(), want) {
			t.Errorf("DEDUP_KEEP_SOURCES=%q: %v, want an error naming it and saying %q", v, err, want)
		}
	}
}
