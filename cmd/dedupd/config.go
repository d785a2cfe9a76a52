package main

import (
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

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

	// Options are the service's default options; Limit is not configurable.
	Options   service.Options
	DictDir   string // DEDUP_DICT_DIR
	Algorithm string // DEDUP_ALGORITHM: algorithmNewsdedup or algorithmYanyiwu

	MaxBodyBytes    int64
	MaxBatchBytes   int64
	RequestTimeout  time.Duration
	ShutdownTimeout time.Duration

	DBMaxConns         int32
	DBConnectTimeout   time.Duration // per connection attempt
	DBStatementTimeout time.Duration // 0 for none

	LogLevel  slog.Level
	LogFormat string // "text" or "json"
}

// envVar documents one environment variable; usage prints the table.
type envVar struct {
	name, def, meaning string
}

// The defaults that are not the service's or the fingerprint package's.
const (
	defaultAddr               = "127.0.0.1:8080"
	defaultMaxBodyBytes       = 2 << 20
	defaultMaxBatchBytes      = 32 << 20
	defaultRequestTimeout     = 10 * time.Second
	defaultDBMaxConns         = 16
	defaultDBConnectTimeout   = 5 * time.Second
	defaultDBStatementTimeout = 5 * time.Second
	defaultShutdownTimeout    = 30 * time.Second
)

// envVars lists every variable loadConfig reads, in the order usage shows
// them. A test checks that the list and loadConfig agree.
func envVars() []envVar {
	d := service.DefaultOptions
	return []envVar{
		{"DATABASE_URL", "(none)", "PostgreSQL URL (postgres://user:pass@host:5432/db?sslmode=disable) or key=value string; required by serve, migrate and import"},
		{"DEDUP_ADDR", defaultAddr, "host:port the HTTP server listens on (port 0 picks a free port)"},
		{"DEDUP_API_KEYS", "(none: the API is open)", "comma-separated API keys; every /v1 route then needs Authorization: Bearer <key>"},
		{"DEDUP_MAX_DISTANCE", strconv.Itoa(d.MaxDistance), "default largest Hamming distance of a near duplicate, 0-3"},
		{"DEDUP_MIN_WORD_RATIO", strconv.FormatFloat(d.MinWordRatio, 'g', -1, 64), "default smallest shared-word ratio of a near duplicate, 0-1"},
		{"DEDUP_WINDOW_HOURS", strconv.FormatFloat(d.Window.Hours(), 'g', -1, 64), "default publication window of near duplicates, in hours; 0 for no window"},
		{"DEDUP_DICT_DIR", fingerprint.DefaultDictDir() + " (the gojieba module this binary was built from)", "folder holding the jieba dictionaries (jieba.dict.utf8, hmm_model.utf8, user.dict.utf8, idf.utf8, stop_words.utf8)"},
		{"DEDUP_ALGORITHM", algorithmNewsdedup, "fingerprint algorithm: newsdedup (weighted TF-IDF simhash) or yanyiwu (bit-compatible with yanyiwu/simhash)"},
		{"DEDUP_MAX_BODY_BYTES", strconv.Itoa(defaultMaxBodyBytes), "largest request body of a single-article route, in bytes (2 MiB)"},
		{"DEDUP_MAX_BATCH_BYTES", strconv.Itoa(defaultMaxBatchBytes), "largest request body of POST /v1/articles/batch, in bytes (32 MiB)"},
		{"DEDUP_REQUEST_TIMEOUT", defaultRequestTimeout.String(), "time limit of one request (Go duration: 500ms, 10s, 1m)"},
		{"DEDUP_DB_MAX_CONNS", strconv.Itoa(defaultDBMaxConns), "size of the database connection pool"},
		{"DEDUP_DB_CONNECT_TIMEOUT", defaultDBConnectTimeout.String(), "time limit of one attempt to connect to the database; while the database is down, a request that needs a new connection fails with 503 after at most this long"},
		{"DEDUP_DB_STATEMENT_TIMEOUT", defaultDBStatementTimeout.String(), "time limit of one SQL statement, lock waits included; 0 for none"},
		{"DEDUP_SHUTDOWN_TIMEOUT", defaultShutdownTimeout.String(), "how long a shutdown waits for requests in flight"},
		{"DEDUP_LOG_LEVEL", "info", "debug, info, warn or error"},
		{"DEDUP_LOG_FORMAT", "text", "text (logfmt) or json"},
	}
}

// loadConfig reads the configuration through getenv, which returns a
// variable's value and whether it is set. An unset or blank variable takes
// its default. Every invalid variable is reported, each error naming it.
func loadConfig(getenv func(string) (string, bool)) (Config, error) {
	p := envParser{getenv: getenv}
	c := Config{
		DatabaseURL: p.str("DATABASE_URL", ""),
		Addr:        p.str("DEDUP_ADDR", defaultAddr),
		APIKeys:     p.apiKeys("DEDUP_API_KEYS"),
		Options:     service.DefaultOptions,
		DictDir:     p.str("DEDUP_DICT_DIR", fingerprint.DefaultDictDir()),
		Algorithm:   strings.ToLower(p.str("DEDUP_ALGORITHM", algorithmNewsdedup)),

		MaxBodyBytes:    p.bytes("DEDUP_MAX_BODY_BYTES", defaultMaxBodyBytes),
		MaxBatchBytes:   p.bytes("DEDUP_MAX_BATCH_BYTES", defaultMaxBatchBytes),
		RequestTimeout:  p.duration("DEDUP_REQUEST_TIMEOUT", defaultRequestTimeout, false),
		ShutdownTimeout: p.duration("DEDUP_SHUTDOWN_TIMEOUT", defaultShutdownTimeout, false),

		DBMaxConns:         int32(p.intRange("DEDUP_DB_MAX_CONNS", defaultDBMaxConns, 1, 10_000)),
		DBConnectTimeout:   p.duration("DEDUP_DB_CONNECT_TIMEOUT", defaultDBConnectTimeout, false),
		DBStatementTimeout: p.duration("DEDUP_DB_STATEMENT_TIMEOUT", defaultDBStatementTimeout, true),

		LogFormat: strings.ToLower(p.str("DEDUP_LOG_FORMAT", "text")),
	}

	c.Options.MaxDistance = p.intRange("DEDUP_MAX_DISTANCE", c.Options.MaxDistance, 0, fingerprint.MaxIndexedDistance)
	c.Options.MinWordRatio = p.float("DEDUP_MIN_WORD_RATIO", c.Options.MinWordRatio)
	if v, ok := p.value("DEDUP_WINDOW_HOURS"); ok {
		hours, err := strconv.ParseFloat(v, 64)
		if err != nil {
			p.fail("DEDUP_WINDOW_HOURS", "must be a number of hours, not %q", v)
		} else if c.Options.Window, err = service.WindowHoursOption(hours); err != nil {
			p.failOption("DEDUP_WINDOW_HOURS", err)
		}
	}
	if err := c.Options.Validate(); err != nil {
		p.failOption(optionVariable(err), err)
	}

	if c.DatabaseURL != "" {
		// pgconn's errors may quote the URL, password and all: say only
		// that it is wrong.
		if _, err := pgconn.ParseConfig(c.DatabaseURL); err != nil {
			p.fail("DATABASE_URL", "is not a valid PostgreSQL URL or key=value connection string")
		}
	}
	if _, port, err := net.SplitHostPort(c.Addr); err != nil {
		p.fail("DEDUP_ADDR", "must be host:port (127.0.0.1:8080, 0.0.0.0:8080, :8080), not %q", c.Addr)
	} else if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		p.fail("DEDUP_ADDR", "port must be a number from 0 to 65535, not %q", port)
	}
	switch c.Algorithm {
	case algorithmNewsdedup, algorithmYanyiwu:
	default:
		p.fail("DEDUP_ALGORITHM", "must be %q or %q, not %q", algorithmNewsdedup, algorithmYanyiwu, c.Algorithm)
	}
	if v, ok := p.value("DEDUP_LOG_LEVEL"); ok {
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
			p.fail("DEDUP_LOG_LEVEL", "must be debug, info, warn or error, not %q", v)
		}
	}
	switch c.LogFormat {
	case "text", "json":
	default:
		p.fail("DEDUP_LOG_FORMAT", "must be text or json, not %q", c.LogFormat)
	}
	return c, errors.Join(p.errs...)
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

// LogValue shows the configuration for a log line, the database password
// masked and the API keys only counted.
func (c Config) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("database_url", maskDatabaseURL(c.DatabaseURL)),
		slog.String("addr", c.Addr),
		slog.Int("api_keys", len(c.APIKeys)),
		slog.Int("max_distance", c.Options.MaxDistance),
		slog.Float64("min_word_ratio", c.Options.MinWordRatio),
		slog.Float64("window_hours", c.Options.Window.Hours()),
		slog.String("dict_dir", c.DictDir),
		slog.String("algorithm", c.Algorithm),
		slog.Int64("max_body_bytes", c.MaxBodyBytes),
		slog.Int64("max_batch_bytes", c.MaxBatchBytes),
		slog.String("request_timeout", c.RequestTimeout.String()),
		slog.Int("db_max_conns", int(c.DBMaxConns)),
		slog.String("db_connect_timeout", c.DBConnectTimeout.String()),
		slog.String("db_statement_timeout", c.DBStatementTimeout.String()),
		slog.String("shutdown_timeout", c.ShutdownTimeout.String()),
		slog.String("log_level", c.LogLevel.String()),
		slog.String("log_format", c.LogFormat),
	)
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
		case "min_word_ratio":
			return "DEDUP_MIN_WORD_RATIO"
		case "window_hours":
			return "DEDUP_WINDOW_HOURS"
		}
	}
	return "DEDUP_* options"
}

// envParser reads variables and collects one error per bad variable, so that
// a misconfigured deployment learns every mistake at once.
type envParser struct {
	getenv func(string) (string, bool)
	errs   []error
	failed map[string]bool
}

// value returns the trimmed value of a variable and whether it is set and
// not blank.
func (p *envParser) value(name string) (string, bool) {
	v, ok := p.getenv(name)
	v = strings.TrimSpace(v)
	return v, ok && v != ""
}

func (p *envParser) fail(name, format string, args ...any) {
	if p.failed[name] {
		return // one error per variable is enough
	}
	if p.failed == nil {
		p.failed = make(map[string]bool)
	}
	p.failed[name] = true
	p.errs = append(p.errs, fmt.Errorf("%s: %s", name, fmt.Sprintf(format, args...)))
}

// failOption reports a service.Options error against a variable, without
// the API's field name its message starts with.
func (p *envParser) failOption(name string, err error) {
	msg := err.Error()
	var e *service.Error
	if errors.As(err, &e) && e.Field != "" {
		msg = strings.TrimPrefix(e.Message, e.Field+": ")
	}
	p.fail(name, "%s", msg)
}

func (p *envParser) str(name, def string) string {
	if v, ok := p.value(name); ok {
		return v
	}
	return def
}

// apiKeys reads a comma-separated list of bearer tokens. A variable that is
// set but holds no usable key — only commas and blanks, or a key that
// cannot travel in an Authorization header — fails: a server started with
// it would be open while its operator believes it closed.
func (p *envParser) apiKeys(name string) []string {
	v, set := p.value(name)
	if !set {
		return nil
	}
	keys := p.list(name)
	if len(keys) == 0 {
		p.fail(name, "holds no key, only commas and blanks (%q); unset it to run without keys", v)
		return nil
	}
	for i, k := range keys {
		if !bearerToken.MatchString(k) {
			p.fail(name, "key %d of %d holds a character a bearer token cannot (allowed: letters, digits and -._~+/, then = for padding)", i+1, len(keys))
			return nil
		}
	}
	return keys
}

// bearerToken is RFC 6750's b64token: what may follow "Bearer ".
var bearerToken = regexp.MustCompile(`^[A-Za-z0-9._~+/-]+=*$`)

// list splits a comma-separated variable, dropping blanks.
func (p *envParser) list(name string) []string {
	v, _ := p.value(name)
	var out []string
	for _, item := range strings.Split(v, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

func (p *envParser) intRange(name string, def, lo, hi int) int {
	v, ok := p.value(name)
	if !ok {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		p.fail(name, "must be a whole number from %d to %d, not %q", lo, hi, v)
		return def
	}
	return n
}

func (p *envParser) float(name string, def float64) float64 {
	v, ok := p.value(name)
	if !ok {
		return def
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		p.fail(name, "must be a number, not %q", v)
		return def
	}
	return f
}

// maxBytesLimit bounds the body limits: 1 GiB is far beyond any article.
const maxBytesLimit = 1 << 30

func (p *envParser) bytes(name string, def int64) int64 {
	v, ok := p.value(name)
	if !ok {
		return def
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 1 || n > maxBytesLimit {
		p.fail(name, "must be a whole number of bytes from 1 to %d, not %q", maxBytesLimit, v)
		return def
	}
	return n
}

// duration parses a Go duration ("10s", "1m30s"); zero is allowed only
// where it means "none".
func (p *envParser) duration(name string, def time.Duration, zeroOK bool) time.Duration {
	v, ok := p.value(name)
	if !ok {
		return def
	}
	d, err := time.ParseDuration(v)
	switch {
	case err != nil:
		p.fail(name, "must be a Go duration such as 500ms, 10s or 2m, not %q", v)
	case d < 0, d == 0 && !zeroOK:
		if zeroOK {
			p.fail(name, "must be 0 (none) or a positive duration, not %q", v)
		} else {
			p.fail(name, "must be a positive duration, not %q", v)
		}
	default:
		return d
	}
	return def
}
