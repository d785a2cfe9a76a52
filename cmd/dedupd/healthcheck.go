package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"
)

// healthcheckTimeout bounds the whole health check.
const healthcheckTimeout = 3 * time.Second

// healthcheck asks the server on DEDUP_ADDR for /healthz and fails unless it
// answers 200. It exists for container health checks: a slim image has no
// curl.
func (a *app) healthcheck(ctx context.Context, cfg Config) error {
	url := "http://" + healthcheckHost(cfg.Addr) + "/healthz"
	ctx, cancel := context.WithTimeout(ctx, healthcheckTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("healthcheck: %w", err)
	}
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		return fmt.Errorf("healthcheck: %w", err)
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("healthcheck: GET %s: %s", url, resp.Status)
	}
	fmt.Fprintf(a.stdout, "ok: GET %s: %s\n", url, resp.Status)
	return nil
}

// healthcheckHost turns the listen address into one to dial: a wildcard or
// missing host means this machine's loopback.
func healthcheckHost(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	switch host {
	case "", "0.0.0.0":
		host = "127.0.0.1"
	case "::", "[::]":
		host = "::1"
	}
	return net.JoinHostPort(host, port)
}
