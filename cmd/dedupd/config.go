package main

import (
	"cmp"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // DEDUP_TIMEZONE on a machine without /usr/share/zoneinfo

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/newsdedup/newsdedup/handlers"
	"github.com/newsdedup/newsdedup/internal/webhook"
	"github.com/newsdedup/newsdedup/repo"
	"github.com/newsdedup/newsdedup/service"
	"github.com/newsdedup/newsdedup/service/fingerprint"
)

// The algorithms DEDUP_ALGORITHM may name.
const (
	algorithmNewsdedup = "newsdedup"
	algorithmYanyiwu   = "yanyiwu"
)

// Config is everything dedupd reads from its environment. loadConfig fills
// in the defaults and validates every value; LogValue and String mask the
// database password and never show an API key.
type Config struct {
	DatabaseURL string   // DATABASE_URL: required by serve, migrate and import
	Addr        string   // DEDUP_ADDR: host:port to listen on
	APIKeys     []string // DEDUP_API_KEYS: none means the API is open
	KeepSources []string // DEDUP_KEEP_SOURCES: the keep rule's preferred sources, best first
	// Sources are DEDUP_SOURCES_FILE's: each source's owner and the names
	// a credit uses for it; nil when it is unset.
	Sources []service.SourceInfo
	// DeskSources is DEDUP_DESK_SOURCES: the desk's own sources, watched
	// by a webhook subscription that names none and the copies report's
	// default.
	DeskSources []string
	// Webhooks is DEDUP_WEBHOOKS_FILE's subscriptions; nil when unset.
	Webhooks *webhook.Config
	// UIIdleTimeout is DEDUP_UI_IDLE_TIMEOUT: an editors' page session
	// unused this long ends.
	UIIdleTimeout time.Duration
	// TimeZone is DEDUP_TIMEZONE: the editors' time zone, an IANA name
	// time.LoadLocation has loaded (Zone).
	TimeZone string

	// Options are the service's default options; Limit is not configurable.
	Options   service.Options
	DictDir   string // DEDUP_DICT_DIR
	Algorithm string // DEDUP_ALGORITHM: algorithmNewsdedup or algorithmYanyiwu
	// SentenceIndex is DEDUP_SENTENCE_INDEX: keep the sentence index.
	SentenceIndex bool

	MaxBodyBytes    int64
	MaxBatchBytes   int64
	RequestTimeout  time.Duration
	ShutdownTimeout time.Duration

	DBMaxConns         int32
	DBSearchParts      int           // 0 for this machine's cores
	DBConnectTimeout   time.Duration // per connection attempt
	DBStatementTimeout time.Duration // 0 for none

	LogLevel  slog.Level
	LogFormat string // "text" or "json"
}

// setting is one environment variable: its name, its default, what it
// means, and how its value is read into a Config. settings is the one table
// of them: loadConfig parses it, usage prints it, and a test holds the
// README's table to it.
type setting struct {
	name string
	// def is the default as the variable would spell it ("" for none); a
	// variable that is unset or blank is read as def.
	def string
	// shown is the default as help and the README show it, when def alone
	// is not enough ("2097152 (2 MiB)", "none: the API is open").
	shown   string
	meaning string
	// read parses a value into c; its error, prefixed with the name, is
	// what the operator reads.
	read func(c *Config, v string) error
}

// defaultShown is the default of s as help and the README show it.
func (s setting) defaultShown() string {
	return cmp.Or(s.shown, s.def)
}

// The defaults that are not the service's, the handlers' or the
// fingerprint package's.
const (
	defaultAddr               = "127.0.0.1:8080"
	defaultDBMaxConns         = 16
	defaultDBConnectTimeout   = 5 * time.Second
	defaultDBStatementTimeout = 5 * time.Second
	defaultShutdownTimeout    = 30 * time.Second
)

// settings lists every variable, in the order usage shows them. Defaults
// that belong to another package come from it.
func settings() []setting {
	d := service.DefaultOptions
	return []setting{
		{name: "DATABASE_URL", shown: "(none)",
			meaning: "PostgreSQL URL (postgres://user:pass@host:5432/db?sslmode=disable) or key=value string; required by serve, migrate and import; the service's sessions run with jit off unless it sets jit (jit=on); for a replicated formation, both nodes with target_session_attrs=read-write (postgres://user:pass@db1:5432,db2:5432/db?target_session_attrs=read-write), and never a synchronous_commit below on (docs/operations.md)",
			read:    readDatabaseURL},
		{name: "DEDUP_ADDR", def: defaultAddr,
			meaning: "host:port the HTTP server listens on (port 0 picks a free port)",
			read:    readAddr},
		{name: "DEDUP_API_KEYS", shown: "(none: the API is open)",
			meaning: "comma-separated API keys; every /v1 route then needs Authorization: Bearer <key>; a value that holds no usable key stops the start",
			read:    readAPIKeys},
		{name: "DEDUP_KEEP_SOURCES", shown: "(none)",
			meaning: "the keep rule's preferred sources, best first, comma-separated: of a cluster's members, those from the best-ranked source listed are kept before any other (docs/ui.md)",
			read:    readKeepSources},
		{name: "DEDUP_SOURCES_FILE", shown: "(none: the sources table as stored)",
			meaning: "a file of known sources, one a line: the source, owner=OWNER when not the part before '-', the names a credit line uses for it, comma-separated (xinhua owner=xinhua 新华社,新华网); loaded into the sources table at start, and the credit of each copy is judged with them (docs/reporting.md)",
			read:    readSourcesFile},
		{name: "DEDUP_DESK_SOURCES", shown: "(none)",
			meaning: "the desk's own sources, comma-separated (bjwb,bjwb-app): a webhook subscription that names no source watches copies of their stories",
			read:    readDeskSources},
		{name: "DEDUP_WEBHOOKS_FILE", shown: "(none: no alerts)",
			meaning: "a JSON file of webhook subscriptions: who is told of a copy (by the original's source or owner, by credit), where and how (signed JSON, WeCom, DingTalk, Feishu); delivered at least once from the outbox (README, Alerts)",
			read:    readWebhooksFile},
		{name: "DEDUP_UI_IDLE_TIMEOUT", def: handlers.DefaultUIIdleTimeout.String(), shown: "1h",
			meaning: "an editors' page session unused for this long ends (Go duration: 30m, 1h); every session ends 12 hours after signing in, and at once when the editor signs out",
			read:    func(c *Config, v string) (err error) { c.UIIdleTimeout, err = duration(v, false); return err }},
		{name: "DEDUP_TIMEZONE", def: handlers.DefaultTimeZone,
			meaning: "the editors' time zone (IANA name: Asia/Shanghai, Europe/Berlin, UTC): the editors' page shows times in it, and its date filters and GET /v1/overview cut days in it; the zone database is built into dedupd",
			read:    readTimeZone},
		{name: "DEDUP_MAX_DISTANCE", def: strconv.Itoa(d.MaxDistance),
			meaning: "default largest Hamming distance of a near duplicate, 0-3",
			read: func(c *Config, v string) error {
				n, err := intIn(v, 0, fingerprint.MaxIndexedDistance)
				c.Options.MaxDistance = n
				return err
			}},
		{name: "DEDUP_MIN_OVERLAP", def: strconv.FormatFloat(d.MinOverlap, 'g', -1, 64),
			meaning: "default smallest share of the shorter text a match shares with the article it links to (of both texts for a near duplicate), 0-1",
			read: func(c *Config, v string) error {
				f, err := number(v)
				c.Options.MinOverlap = f
				return err
			}},
		{name: "DEDUP_MIN_WORD_RATIO", def: strconv.FormatFloat(d.MinWordRatio, 'g', -1, 64),
			meaning: "default smallest shared-word ratio of a near duplicate, 0-1; 0 for no condition",
			read: func(c *Config, v string) error {
				f, err := number(v)
				c.Options.MinWordRatio = f
				return err
			}},
		{name: "DEDUP_WINDOW_HOURS", def: strconv.FormatFloat(d.Window.Hours(), 'g', -1, 64),
			meaning: "default publication window of near duplicates, in hours; 0 for no window",
			read: func(c *Config, v string) error {
				hours, err := strconv.ParseFloat(v, 64)
				if err != nil {
					return fmt.Errorf("must be a number of hours, not %q", v)
				}
				c.Options.Window, err = service.WindowHoursOption(hours)
				return optionError(err)
			}},
		{name: "DEDUP_DICT_DIR", def: fingerprint.DefaultDictDir(), shown: "gojieba's own dictionary folder at build time",
			meaning: "folder holding the jieba dictionaries (jieba.dict.utf8, hmm_model.utf8, user.dict.utf8, idf.utf8, stop_words.utf8); set it for a binary run away from the machine that built it",
			read:    func(c *Config, v string) error { c.DictDir = v; return nil }},
		{name: "DEDUP_ALGORITHM", def: algorithmNewsdedup,
			meaning: "fingerprint algorithm: newsdedup (weighted TF-IDF simhash) or yanyiwu (bit-compatible with yanyiwu/simhash)",
			read: func(c *Config, v string) error {
				switch c.Algorithm = strings.ToLower(v); c.Algorithm {
				case algorithmNewsdedup, algorithmYanyiwu:
					return nil
				}
				return fmt.Errorf("must be %q or %q, not %q", algorithmNewsdedup, algorithmYanyiwu, c.Algorithm)
			}},
		{name: "DEDUP_SENTENCE_INDEX", def: "on",
			meaning: "on: keep the sentence index, which finds partial duplicates and the sentences articles share; off: store no sentences (ingest is faster; those stored before stay; no partial duplicates, and a body that is only boilerplate is linked like any text)",
			read: func(c *Config, v string) error {
				switch strings.ToLower(v) {
				case "on":
					c.SentenceIndex = true
				case "off":
					c.SentenceIndex = false
				default:
					return fmt.Errorf("must be on or off, not %q", v)
				}
				return nil
			}},
		{name: "DEDUP_MAX_BODY_BYTES", def: strconv.Itoa(handlers.DefaultMaxBodyBytes), shown: strconv.Itoa(handlers.DefaultMaxBodyBytes) + " (2 MiB)",
			meaning: "largest request body of a single-article route, and of each article of a batch, in bytes",
			read:    func(c *Config, v string) (err error) { c.MaxBodyBytes, err = byteCount(v); return err }},
		{name: "DEDUP_MAX_BATCH_BYTES", def: strconv.Itoa(handlers.DefaultMaxBatchBytes), shown: strconv.Itoa(handlers.DefaultMaxBatchBytes) + " (32 MiB)",
			meaning: "largest request body of POST /v1/articles/batch, in bytes",
			read:    func(c *Config, v string) (err error) { c.MaxBatchBytes, err = byteCount(v); return err }},
		{name: "DEDUP_REQUEST_TIMEOUT", def: handlers.DefaultRequestTimeout.String(),
			meaning: "time limit of one request, from the arrival of its body down to every SQL statement (Go duration: 500ms, 10s, 1m)",
			read:    func(c *Config, v string) (err error) { c.RequestTimeout, err = duration(v, false); return err }},
		{name: "DEDUP_DB_MAX_CONNS", def: strconv.Itoa(defaultDBMaxConns),
			meaning: "size of the database connection pool",
			read: func(c *Config, v string) error {
				n, err := intIn(v, 1, 10_000)
				c.DBMaxConns = int32(n)
				return err
			}},
		{name: "DEDUP_DB_SEARCH_PARTS", shown: "(this machine's cores)",
			meaning: "the database's cores: a long article's sentence search is sent as at most this many statements at once while the pool has idle connections; 1 never splits it",
			read:    func(c *Config, v string) (err error) { c.DBSearchParts, err = intIn(v, 1, 1024); return err }},
		{name: "DEDUP_DB_CONNECT_TIMEOUT", def: defaultDBConnectTimeout.String(),
			meaning: "time limit of one attempt to connect to the database; while the database is down, a request that needs a new connection fails with 503 after at most this long",
			read:    func(c *Config, v string) (err error) { c.DBConnectTimeout, err = duration(v, false); return err }},
		{name: "DEDUP_DB_STATEMENT_TIMEOUT", def: defaultDBStatementTimeout.String(),
			meaning: "time limit of one SQL statement, lock waits included; 0 for none",
			read:    func(c *Config, v string) (err error) { c.DBStatementTimeout, err = duration(v, true); return err }},
		{name: "DEDUP_SHUTDOWN_TIMEOUT", def: defaultShutdownTimeout.String(),
			meaning: "how long a shutdown waits for requests in flight",
			read:    func(c *Config, v string) (err error) { c.ShutdownTimeout, err = duration(v, false); return err }},
		{name: "DEDUP_LOG_LEVEL", def: "info",
			meaning: "debug, info, warn or error",
			read:    readLogLevel},
		{name: "DEDUP_LOG_FORMAT", def: "text",
			meaning: "text (logfmt) or json",
			read: func(c *Config, v string) error {
				switch c.LogFormat = strings.ToLower(v); c.LogFormat {
				case "text", "json":
					return nil
				}
				return fmt.Errorf("must be text or json, not %q", c.LogFormat)
			}},
	}
}

// loadConfig reads the configuration through getenv, which returns a
// variable's value and whether it is set. An unset or blank variable takes
// its default. Every invalid variable is reported, each error naming it.
func loadConfig(getenv func(string) (string, bool)) (Config, error) {
	var c Config
	var errs []error
	for _, s := range settings() {
		v, _ := getenv(s.name)
		if v = strings.TrimSpace(v); v == "" {
			v = s.def
		}
		if v == "" {
			continue
		}
		if err := s.read(&c, v); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", s.name, err))
		}
	}
	c.Options.Limit = service.DefaultOptions.Limit
	if err := c.Options.Validate(); err != nil {
		name := optionVariable(err)
		if !slices.ContainsFunc(errs, func(e error) bool { return strings.HasPrefix(e.Error(), name+": ") }) {
			errs = append(errs, fmt.Errorf("%s: %w", name, optionError(err)))
		}
	}
	return c, errors.Join(errs...)
}

func readDatabaseURL(c *Config, v string) error {
	c.DatabaseURL = v
	// pgconn's errors may quote the URL, password and all: say only that
	// it is wrong.
	if _, err := pgconn.ParseConfig(v); err != nil {
		return errors.New("is not a valid PostgreSQL URL or key=value connection string")
	}
	return nil
}

func readTimeZone(c *Config, v string) error {
	if _, err := time.LoadLocation(v); err != nil || v == "Local" {
		return fmt.Errorf("must be a time zone's IANA name (Asia/Shanghai, UTC), not %q", v)
	}
	c.TimeZone = v
	return nil
}

// Zone is the editors' time zone; UTC when none is set.
func (c Config) Zone() *time.Location {
	z, err := time.LoadLocation(c.TimeZone) // read by readTimeZone: it loads
	if err != nil {
		return time.UTC
	}
	return z
}

func readAddr(c *Config, v string) error {
	c.Addr = v
	_, port, err := net.SplitHostPort(v)
	if err != nil {
		return fmt.Errorf("must be host:port (127.0.0.1:8080, 0.0.0.0:8080, :8080), not %q", v)
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return fmt.Errorf("port must be a number from 0 to 65535, not %q", port)
	}
	return nil
}

// readAPIKeys reads a comma-separated list of bearer tokens. A value that
// holds no usable key — only commas and blanks, or a key that cannot travel
// in an Authorization header — fails: a server started with it would be
// open while its operator believes it closed.
func readAPIKeys(c *Config, v string) error {
	for _, k := range strings.Split(v, ",") {
		if k = strings.TrimSpace(k); k != "" {
			c.APIKeys = append(c.APIKeys, k)
		}
	}
	if len(c.APIKeys) == 0 {
		return fmt.Errorf("holds no key, only commas and blanks (%q); unset it to run without keys", v)
	}
	for i, k := range c.APIKeys {
		if !bearerToken.MatchString(k) {
			n := len(c.APIKeys)
			c.APIKeys = nil
			return fmt.Errorf("key %d of %d holds a character a bearer token cannot (allowed: letters, digits and -._~+/, then = for padding)", i+1, n)
		}
	}
	return nil
}

// readKeepSources reads a comma-separated list of sources, best first.
func readKeepSources(c *Config, v string) error {
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			c.KeepSources = append(c.KeepSources, s)
		}
	}
	if len(c.KeepSources) == 0 {
		return fmt.Errorf("holds no source, only commas and blanks (%q); unset it for none", v)
	}
	return optionError(service.KeepPolicy{Sources: c.KeepSources}.Validate())
}

// readDeskSources reads DEDUP_DESK_SOURCES.
func readDeskSources(c *Config, v string) error {
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			c.DeskSources = append(c.DeskSources, s)
		}
	}
	if len(c.DeskSources) == 0 {
		return fmt.Errorf("holds no source, only commas and blanks (%q); unset it for none", v)
	}
	return nil
}

// readWebhooksFile reads and checks DEDUP_WEBHOOKS_FILE at start.
func readWebhooksFile(c *Config, v string) error {
	f, err := os.Open(v)
	if err != nil {
		return err
	}
	defer f.Close()
	w, err := webhook.ParseConfig(f)
	if err != nil {
		return fmt.Errorf("%s: %w", v, err)
	}
	c.Webhooks = &w
	return nil
}

// readSourcesFile reads and checks DEDUP_SOURCES_FILE at start.
func readSourcesFile(c *Config, v string) error {
	f, err := os.Open(v)
	if err != nil {
		return err
	}
	defer f.Close()
	if c.Sources, err = service.ParseSources(f); err != nil {
		return fmt.Errorf("%s: %w", v, err)
	}
	if c.Sources == nil {
		c.Sources = []service.SourceInfo{}
	}
	return nil
}

// bearerToken is RFC 6750's b64token: what may follow "Bearer ".
var bearerToken = regexp.MustCompile(`^[A-Za-z0-9._~+/-]+=*$`)

func readLogLevel(c *Config, v string) error {
	switch strings.ToLower(v) {
	case "debug":
		c.LogLevel = slog.LevelDebug
	case "info":
		c.LogLevel = slog.LevelInfo
	case "warn", "warning":
		c.LogLevel = slog.LevelWarn
	case "error":
		c.LogLevel = slog.LevelError
	default:
		return fmt.Errorf("must be debug, info, warn or error, not %q", v)
	}
	return nil
}

// requireDatabase reports a missing DATABASE_URL for a command that needs
// one.
func (c Config) requireDatabase(command string) error {
	if c.DatabaseURL == "" {
		return fmt.Errorf("DATABASE_URL: is required by %q: set it to the PostgreSQL URL, e.g. postgres://user:password@localhost:5432/newsdedup?sslmode=disable", command)
	}
	return nil
}

// algorithm returns the fingerprint algorithm the configuration names.
func (c Config) algorithm(d *fingerprint.Dictionary) fingerprint.Algorithm {
	if c.Algorithm == algorithmYanyiwu {
		return fingerprint.NewYanyiwu(d, fingerprint.DefaultYanyiwuTopN)
	}
	return fingerprint.NewWeighted(d, fingerprint.DefaultWeightedParams)
}

// storeOptions are the store's: a pool of at most DEDUP_DB_MAX_CONNS
// connections, each attempt to connect bounded by DEDUP_DB_CONNECT_TIMEOUT
// and every statement by DEDUP_DB_STATEMENT_TIMEOUT; a long sentence
// search in at most DEDUP_DB_SEARCH_PARTS statements at once.
func (c Config) storeOptions() repo.Options {
	return repo.Options{
		MaxConns:         c.DBMaxConns,
		SearchParts:      c.DBSearchParts,
		ConnectTimeout:   c.DBConnectTimeout,
		StatementTimeout: c.DBStatementTimeout,
	}
}

// LogValue shows the configuration for a log line, the database password
// masked and the API keys only counted.
func (c Config) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("database_url", maskDatabaseURL(c.DatabaseURL)),
		slog.String("addr", c.Addr),
		slog.Int("api_keys", len(c.APIKeys)),
		slog.String("keep_sources", strings.Join(c.KeepSources, ",")),
		slog.String("desk_sources", strings.Join(c.DeskSources, ",")),
		slog.Int("webhook_subscriptions", c.webhookCount()),
		slog.String("ui_idle_timeout", c.UIIdleTimeout.String()),
		slog.Int("max_distance", c.Options.MaxDistance),
		slog.Float64("min_overlap", c.Options.MinOverlap),
		slog.Float64("min_word_ratio", c.Options.MinWordRatio),
		slog.Float64("window_hours", c.Options.Window.Hours()),
		slog.String("dict_dir", c.DictDir),
		slog.String("algorithm", c.Algorithm),
		slog.Bool("sentence_index", c.SentenceIndex),
		slog.Int64("max_body_bytes", c.MaxBodyBytes),
		slog.Int64("max_batch_bytes", c.MaxBatchBytes),
		slog.String("request_timeout", c.RequestTimeout.String()),
		slog.Int("db_max_conns", int(c.DBMaxConns)),
		slog.Int("db_search_parts", c.storeOptions().Parts()),
		slog.String("db_connect_timeout", c.DBConnectTimeout.String()),
		slog.String("db_statement_timeout", c.DBStatementTimeout.String()),
		slog.String("shutdown_timeout", c.ShutdownTimeout.String()),
		slog.String("log_level", c.LogLevel.String()),
		slog.String("log_format", c.LogFormat),
	)
}

// webhookCount is how many subscriptions DEDUP_WEBHOOKS_FILE holds; their
// URLs and secrets are never logged.
func (c Config) webhookCount() int {
	if c.Webhooks == nil {
		return 0
	}
	return len(c.Webhooks.Subscriptions)
}

// String is LogValue as key=value pairs, so that printing a Config with %v
// masks it too.
func (c Config) String() string {
	var b strings.Builder
	for i, a := range c.LogValue().Group() {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s=%s", a.Key, strconv.Quote(a.Value.String()))
	}
	return b.String()
}

// maskedPassword replaces a password in what the configuration shows.
const maskedPassword = "xxxxx"

var (
	// A password=… pair of a key=value string, quoted or not; also matches
	// sslpassword.
	kvPassword = regexp.MustCompile(`(?i)(\b[a-z]*password\s*=\s*)('(?:[^'\\]|\\.)*'|[^\s']+)`)
	// The password of a URL's user information, for URLs net/url refuses
	// (libpq's host1:5432,host2:5432 lists).
	urlUserPassword = regexp.MustCompile(`^([a-zA-Z][a-zA-Z0-9+.-]*://[^:@/?#]*):[^/?#]*@`)
	// A password parameter of a URL's query.
	urlQueryPassword = regexp.MustCompile(`(?i)([?&][a-z]*password=)[^&#]*`)
)

// maskDatabaseURL hides the passwords of a PostgreSQL URL (user information
// and query parameters) or key=value string.
func maskDatabaseURL(s string) string {
	if !strings.Contains(s, "://") {
		return kvPassword.ReplaceAllString(s, "${1}"+maskedPassword)
	}
	u, err := url.Parse(s)
	if err != nil {
		s = urlUserPassword.ReplaceAllString(s, "${1}:"+maskedPassword+"@")
		return urlQueryPassword.ReplaceAllString(s, "${1}"+maskedPassword)
	}
	if _, has := u.User.Password(); has {
		u.User = url.UserPassword(u.User.Username(), maskedPassword)
	}
	if q := u.Query(); len(q) > 0 {
		changed := false
		for k := range q {
			if strings.Contains(strings.ToLower(k), "password") {
				q.Set(k, maskedPassword)
				changed = true
			}
		}
		if changed {
			u.RawQuery = q.Encode()
		}
	}
	return u.String()
}

// optionVariable names the variable behind a service.Options error.
func optionVariable(err error) string {
	var e *service.Error
	if errors.As(err, &e) {
		switch e.Field {
		case "max_distance":
			return "DEDUP_MAX_DISTANCE"
		case "min_overlap":
			return "DEDUP_MIN_OVERLAP"
		case "min_word_ratio":
			return "DEDUP_MIN_WORD_RATIO"
		case "window_hours":
			return "DEDUP_WINDOW_HOURS"
		}
	}
	return "DEDUP_* options"
}

// optionError is a service.Options error without the API's field name its
// message starts with.
func optionError(err error) error {
	var e *service.Error
	if errors.As(err, &e) && e.Field != "" {
		return errors.New(strings.TrimPrefix(e.Message, e.Field+": "))
	}
	return err
}

func intIn(v string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("must be a whole number from %d to %d, not %q", lo, hi, v)
	}
	return n, nil
}

func number(v string) (float64, error) {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("must be a number, not %q", v)
	}
	return f, nil
}

// maxBytesLimit bounds the body limits: 1 GiB is far beyond any article.
const maxBytesLimit = 1 << 30

func byteCount(v string) (int64, error) {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 1 || n > maxBytesLimit {
		return 0, fmt.Errorf("must be a whole number of bytes from 1 to %d, not %q", maxBytesLimit, v)
	}
	return n, nil
}

// duration parses a Go duration ("10s", "1m30s"); zero is allowed only
// where it means "none".
func duration(v string, zeroOK bool) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	switch {
	case err != nil:
		return 0, fmt.Errorf("must be a Go duration such as 500ms, 10s or 2m, not %q", v)
	case d < 0, d == 0 && !zeroOK:
		if zeroOK {
			return 0, fmt.Errorf("must be 0 (none) or a positive duration, not %q", v)
		}
		return 0, fmt.Errorf("must be a positive duration, not %q", v)
	}
	return d, nil
}
