package main

import (
	"bufio"
	"context"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Machine is what the figures were measured on.
type Machine struct {
	CPU        string            `json:"cpu"`
	Cores      int               `json:"cores"`
	MemoryGiB  float64           `json:"memory_gib"`
	Kernel     string            `json:"kernel"`
	Go         string            `json:"go"`
	PostgreSQL string            `json:"postgresql"`
	Settings   map[string]string `json:"postgresql_settings"`
}

// postgresSettings are the server settings that move the figures.
var postgresSettings = []string{
	"shared_buffers", "effective_cache_size", "work_mem", "random_page_cost", "jit",
	"max_parallel_workers_per_gather", "fsync", "synchronous_commit", "max_connections",
}

// describeMachine reads /proc and asks the server for its version and
// settings.
func describeMachine(ctx context.Context, pool *pgxpool.Pool) Machine {
	m := Machine{Cores: runtime.NumCPU(), Go: runtime.Version(), Settings: map[string]string{}}
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		s := bufio.NewScanner(f)
		for s.Scan() {
			if k, v, ok := strings.Cut(s.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
				m.CPU = strings.TrimSpace(v)
				break
			}
		}
		f.Close()
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for line := range strings.Lines(string(b)) {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == "MemTotal:" {
				kb, _ := strconv.ParseFloat(f[1], 64)
				m.MemoryGiB = kb / (1 << 20)
			}
		}
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.Kernel = strings.TrimSpace(string(b))
	}
	_ = pool.QueryRow(ctx, "SHOW server_version").Scan(&m.PostgreSQL)
	for _, name := range postgresSettings {
		var v string
		if err := pool.QueryRow(ctx, "SELECT current_setting($1)", name).Scan(&v); err == nil {
			m.Settings[name] = v
		}
	}
	return m
}

// LoadSample is the load average at one moment of the run.
type LoadSample struct {
	At     time.Time `json:"at"`
	Phase  string    `json:"phase"`
	Load1  float64   `json:"load1"`
	Load5  float64   `json:"load5"`
	Load15 float64   `json:"load15"`
}

// loadAverage reads /proc/loadavg; zeros where it cannot.
func loadAverage(phase string) LoadSample {
	s := LoadSample{At: time.Now().UTC(), Phase: phase}
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return s
	}
	f := strings.Fields(string(b))
	if len(f) >= 3 {
		s.Load1, _ = strconv.ParseFloat(f[0], 64)
		s.Load5, _ = strconv.ParseFloat(f[1], 64)
		s.Load15, _ = strconv.ParseFloat(f[2], 64)
	}
	return s
}
