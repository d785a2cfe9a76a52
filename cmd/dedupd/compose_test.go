package main

import (
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// composeFile is the part of docker-compose.yml the checks read.
type composeFile struct {
	Services map[string]composeService `yaml:"services"`
	Volumes  map[string]any            `yaml:"volumes"`
}

type composeService struct {
	Image       string                    `yaml:"image"`
	Build       any                       `yaml:"build"`
	Environment map[string]string         `yaml:"environment"`
	Volumes     []string                  `yaml:"volumes"`
	Ports       []string                  `yaml:"ports"`
	DependsOn   map[string]map[string]any `yaml:"depends_on"`
	Entrypoint  []string                  `yaml:"entrypoint"`
	Command     []string                  `yaml:"command"`
	Healthcheck struct {
		Test []string `yaml:"test"`
	} `yaml:"healthcheck"`
}

// interpolate replaces compose's ${NAME:-default} with the default, as
// compose does with NAME unset.
func interpolate(s string) string {
	return regexp.MustCompile(`\$\{[A-Z0-9_]+:-([^}]*)\}`).ReplaceAllString(s, "$1")
}

func readTopFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", name))
	if err != nil {
		t.Fatalf("read %s: %v", name, err)
	}
	return string(b)
}

func TestDockerCompose(t *testing.T) {
	t.Parallel()
	var c composeFile
	if err := yaml.Unmarshal([]byte(readTopFile(t, "docker-compose.yml")), &c); err != nil {
		t.Fatalf("parse docker-compose.yml: %v", err)
	}

	pg, ok := c.Services["postgres"]
	if !ok {
		t.Fatal("docker-compose.yml has no postgres service")
	}
	if !strings.HasPrefix(pg.Image, "postgres:15") {
		t.Errorf("postgres image = %q, want postgres:15", pg.Image)
	}
	if pg.Environment["POSTGRES_DB"] != "newsdedup" || pg.Environment["POSTGRES_PASSWORD"] == "" {
		t.Errorf("postgres environment = %v, want POSTGRES_DB=newsdedup and a POSTGRES_PASSWORD", pg.Environment)
	}
	if len(pg.Volumes) == 0 || !strings.HasSuffix(pg.Volumes[0], ":/var/lib/postgresql/data") {
		t.Errorf("postgres volumes = %v, want one on /var/lib/postgresql/data", pg.Volumes)
	}
	for _, v := range pg.Volumes {
		if name, _, _ := strings.Cut(v, ":"); !strings.HasPrefix(name, ".") && !strings.HasPrefix(name, "/") {
			if _, ok := c.Volumes[name]; !ok {
				t.Errorf("postgres volume %q is not declared under volumes:", name)
			}
		}
	}
	if !strings.Contains(strings.Join(pg.Healthcheck.Test, " "), "pg_isready") {
		t.Errorf("postgres healthcheck = %v, want pg_isready", pg.Healthcheck.Test)
	}

	d, ok := c.Services["dedupd"]
	if !ok {
		t.Fatal("docker-compose.yml has no dedupd service")
	}
	if d.Build != "." {
		t.Errorf("dedupd build = %v, want .", d.Build)
	}
	if cond := d.DependsOn["postgres"]["condition"]; cond != "service_healthy" {
		t.Errorf("dedupd depends_on postgres condition = %v, want service_healthy", cond)
	}

	// The environment is a valid configuration that reaches the postgres
	// service and listens on every interface of the container.
	env := map[string]string{}
	for k, v := range d.Environment {
		env[k] = interpolate(v)
	}
	cfg, err := loadConfig(envFrom(env))
	if err != nil {
		t.Fatalf("dedupd environment is not a valid configuration: %v", err)
	}
	if !strings.Contains(cfg.DatabaseURL, "@postgres:5432/newsdedup") {
		t.Errorf("DATABASE_URL = %q, want the postgres service's newsdedup database", cfg.DatabaseURL)
	}
	if pw := interpolate(pg.Environment["POSTGRES_PASSWORD"]); !strings.Contains(cfg.DatabaseURL, ":"+pw+"@") {
		t.Errorf("DATABASE_URL = %q does not use POSTGRES_PASSWORD %q", cfg.DatabaseURL, pw)
	}
	if host, port, _ := net.SplitHostPort(cfg.Addr); host != "0.0.0.0" || port != "8080" {
		t.Errorf("DEDUP_ADDR = %q, want 0.0.0.0:8080 (a container must listen beyond its loopback)", cfg.Addr)
	}
	known := map[string]bool{}
	for _, v := range settings() {
		known[v.name] = true
	}
	for name := range env {
		if !known[name] {
			t.Errorf("dedupd environment sets %s, which dedupd does not read", name)
		}
	}

	// Migrate first, then serve, with dedupd as the shell's exec.
	script := strings.Join(append(slices.Clone(d.Entrypoint), d.Command...), " ")
	up, serve := strings.Index(script, "dedupd migrate up"), strings.Index(script, "exec dedupd serve")
	if up < 0 || serve < 0 || up > serve || !strings.Contains(script[up:serve], "&&") {
		t.Errorf("dedupd runs %q, want `dedupd migrate up && exec dedupd serve`", script)
	}
	if len(d.Entrypoint) == 0 || !slices.Contains([]string{"sh", "/bin/sh"}, d.Entrypoint[0]) {
		t.Errorf("dedupd entrypoint = %v, want a shell: the image's entrypoint is dedupd itself", d.Entrypoint)
	}
	if !slices.ContainsFunc(d.Ports, func(p string) bool { return strings.HasSuffix(p, ":8080") }) {
		t.Errorf("dedupd ports = %v, want one to 8080", d.Ports)
	}
	if got := strings.Join(d.Healthcheck.Test, " "); !strings.Contains(got, "dedupd healthcheck") {
		t.Errorf("dedupd healthcheck = %q, want dedupd healthcheck", got)
	}
}

func TestDockerfile(t *testing.T) {
	t.Parallel()
	df := readTopFile(t, "Dockerfile")
	// Join continued lines, drop comments.
	df = strings.ReplaceAll(df, "\\\n", " ")
	var lines []string
	for _, l := range strings.Split(df, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	has := func(re string) bool {
		r := regexp.MustCompile(re)
		return slices.ContainsFunc(lines, r.MatchString)
	}
	for _, want := range []string{
		`^FROM golang:1\.26-bookworm AS build$`,
		`^RUN go mod download$`,
		`^RUN go build .*-o /out/dedupd \./cmd/dedupd`,
		`cp -r "\$\(go list -m -f '\{\{\.Dir\}\}' github\.com/yanyiwu/gojieba\)/deps/cppjieba/dict" /out/dict`,
		`^FROM debian:bookworm-slim$`,
		`apt-get install .*libstdc\+\+6.*ca-certificates`,
		`^COPY --from=build /out/dedupd /usr/local/bin/dedupd$`,
		`^COPY --from=build /out/dict /usr/share/newsdedup/dict$`,
		`^ENV .*DEDUP_DICT_DIR=/usr/share/newsdedup/dict`,
		`^ENV .*DEDUP_ADDR=0\.0\.0\.0:8080`,
		`^USER [a-z]`,
		`^EXPOSE 8080$`,
		`^HEALTHCHECK .*CMD \["dedupd", "healthcheck"\]$`,
		`^ENTRYPOINT \["dedupd"\]$`,
		`^CMD \["serve"\]$`,
	} {
		if !has(want) {
			t.Errorf("Dockerfile has no line matching %s", want)
		}
	}
	if has(`^USER (root|0)\b`) {
		t.Error("Dockerfile runs as root")
	}
	// The runtime stage must not need the module cache: its last FROM comes
	// after the build stage's.
	if strings.LastIndex(df, "FROM debian") < strings.LastIndex(df, "FROM golang") {
		t.Error("Dockerfile's last stage is not the slim runtime")
	}

	ignore := readTopFile(t, ".dockerignore")
	for _, want := range []string{".data", "bin", ".git"} {
		if !slices.Contains(strings.Fields(ignore), want) {
			t.Errorf(".dockerignore does not exclude %s", want)
		}
	}
}
