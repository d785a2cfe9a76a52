package main

import (
	"bytes"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

func TestLoadConfigDefaults(t *testing.T) {
	t.Parallel()
	got, err := loadConfig(envFrom(nil))
	if err != nil {
		t.Fatalf("loadConfig(empty) error = %v", err)
	}
	want := Config{
		Addr:               "127.0.0.1:8080",
		UIIdleTimeout:      time.Hour,
		TimeZone:           "Asia/Shanghai",
		Options:            service.DefaultOptions,
		DictDir:            fingerprint.DefaultDictDir(),
		Algorithm:          "newsdedup",
		SentenceIndex:      true,
		MaxBodyBytes:       2 << 20,
		MaxBatchBytes:      32 << 20,
		RequestTimeout:     10 * time.Second,
		ShutdownTimeout:    30 * time.Second,
		DBMaxConns:         16,
		DBConnectTimeout:   5 * time.Second,
		DBStatementTimeout: 5 * time.Second,
		LogLevel:           slog.LevelInfo,
		LogFormat:          "text",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("loadConfig(empty) =\n%#v\nwant\n%#v", got, want)
	}
	// Blank variables take their defaults too.
	blank := map[string]string{}
	for _, v := range settings() {
		blank[v.name] = "  "
	}
	if got, err := loadConfig(envFrom(blank)); err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("loadConfig(all blank) = %#v, %v; want the defaults", got, err)
	}
}

func TestLoadConfigValues(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, value string
		check       func(Config) any // the field the variable sets (the database's: as the store gets it)
		want        any
	}{
		{"DATABASE_URL", "postgres://u:p@db:5432/news?sslmode=disable", func(c Config) any { return c.DatabaseURL }, "postgres://u:p@db:5432/news?sslmode=disable"},
		{"DATABASE_URL", "host=db user=u password=p dbname=news", func(c Config) any { return c.DatabaseURL }, "host=db user=u password=p dbname=news"},
		{"DEDUP_ADDR", "0.0.0.0:9090", func(c Config) any { return c.Addr }, "0.0.0.0:9090"},
		{"DEDUP_ADDR", ":0", func(c Config) any { return c.Addr }, ":0"},
		{"DEDUP_ADDR", "[::1]:8080", func(c Config) any { return c.Addr }, "[::1]:8080"},
		{"DEDUP_API_KEYS", "k1", func(c Config) any { return c.APIKeys }, []string{"k1"}},
		{"DEDUP_API_KEYS", " k1 , ,k2,, ", func(c Config) any { return c.APIKeys }, []string{"k1", "k2"}},
		{"DEDUP_MAX_DISTANCE", "0", func(c Config) any { return c.Options.MaxDistance }, 0},
		{"DEDUP_MAX_DISTANCE", "2", func(c Config) any { return c.Options.MaxDistance }, 2},
		{"DEDUP_MIN_WORD_RATIO", "0", func(c Config) any { return c.Options.MinWordRatio }, 0.0},
		{"DEDUP_MIN_WORD_RATIO", "0.75", func(c Config) any { return c.Options.MinWordRatio }, 0.75},
		{"DEDUP_MIN_WORD_RATIO", "1", func(c Config) any { return c.Options.MinWordRatio }, 1.0},
		{"DEDUP_WINDOW_HOURS", "0", func(c Config) any { return c.Options.Window }, time.Duration(0)},
		{"DEDUP_WINDOW_HOURS", "24", func(c Config) any { return c.Options.Window }, 24 * time.Hour},
		{"DEDUP_WINDOW_HOURS", "1.5", func(c Config) any { return c.Options.Window }, 90 * time.Minute},
		{"DEDUP_DICT_DIR", "/usr/share/newsdedup/dict", func(c Config) any { return c.DictDir }, "/usr/share/newsdedup/dict"},
		{"DEDUP_ALGORITHM", "yanyiwu", func(c Config) any { return c.Algorithm }, "yanyiwu"},
		{"DEDUP_ALGORITHM", "NewsDedup", func(c Config) any { return c.Algorithm }, "newsdedup"},
		{"DEDUP_MAX_BODY_BYTES", "1048576", func(c Config) any { return c.MaxBodyBytes }, int64(1 << 20)},
		{"DEDUP_MAX_BATCH_BYTES", "67108864", func(c Config) any { return c.MaxBatchBytes }, int64(64 << 20)},
		{"DEDUP_REQUEST_TIMEOUT", "1m30s", func(c Config) any { return c.RequestTimeout }, 90 * time.Second},
		{"DEDUP_UI_IDLE_TIMEOUT", "15m", func(c Config) any { return c.UIIdleTimeout }, 15 * time.Minute},
		{"DEDUP_TIMEZONE", "Europe/Berlin", func(c Config) any { return c.Zone().String() }, "Europe/Berlin"},
		{"DEDUP_TIMEZONE", "UTC", func(c Config) any { return c.Zone().String() }, "UTC"},
		{"DEDUP_DB_MAX_CONNS", "4", func(c Config) any { return c.storeOptions().MaxConns }, int32(4)},
		{"DEDUP_DB_SEARCH_PARTS", "1", func(c Config) any { return c.storeOptions().SearchParts }, 1},
		{"DEDUP_DB_SEARCH_PARTS", "16", func(c Config) any { return c.storeOptions().SearchParts }, 16},
		{"DEDUP_DB_CONNECT_TIMEOUT", "750ms", func(c Config) any { return c.storeOptions().ConnectTimeout }, 750 * time.Millisecond},
		{"DEDUP_DB_CONNECT_TIMEOUT", "1m", func(c Config) any { return c.storeOptions().ConnectTimeout }, time.Minute},
		{"DEDUP_DB_STATEMENT_TIMEOUT", "250ms", func(c Config) any { return c.storeOptions().StatementTimeout }, 250 * time.Millisecond},
		{"DEDUP_DB_STATEMENT_TIMEOUT", "0", func(c Config) any { return c.storeOptions().StatementTimeout }, time.Duration(0)},
		{"DEDUP_SHUTDOWN_TIMEOUT", "5s", func(c Config) any { return c.ShutdownTimeout }, 5 * time.Second},
		{"DEDUP_LOG_LEVEL", "debug", func(c Config) any { return c.LogLevel }, slog.LevelDebug},
		{"DEDUP_LOG_LEVEL", "info", func(c Config) any { return c.LogLevel }, slog.LevelInfo},
		{"DEDUP_LOG_LEVEL", "WARN", func(c Config) any { return c.LogLevel }, slog.LevelWarn},
		{"DEDUP_LOG_LEVEL", "error", func(c Config) any { return c.LogLevel }, slog.LevelError},
		{"DEDUP_LOG_FORMAT", "json", func(c Config) any { return c.LogFormat }, "json"},
		{"DEDUP_LOG_FORMAT", "text", func(c Config) any { return c.LogFormat }, "text"},
	}
	for _, tt := range tests {
		t.Run(tt.name+"="+tt.value, func(t *testing.T) {
			t.Parallel()
			c, err := loadConfig(envFrom(map[string]string{tt.name: tt.value}))
			if err != nil {
				t.Fatalf("loadConfig(%s=%q) error = %v", tt.name, tt.value, err)
			}
			if got := tt.check(c); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("loadConfig(%s=%q) sets %#v, want %#v", tt.name, tt.value, got, tt.want)
			}
		})
	}
}

func TestLoadConfigErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, value string
		want        string // in the error, besides the variable's name
	}{
		{"DATABASE_URL", "postgres://u:p@db:notaport/x", "not a valid PostgreSQL URL"},
		{"DATABASE_URL", "host=db password='unterminated", "not a valid PostgreSQL URL"},
		{"DEDUP_ADDR", "8080", "host:port"},
		{"DEDUP_ADDR", "localhost:http", "port must be a number"},
		{"DEDUP_ADDR", "localhost:70000", "port must be a number"},
		{"DEDUP_MAX_DISTANCE", "4", "from 0 to 3"},
		{"DEDUP_MAX_DISTANCE", "-1", "from 0 to 3"},
		{"DEDUP_MAX_DISTANCE", "two", "from 0 to 3"},
		{"DEDUP_MIN_WORD_RATIO", "1.5", "between 0 and 1"},
		{"DEDUP_MIN_WORD_RATIO", "-0.1", "between 0 and 1"},
		{"DEDUP_MIN_WORD_RATIO", "NaN", "a number"},
		{"DEDUP_MIN_WORD_RATIO", "half", "a number"},
		{"DEDUP_WINDOW_HOURS", "-1", "0 or more"},
		{"DEDUP_WINDOW_HOURS", "a week", "number of hours"},
		{"DEDUP_WINDOW_HOURS", "1e9", "at most"},
		{"DEDUP_ALGORITHM", "minhash", `"newsdedup" or "yanyiwu"`},
		{"DEDUP_API_KEYS", " , ", "holds no key"},
		{"DEDUP_API_KEYS", ",,,", "holds no key"},
		{"DEDUP_API_KEYS", "good-key,bad key", "key 2 of 2"},
		{"DEDUP_API_KEYS", "k\u00e9y", "key 1 of 1"},
		{"DEDUP_MAX_BODY_BYTES", "0", "number of bytes"},
		{"DEDUP_MAX_BODY_BYTES", "2MiB", "number of bytes"},
		{"DEDUP_MAX_BATCH_BYTES", "-5", "number of bytes"},
		{"DEDUP_MAX_BATCH_BYTES", "99999999999", "number of bytes"},
		{"DEDUP_REQUEST_TIMEOUT", "10", "Go duration"},
		{"DEDUP_REQUEST_TIMEOUT", "0s", "positive"},
		{"DEDUP_REQUEST_TIMEOUT", "-1s", "positive"},
		{"DEDUP_UI_IDLE_TIMEOUT", "0", "positive"},
		{"DEDUP_UI_IDLE_TIMEOUT", "30", "Go duration"},
		{"DEDUP_TIMEZONE", "Beijing", "IANA name"},
		{"DEDUP_TIMEZONE", "Local", "IANA name"},
		{"DEDUP_DB_MAX_CONNS", "0", "from 1 to"},
		{"DEDUP_DB_MAX_CONNS", "many", "from 1 to"},
		{"DEDUP_DB_SEARCH_PARTS", "0", "from 1 to"},
		{"DEDUP_DB_SEARCH_PARTS", "all", "from 1 to"},
		{"DEDUP_DB_CONNECT_TIMEOUT", "0", "positive"},
		{"DEDUP_DB_CONNECT_TIMEOUT", "-1s", "positive"},
		{"DEDUP_DB_CONNECT_TIMEOUT", "5", "Go duration"},
		{"DEDUP_DB_STATEMENT_TIMEOUT", "-5s", "0 (none) or a positive"},
		{"DEDUP_DB_STATEMENT_TIMEOUT", "5", "Go duration"},
		{"DEDUP_SHUTDOWN_TIMEOUT", "0", "positive"},
		{"DEDUP_SHUTDOWN_TIMEOUT", "forever", "Go duration"},
		{"DEDUP_LOG_LEVEL", "verbose", "debug, info, warn or error"},
		{"DEDUP_LOG_FORMAT", "xml", "text or json"},
	}
	for _, tt := range tests {
		t.Run(tt.name+"="+tt.value, func(t *testing.T) {
			t.Parallel()
			_, err := loadConfig(envFrom(map[string]string{tt.name: tt.value}))
			if err == nil {
				t.Fatalf("loadConfig(%s=%q) error = nil, want one", tt.name, tt.value)
			}
			if msg := err.Error(); !strings.HasPrefix(msg, tt.name+": ") || !strings.Contains(msg, tt.want) {
				t.Errorf("loadConfig(%s=%q) error = %q, want it to start with %q and contain %q", tt.name, tt.value, msg, tt.name+": ", tt.want)
			}
			if strings.Contains(err.Error(), "password") && strings.Contains(err.Error(), "unterminated") {
				t.Errorf("loadConfig(%s=%q) error = %q echoes the password", tt.name, tt.value, err)
			}
		})
	}
}

func TestConfigNeverShowsSecrets(t *testing.T) {
	t.Parallel()
	const pw = "s3cr3t-Pa55"
	const key1, key2 = "key-one-0123456789", "key-two-9876543210"
	tests := []struct {
		databaseURL string
		wantShown   string // what stays visible
	}{
		{"postgres://alice:" + pw + "@db.example:5432/news?sslmode=disable", "postgres://alice:xxxxx@db.example:5432/news?sslmode=disable"},
		{"postgresql://alice:" + pw + "@db/news", "postgresql://alice:xxxxx@db/news"},
		{"postgres://alice@db/news?password=" + pw + "&sslmode=require", "postgres://alice@db/news?password=xxxxx&sslmode=require"},
		{"postgres://alice:p%40ss" + pw + "@db/news", "alice:xxxxx@db/news"},
		{"postgres://alice:" + pw + "@db1:5432,db2:5432/news?target_session_attrs=read-write", "postgres://alice:xxxxx@db1:5432,db2:5432/news"},
		{"host=db user=alice password=" + pw + " dbname=news", "host=db user=alice password=xxxxx dbname=news"},
		{"host=db password = '" + pw + " with space' dbname=news", "host=db password = xxxxx dbname=news"},
		{"host=db sslpassword=" + pw + " dbname=news", "sslpassword=xxxxx"},
		{"postgres://db/news", "postgres://db/news"},
	}
	for _, tt := range tests {
		t.Run(tt.databaseURL, func(t *testing.T) {
			t.Parallel()
			c, err := loadConfig(envFrom(map[string]string{
				"DATABASE_URL":   tt.databaseURL,
				"DEDUP_API_KEYS": key1 + "," + key2,
			}))
			if err != nil {
				t.Fatalf("loadConfig error = %v", err)
			}
			var text, json bytes.Buffer
			slog.New(slog.NewTextHandler(&text, nil)).Info("config", "config", c)
			slog.New(slog.NewJSONHandler(&json, nil)).Info("config", "config", c)
			shown := map[string]string{
				"String": c.String(),
				"%v":     fmt.Sprintf("%v", c),
				"%+v":    fmt.Sprintf("%+v", c),
				//lint:ignore S1025 the test checks what the %s verb prints
				"%s":        fmt.Sprintf("%s", c),
				"slog text": text.String(),
				"slog json": json.String(),
			}
			for how, s := range shown {
				for _, secret := range []string{pw, key1, key2} {
					if strings.Contains(s, secret) {
						t.Errorf("%s of the config shows the secret %q: %s", how, secret, s)
					}
				}
				if !strings.Contains(s, "api_keys") || !strings.Contains(s, "2") {
					t.Errorf("%s of the config = %s, want it to count 2 api_keys", how, s)
				}
			}
			if got := maskDatabaseURL(tt.databaseURL); !strings.Contains(got, tt.wantShown) {
				t.Errorf("maskDatabaseURL(%q) = %q, want it to contain %q", tt.databaseURL, got, tt.wantShown)
			}
		})
	}
}

// TestUsageNamesEveryVariable checks that the variables loadConfig reads,
// those the settings table documents and those usage prints are the same.
func TestUsageNamesEveryVariable(t *testing.T) {
	t.Parallel()
	read := map[string]bool{}
	if _, err := loadConfig(func(name string) (string, bool) { read[name] = true; return "", false }); err != nil {
		t.Fatalf("loadConfig(empty) error = %v", err)
	}
	documented := map[string]bool{}
	for _, s := range settings() {
		documented[s.name] = true
		if s.defaultShown() == "" || s.meaning == "" {
			t.Errorf("settings: %s lacks a default or a meaning", s.name)
		}
	}
	if !reflect.DeepEqual(read, documented) {
		t.Errorf("loadConfig reads %v, settings document %v", keys(read), keys(documented))
	}
	u := usage()
	for name := range read {
		if !strings.Contains(u, name+"\n") {
			t.Errorf("usage does not name %s", name)
		}
	}
	for _, cmd := range []string{"serve", "migrate up", "migrate down", "migrate status", "import [FILE|-]", "healthcheck", "version", "help"} {
		if !strings.Contains(u, "\n  "+cmd+" ") {
			t.Errorf("usage does not describe %q", cmd)
		}
	}
}

// TestREADMEConfiguration holds the README's table of variables to the
// settings table: the same variables, in the same order, with the same
// defaults.
func TestREADMEConfiguration(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(readme), "| variable | default | meaning |")
	if !ok {
		t.Fatal("README.md has no table of variables (| variable | default | meaning |)")
	}
	row := regexp.MustCompile("^\\| `([A-Z_]+)` \\| (.+?) \\| .+ \\|$")
	var names []string
	defaults := map[string]string{}
	for _, line := range strings.Split(table, "\n")[2:] {
		if !strings.HasPrefix(line, "|") {
			break
		}
		m := row.FindStringSubmatch(line)
		if m == nil {
			t.Errorf("README.md: a row of the table is not | `NAME` | default | meaning |: %s", line)
			continue
		}
		names = append(names, m[1])
		defaults[m[1]] = strings.ReplaceAll(m[2], "`", "")
	}
	var want []string
	for _, s := range settings() {
		want = append(want, s.name)
		if got := defaults[s.name]; got != s.defaultShown() && got != "" {
			t.Errorf("README.md: %s defaults to %q, dedupd help says %q", s.name, got, s.defaultShown())
		}
	}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("README.md lists %v, dedupd reads %v", names, want)
	}
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func TestAlgorithm(t *testing.T) {
	t.Parallel()
	// Algorithm construction reads nothing from the dictionary.
	for name, want := range map[string]fingerprint.Version{
		"newsdedup": fingerprint.VersionNews,
		"yanyiwu":   fingerprint.VersionYanyiwu,
	} {
		c, err := loadConfig(envFrom(map[string]string{"DEDUP_ALGORITHM": name}))
		if err != nil {
			t.Fatalf("loadConfig(DEDUP_ALGORITHM=%s) error = %v", name, err)
		}
		if got := c.algorithm(nil).Version(); got != want {
			t.Errorf("DEDUP_ALGORITHM=%s: algorithm version = %d, want %d", name, got, want)
		}
	}
}

// TestLoadConfigSourcesFile reads DEDUP_SOURCES_FILE at start, and refuses
// a missing file or one that lists a source twice, naming the line.
func TestLoadConfigSourcesFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := filepath.Join(dir, "sources")
	if err := os.WriteFile(good, []byte("# known\nxinhua owner=xinhua 新华社,新华网\ncctv-news 央视新闻\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := loadConfig(envFrom(map[string]string{"DEDUP_SOURCES_FILE": good}))
	if err != nil || len(c.Sources) != 2 || c.Sources[1].Owner != "cctv" || len(c.Sources[0].Names) != 2 {
		t.Fatalf("loadConfig(DEDUP_SOURCES_FILE) = %+v, %v; want its two sources", c.Sources, err)
	}
	twice := filepath.Join(dir, "twice")
	if err := os.WriteFile(twice, []byte("a 甲\na 乙\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{twice, filepath.Join(dir, "missing")} {
		if _, err := loadConfig(envFrom(map[string]string{"DEDUP_SOURCES_FILE": path})); err == nil || !strings.Contains(err.Error(), "DEDUP_SOURCES_FILE") {
			t.Errorf("loadConfig(DEDUP_SOURCES_FILE=%s) error = %v, want one naming the variable", path, err)
		}
	}
}
