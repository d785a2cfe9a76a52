package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/repo/dbtest"
)

// buildDedupd builds this package's binary into a folder of the test's and
// returns its path.
func buildDedupd(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go") // go test puts its own go first in PATH
	if err != nil {
		t.Fatalf("the go command is not in PATH: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "dedupd")
	cmd := exec.Command(goTool, "build", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// dedupdProcess is a dedupd running as a subprocess, its stderr collected.
type dedupdProcess struct {
	cmd    *exec.Cmd
	addr   string
	log    syncBuffer
	exited chan struct{} // closed when it has exited; then err is set
	err    error
}

// startDedupd runs bin serve with env on top of this process's
// environment (less its DATABASE_URL and DEDUP_ variables), and waits for
// the address it listens on.
func startDedupd(t *testing.T, bin string, env map[string]string) *dedupdProcess {
	t.Helper()
	p := &dedupdProcess{cmd: exec.Command(bin, "serve"), exited: make(chan struct{})}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DEDUP_") && !strings.HasPrefix(kv, "DATABASE_URL=") {
			p.cmd.Env = append(p.cmd.Env, kv)
		}
	}
	for k, v := range env {
		p.cmd.Env = append(p.cmd.Env, k+"="+v)
	}
	stderr, err := p.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("start dedupd: %v", err)
	}
	addr := make(chan string, 1)
	logDone := make(chan struct{})
	go func() {
		defer close(logDone)
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 4<<20)
		for sc.Scan() {
			line := sc.Bytes()
			p.log.Write(append(line, '\n'))
			var rec struct{ Msg, Addr string }
			if json.Unmarshal(line, &rec) == nil && rec.Msg == "listening" {
				select {
				case addr <- rec.Addr:
				default:
				}
			}
		}
		io.Copy(io.Discard, stderr)
	}()
	go func() {
		<-logDone // Wait closes the pipe: read it all first
		p.err = p.cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		select {
		case <-p.exited:
		default:
			p.cmd.Process.Kill()
			<-p.exited
		}
	})
	select {
	case p.addr = <-addr:
	case <-p.exited:
		t.Fatalf("dedupd exited (%v) before listening; its log:\n%s", p.err, p.log.String())
	case <-time.After(60 * time.Second):
		t.Fatalf("dedupd did not say where it listens within 60 s; its log:\n%s", p.log.String())
	}
	return p
}

// heldRequest is a POST /v1/articles whose body is sent in two halves, so
// that it is certainly in flight between them.
type heldRequest struct {
	rest []byte
	pw   *io.PipeWriter
	done chan outcome
}

func holdRequest(t *testing.T, base, source, key string) *heldRequest {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"external_id": key, "source": source, "title": articleTitle, "body": articleBody + key})
	pr, pw := io.Pipe()
	h := &heldRequest{rest: body[len(body)/2:], pw: pw, done: make(chan outcome, 1)}
	go func() {
		o := outcome{key: key, start: time.Now()}
		req, _ := http.NewRequest(http.MethodPost, base+"/v1/articles", pr)
		req.Header.Set("Content-Type", "application/json")
		c := &http.Client{Timeout: time.Minute, Transport: &http.Transport{}} // a connection of its own
		resp, err := c.Do(req)
		o.elapsed = time.Since(o.start)
		if err != nil {
			o.err = err
		} else {
			raw, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			o.status = resp.StatusCode
			var v struct{ ID int64 }
			if json.Unmarshal(raw, &v) == nil {
				o.id = v.ID
			}
		}
		h.done <- o
	}()
	if _, err := pw.Write(body[:len(body)/2]); err != nil {
		t.Fatal(err)
	}
	return h
}

func (h *heldRequest) finish(t *testing.T) {
	t.Helper()
	if _, err := h.pw.Write(h.rest); err != nil {
		t.Errorf("send the rest of a request in flight: %v", err)
	}
	h.pw.Close()
}

// TestSIGTERMDuringLoad builds the real binary, puts it under concurrent
// ingest load and sends it SIGTERM: it must stop accepting, let every
// request in flight finish with its 2xx, and exit 0 within the shutdown
// timeout; no request may get a 5xx, and every acknowledged article must be
// stored exactly once.
func TestSIGTERMDuringLoad(t *testing.T) {
	t.Parallel()
	const (
		clients         = 6
		held            = 3
		shutdownTimeout = 20 * time.Second
		source          = "sigterm"
	)
	bin := buildDedupd(t)
	dbURL := dbtest.URL(t)
	p := startDedupd(t, bin, map[string]string{
		"DATABASE_URL":           dbURL,
		"DEDUP_ADDR":             "127.0.0.1:0",
		"DEDUP_LOG_FORMAT":       "json",
		"DEDUP_SHUTDOWN_TIMEOUT": shutdownTimeout.String(),
	})
	base := "http://" + p.addr

	// Load, each client on its connection, until a connection fails after
	// the signal.
	load := newIngestLoad(t, base, source)
	var signalled atomic.Bool
	ctx, stopLoad := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer func() { // also when the test fails half-way
		stopLoad()
		wg.Wait()
	}()
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := &http.Client{Timeout: time.Minute, Transport: &http.Transport{}}
			load.run(ctx, c, func(o outcome) bool { return o.status == 0 && signalled.Load() })
		}()
	}
	load.waitAcked(t, 30, 30*time.Second, "before SIGTERM")

	// Requests certainly in flight at the signal: head and half the body sent.
	var hs []*heldRequest
	for i := range held {
		hs = append(hs, holdRequest(t, base, source, "held-"+string(rune('a'+i))))
	}
	time.Sleep(300 * time.Millisecond) // the server has read their heads
	load.waitAcked(t, 10, 30*time.Second, "with requests held")

	sigAt := time.Now()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatalf("SIGTERM: %v", err)
	}
	signalled.Store(true)
	waitRefused(t, p.addr)
	for _, h := range hs {
		select {
		case o := <-h.done:
			t.Fatalf("a held request ended before its body was complete: %s", o)
		default:
		}
		h.finish(t)
	}

	select {
	case <-p.exited:
	case <-time.After(shutdownTimeout + 10*time.Second):
		t.Fatalf("dedupd still runs %s after SIGTERM; its log:\n%s", time.Since(sigAt), lastLines(p.log.String(), 30))
	}
	exitAfter := time.Since(sigAt)
	if p.err != nil {
		t.Errorf("dedupd exited with %v after SIGTERM, want status 0; its log:\n%s", p.err, lastLines(p.log.String(), 30))
	}
	if exitAfter > shutdownTimeout {
		t.Errorf("dedupd took %s to exit, more than its shutdown timeout %s", exitAfter, shutdownTimeout)
	}
	stopLoad()
	wg.Wait()

	outcomes := load.all()
	for _, h := range hs {
		select {
		case o := <-h.done:
			if o.err != nil || o.status != http.StatusCreated || o.id == 0 {
				t.Errorf("request in flight at SIGTERM: %s, want 201 with a verdict", o)
			}
			outcomes = append(outcomes, o)
		case <-time.After(10 * time.Second):
			t.Errorf("a request in flight at SIGTERM got no answer")
		}
	}

	// Every request got its 2xx, or was refused at the connection level
	// after the signal: never read (the server's access log does not name
	// it) and never processed (not stored).
	ids, _ := storedKeys(t, dbURL, source)
	served := accessLog(p.log.String())
	var inFlight, inFlightOK, refused int
	for _, o := range outcomes {
		end := o.start.Add(o.elapsed)
		if o.start.Before(sigAt) && end.After(sigAt) {
			inFlight++
			if o.ok() {
				inFlightOK++
			}
		}
		switch {
		case o.ok():
		case o.status != 0:
			t.Errorf("want a 2xx, got %s", o)
		case !end.After(sigAt):
			t.Errorf("a request failed before SIGTERM: %s", o)
		case served[load.requestID(o.key)] != 0:
			// The server read it and answered it, but the answer never
			// reached the client: the connection was cut under it.
			t.Errorf("a request the server answered %d got no answer: %s (written at %s, SIGTERM at %s)",
				served[load.requestID(o.key)], o, o.wrote.Format("15:04:05.000"), sigAt.Format("15:04:05.000"))
		default:
			refused++
			if _, stored := ids[o.key]; stored {
				t.Errorf("a request refused at the connection level was processed: %s is stored", o)
			}
		}
	}
	acked, lost, _ := checkAckedStored(t, dbURL, source, outcomes)
	if inFlight == 0 {
		t.Error("no request was in flight at SIGTERM")
	}
	log := p.log.String()
	if !strings.Contains(log, `"shutdown complete"`) {
		t.Errorf("dedupd's log does not end with a complete shutdown:\n%s", lastLines(log, 20))
	}
	t.Logf("%d requests: %d acknowledged, %d of them not stored exactly once; %d in flight at SIGTERM (%d of them held open by the test), %d of them answered 2xx; %d refused at the connection level afterwards, none processed; exit 0 after %s",
		len(outcomes), acked, lost, inFlight, held, inFlightOK, refused, exitAfter.Round(time.Millisecond))
}

// accessLog returns the status of every request in a JSON log, by request
// id.
func accessLog(log string) map[string]int {
	served := map[string]int{}
	for line := range strings.SplitSeq(log, "\n") {
		var rec struct {
			Msg       string
			Status    int
			RequestID string `json:"request_id"`
		}
		if json.Unmarshal([]byte(line), &rec) == nil && rec.Msg == "request" {
			served[rec.RequestID] = rec.Status
		}
	}
	return served
}
