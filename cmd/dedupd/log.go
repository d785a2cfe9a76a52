package main

import (
	"io"
	"log/slog"
)

// newLogger returns the process's logger: slog text (logfmt) or JSON on w,
// at the configured level.
func newLogger(w io.Writer, cfg Config) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.LogLevel}
	if cfg.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}
