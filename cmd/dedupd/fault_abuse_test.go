package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/newsdedup/newsdedup/repo/dbtest"
)

// TestAbusiveClients sends what a hostile or broken client sends: headers
// beyond MaxHeaderBytes, headers one byte at a time (slow loris), a body one
// byte at a time. The server must refuse the first and cut the others off
// at its read timeouts (shortened here from 5 s and 30 s), while it goes on
// serving everyone else, and answer normally afterwards.
func TestAbusiveClients(t *testing.T) {
	t.Parallel()
	const (
		headerTimeout = time.Second
		bodyTimeout   = 2 * time.Second
		// slack is how much later than its timeout a cut may come.
		slack = 2 * time.Second
	)
	a, _, _ := testApp(t, nil)
	a.readHeaderTimeout, a.readTimeout = headerTimeout, bodyTimeout
	logs := newLogWatcher()
	a.stderr = logs
	a.getenv = envFrom(map[string]string{
		"DATABASE_URL":          dbtest.URL(t),
		"DEDUP_ADDR":            "127.0.0.1:0",
		"DEDUP_LOG_FORMAT":      "json",
		"DEDUP_REQUEST_TIMEOUT": bodyTimeout.String(), // the read timeout is the shorter of the two
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- a.run(ctx, []string{"serve"}) }()
	addr := logs.waitAddr(t, done)
	base := "http://" + addr
	client := &http.Client{Timeout: 10 * time.Second}

	t.Run("oversized headers", func(t *testing.T) {
		// Just under the limit is served; far over it is refused.
		if status, err := rawRequest(addr, "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: "+strings.Repeat("a", maxHeaderBytes-1024)+"\r\n\r\n"); status != 200 {
			t.Errorf("GET /healthz with %d bytes of headers = %d, %v; want 200", maxHeaderBytes-1024, status, err)
		}
		for _, size := range []int{maxHeaderBytes + 8<<10, 1 << 20} {
			status, err := rawRequest(addr, "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: "+strings.Repeat("a", size)+"\r\n\r\n")
			switch {
			case status == http.StatusRequestHeaderFieldsTooLarge:
				t.Logf("%d bytes of headers: 431", size)
			case status == 0 && err != nil && !isTimeout(err): // the connection was closed on it
				t.Logf("%d bytes of headers: the connection was closed (%v)", size, err)
			default:
				t.Errorf("GET /healthz with %d bytes of headers = %d, %v; want 431 or the connection closed", size, status, err)
			}
		}
	})

	t.Run("slow loris", func(t *testing.T) {
		// Many of them at once: the server must still serve others.
		const lorises = 20
		var wg sync.WaitGroup
		results := make(chan trickleResult, lorises)
		for range lorises {
			wg.Add(1)
			go func() {
				defer wg.Done()
				results <- trickle(addr, "GET /healthz HTTP/1.1\r\nHost: x\r\n", "X-Slow: "+strings.Repeat("z", 1000), headerTimeout+slack+3*time.Second)
			}()
		}
		time.Sleep(headerTimeout / 2)
		start := time.Now()
		if status, _, err := getStatus(client, base+"/healthz"); status != http.StatusOK || time.Since(start) > time.Second {
			t.Errorf("GET /healthz among %d slow lorises = %d, %v after %s; want 200 at once", lorises, status, err, time.Since(start))
		}
		wg.Wait()
		close(results)
		var slowest time.Duration
		for r := range results {
			slowest = max(slowest, r.cutAfter)
			if !r.cut || r.response != "" {
				t.Errorf("a slow loris: %s; want the connection closed, unanswered, within %s", r, headerTimeout+slack)
				continue
			}
			if r.cutAfter > headerTimeout+slack || r.cutAfter < headerTimeout/2 {
				t.Errorf("a slow loris was cut off after %s, want about the header timeout %s", r.cutAfter, headerTimeout)
			}
		}
		t.Logf("%d slow lorises cut off, the last after %s (read header timeout %s)", lorises, slowest.Round(time.Millisecond), headerTimeout)
	})

	t.Run("trickled body", func(t *testing.T) {
		head := "POST /v1/articles HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n"
		r := trickle(addr, head, `{"external_id":"slow","body":"`+strings.Repeat("慢", 30000), bodyTimeout+slack+3*time.Second)
		if !r.cut && r.response == "" {
			t.Fatalf("a trickled body: %s; want it cut off within %s", r, bodyTimeout+slack)
		}
		if r.cutAfter > bodyTimeout+slack || r.cutAfter < bodyTimeout/2 {
			t.Errorf("a trickled body was cut off after %s, want about the read timeout %s", r.cutAfter, bodyTimeout)
		}
		// An answer, if any, is the client's fault, never the server's.
		if r.response != "" && !strings.HasPrefix(r.response, "HTTP/1.1 4") {
			t.Errorf("a trickled body was answered %q, want a 4xx or no answer", r.response)
		}
		t.Logf("a trickled body was cut off after %s (read timeout %s): %s", r.cutAfter.Round(time.Millisecond), bodyTimeout, r)
	})

	// The server serves normally afterwards.
	if status, _, err := getStatus(client, base+"/healthz"); status != http.StatusOK {
		t.Errorf("GET /healthz after the abuse = %d, %v; want 200", status, err)
	}
	code, v := postArticle(t, client, base, "", strings.NewReader(articleJSON("after-abuse", articleBody)))
	if code != http.StatusCreated || v.ID == 0 {
		t.Errorf("POST /v1/articles after the abuse = %d %+v; want 201 with an id", code, v)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("run(serve) after cancel = %v, want nil", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("run(serve) did not return within 20 s of the cancel")
	}
}

// TestBodyShorterThanItsLength: a request whose Content-Length promises
// more than it sends is answered, a 4xx, when the request timeout ends —
// not held until the server's read timeout (30 s) and closed unanswered.
func TestBodyShorterThanItsLength(t *testing.T) {
	t.Parallel()
	a, _, _ := testApp(t, nil) // the server's own read timeouts
	logs := newLogWatcher()
	a.stderr = logs
	a.getenv = envFrom(map[string]string{
		"DATABASE_URL":          dbtest.URL(t),
		"DEDUP_ADDR":            "127.0.0.1:0",
		"DEDUP_LOG_FORMAT":      "json",
		"DEDUP_REQUEST_TIMEOUT": "1s",
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- a.run(ctx, []string{"serve"}) }()
	addr := logs.waitAddr(t, done)
	for path, body := range map[string]string{
		"/v1/articles":       `{"external_id":"short","body":"国家统计局`,
		"/v1/articles/batch": `{"articles":[`,
		"/v1/check":          `{"body":"`,
	} {
		// rawRequest gives up after 10 s, long after the request timeout.
		head := fmt.Sprintf("POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", path, len(body)+1000)
		status, err := rawRequest(addr, head+body)
		if status != http.StatusBadRequest {
			t.Errorf("POST %s with a body 1000 bytes short of its Content-Length = %d, %v; want 400 once the 1 s request timeout ends", path, status, err)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("run(serve) after cancel = %v, want nil", err)
	}
}

// rawRequest writes req on a connection of its own and returns the status
// of the response, or 0 and why there was none.
func rawRequest(addr, req string) (int, error) {
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	// The server may stop reading before the end: write aside, read here.
	go io.WriteString(conn, req)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

// trickleResult is what became of a client that sent its request slowly.
type trickleResult struct {
	cut      bool          // the server closed the connection
	cutAfter time.Duration // when the server closed it or answered, after the trickle began
	response string        // the status line, if the server answered
	sent     int           // bytes trickled
	err      error
}

func (r trickleResult) String() string {
	return fmt.Sprintf("cut %v after %s, %d bytes trickled, answer %q, err %v", r.cut, r.cutAfter.Round(time.Millisecond), r.sent, r.response, r.err)
}

// trickle sends head at once, then slow one byte every 50 ms, until the
// server answers or closes the connection, or give-up passes.
func trickle(addr, head, slow string, giveUp time.Duration) trickleResult {
	var r trickleResult
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		r.err = err
		return r
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, head); err != nil {
		r.err = err
		return r
	}
	start := time.Now()
	conn.SetReadDeadline(start.Add(giveUp))
	answered := make(chan struct{})
	go func() {
		defer close(answered)
		line, err := bufio.NewReader(conn).ReadString('\n')
		r.cutAfter = time.Since(start)
		switch {
		case line != "":
			r.response = strings.TrimSpace(line)
		case isTimeout(err):
			r.err = err // still open at give-up
		default:
			r.cut = true // EOF or reset: closed by the server
		}
	}()
	for i := 0; i < len(slow); i++ {
		select {
		case <-answered:
			return r
		case <-time.After(50 * time.Millisecond):
		}
		if _, err := conn.Write([]byte{slow[i]}); err != nil {
			break // closed by the server: the reader says when
		}
		r.sent++
	}
	<-answered
	return r
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
