package main

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/newsdedup/newsdedup/repo"
	"github.com/newsdedup/newsdedup/service"
)

// backend is what serve and import share: the dictionary, loaded once for
// the process, the database pool and the service over both.
type backend struct {
	svc         *service.Service
	store       *repo.Store
	releaseDict func()
}

// openBackend loads the dictionary, opens the pool and builds the service.
// The pool connects lazily: a database that is down now is no error here.
func (a *app) openBackend(ctx context.Context, cfg Config, log *slog.Logger) (*backend, error) {
	// Dictionary: about half a second, and C memory until released.
	dict, releaseDict, err := a.loadDictionary(cfg.DictDir)
	if err != nil {
		return nil, fmt.Errorf("DEDUP_DICT_DIR: %w (set DEDUP_DICT_DIR to the folder holding the jieba dictionaries: "+
			"a binary run away from the machine that built it does not find gojieba's module folder)", err)
	}
	algorithm := cfg.algorithm(dict)
	log.Info("dictionary loaded", "dir", cfg.DictDir, "algorithm", cfg.Algorithm, "fingerprint_version", int(algorithm.Version()))

	store, err := repo.Open(ctx, cfg.DatabaseURL, cfg.storeOptions())
	if err != nil {
		releaseDict()
		return nil, err
	}

	// Service: the dedup decisions, with the configured default options.
	var settings []service.Setting
	if !cfg.SentenceIndex {
		settings = append(settings, service.WithoutSentenceIndex())
	}
	settings = append(settings, service.WithSources(a.knownSources(ctx, cfg, store, log)), service.WithDeskSources(cfg.DeskSources))
	svc, err := service.New(store, algorithm, cfg.Options, settings...)
	if err == nil {
		err = svc.SetKeepPolicy(service.KeepPolicy{Sources: cfg.KeepSources})
	}
	if err != nil {
		store.Close()
		releaseDict()
		return nil, err
	}
	return &backend{svc: svc, store: store, releaseDict: releaseDict}, nil
}

// knownSources are the sources credit is judged with: DEDUP_SOURCES_FILE's,
// written to the sources table, or the table's when it is unset. A
// database that does not answer yet is logged, not fatal, as for the pool.
func (a *app) knownSources(ctx context.Context, cfg Config, store *repo.Store, log *slog.Logger) []service.SourceInfo {
	ctx, cancel := context.WithTimeout(ctx, cfg.DBConnectTimeout)
	defer cancel()
	if cfg.Sources != nil {
		if err := store.ReplaceSources(ctx, cfg.Sources); err != nil {
			log.Warn("DEDUP_SOURCES_FILE not written to the sources table", "err", err)
		} else {
			log.Info("sources loaded", "sources", len(cfg.Sources))
		}
		return cfg.Sources
	}
	sources, err := store.KnownSources(ctx)
	if err != nil {
		log.Warn("sources table not read: credit judged without source names", "err", err)
	}
	return sources
}

// close closes the pool, waiting for its connections to come back, then
// frees the dictionary. Nothing may use the service after.
func (b *backend) close(log *slog.Logger) {
	b.store.Close()
	log.Info("database pool closed")
	b.releaseDict()
	log.Info("dictionary freed")
}
