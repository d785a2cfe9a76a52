package main

import (
	"context"
	"log/slog"
	"strings"

	"github.com/newsdedup/newsdedup/service"
)

// recordKeepPolicy records the keep rule in the database, for the
// reporting views (keep_policy, cluster_kept). It never fails: the
// database may be down at start, and the service records the rule itself
// before its first editorial read or write.
func recordKeepPolicy(ctx context.Context, svc *service.Service, log *slog.Logger) {
	ctx, cancel := context.WithTimeout(ctx, schemaCheckTimeout)
	defer cancel()
	sources := strings.Join(svc.KeepPolicy().Sources, ",")
	if err := svc.RecordKeepPolicy(ctx); err != nil {
		log.Warn("cannot record the keep rule for the reporting views yet; the service records it on the first editorial request",
			"keep_sources", sources, "err", err)
		return
	}
	log.Info("keep rule recorded", "keep_sources", sources)
}
