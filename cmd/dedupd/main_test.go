package main

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// envFrom returns a getenv over m, as run takes it.
func envFrom(m map[string]string) func(string) (string, bool) {
	return func(name string) (string, bool) {
		v, ok := m[name]
		return v, ok
	}
}

// sharedDictionary is the one dictionary the tests that do not go through
// run share: loading one takes about half a second.
var sharedDictionary struct {
	once sync.Once
	d    *fingerprint.Dictionary
	err  error
}

// testApp returns an app over env whose output the test reads, sharing the
// test binary's dictionary (never freed: the binary exits).
func testApp(tb testing.TB, env map[string]string) (a *app, stdout, stderr *syncBuffer) {
	tb.Helper()
	stdout, stderr = &syncBuffer{}, &syncBuffer{}
	a = &app{
		stdin:            strings.NewReader(""),
		stdout:           stdout,
		stderr:           stderr,
		getenv:           envFrom(env),
		progressInterval: time.Hour,
		loadDictionary: func(dir string) (*fingerprint.Dictionary, func(), error) {
			sharedDictionary.once.Do(func() {
				sharedDictionary.d, sharedDictionary.err = fingerprint.Load(fingerprint.DefaultDictDir())
			})
			return sharedDictionary.d, func() {}, sharedDictionary.err
		},
	}
	return a, stdout, stderr
}

// syncBuffer is a bytes.Buffer safe for the concurrent writes of a server's
// goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestRunCommandLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		args       []string
		env        map[string]string
		wantUsage  bool   // a usageError (exit 2)
		wantErr    string // in the error; "" for none
		wantStdout string
		wantStderr string
	}{
		{name: "no arguments", args: nil, wantUsage: true, wantErr: "no command", wantStderr: "usage: dedupd"},
		{name: "help", args: []string{"help"}, wantStdout: "DEDUP_SHUTDOWN_TIMEOUT"},
		{name: "-h", args: []string{"-h"}, wantStdout: "usage: dedupd"},
		{name: "version", args: []string{"version"}, wantStdout: "dedupd "},
		{name: "unknown command", args: []string{"frobnicate"}, wantUsage: true, wantErr: `unknown command "frobnicate"`},
		{name: "serve without DATABASE_URL", args: []string{"serve"}, wantErr: "DATABASE_URL: is required"},
		{name: "migrate without DATABASE_URL", args: []string{"migrate", "up"}, wantErr: "DATABASE_URL: is required"},
		{name: "import without DATABASE_URL", args: []string{"import"}, wantErr: "DATABASE_URL: is required"},
		{name: "migrate without action", args: []string{"migrate"}, env: map[string]string{"DATABASE_URL": "postgres://localhost/x"}, wantUsage: true, wantErr: "up, down, status"},
		{name: "migrate bad action", args: []string{"migrate", "sideways"}, env: map[string]string{"DATABASE_URL": "postgres://localhost/x"}, wantUsage: true, wantErr: `"sideways"`},
		{name: "serve with arguments", args: []string{"serve", "now"}, env: map[string]string{"DATABASE_URL": "postgres://localhost/x"}, wantUsage: true, wantErr: "no arguments"},
		{name: "import two files", args: []string{"import", "a", "b"}, env: map[string]string{"DATABASE_URL": "postgres://localhost/x"}, wantUsage: true, wantErr: "at most one file"},
		{name: "bad configuration", args: []string{"serve"}, env: map[string]string{"DEDUP_MAX_DISTANCE": "9", "DEDUP_LOG_FORMAT": "xml"}, wantErr: "DEDUP_MAX_DISTANCE"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var stdout, stderr bytes.Buffer
			env := tt.env
			if env == nil {
				env = map[string]string{}
			}
			err := run(context.Background(), tt.args, strings.NewReader(""), &stdout, &stderr, envFrom(env))
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("run(%q) = %v, want nil", tt.args, err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("run(%q) = %v, want an error containing %q", tt.args, err, tt.wantErr)
			}
			if _, isUsage := err.(usageError); isUsage != tt.wantUsage {
				t.Errorf("run(%q) = %#v: usage error %v, want %v", tt.args, err, isUsage, tt.wantUsage)
			}
			if !strings.Contains(stdout.String(), tt.wantStdout) {
				t.Errorf("run(%q) stdout = %q, want it to contain %q", tt.args, stdout.String(), tt.wantStdout)
			}
			if !strings.Contains(stderr.String(), tt.wantStderr) {
				t.Errorf("run(%q) stderr = %q, want it to contain %q", tt.args, stderr.String(), tt.wantStderr)
			}
		})
	}
}

func TestBadConfigurationListsEveryVariable(t *testing.T) {
	t.Parallel()
	env := map[string]string{"DEDUP_MAX_DISTANCE": "9", "DEDUP_LOG_FORMAT": "xml", "DEDUP_REQUEST_TIMEOUT": "soon"}
	err := run(context.Background(), []string{"serve"}, strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{}, envFrom(env))
	if err == nil {
		t.Fatal("run(serve) with three bad variables = nil, want an error")
	}
	for name := range env {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("run(serve) = %q, want it to name %s", err, name)
		}
	}
}
