package pgcluster

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Binaries are the PostgreSQL server programs a Cluster runs.
type Binaries struct {
	Initdb string // path of initdb
	PgCtl  string // path of pg_ctl
}

// FindBinaries looks for initdb and pg_ctl in PATH, then in the newest
// /usr/lib/postgresql/*/bin (where Debian and Ubuntu put them, outside PATH).
func FindBinaries() (Binaries, error) {
	initdb, err1 := exec.LookPath("initdb")
	pgCtl, err2 := exec.LookPath("pg_ctl")
	if err1 == nil && err2 == nil {
		return Binaries{Initdb: initdb, PgCtl: pgCtl}, nil
	}
	for _, dir := range debianBinDirs() {
		b := Binaries{Initdb: filepath.Join(dir, "initdb"), PgCtl: filepath.Join(dir, "pg_ctl")}
		if isExecutable(b.Initdb) && isExecutable(b.PgCtl) {
			return b, nil
		}
	}
	return Binaries{}, errors.New("PostgreSQL server programs (initdb, pg_ctl) not found in PATH " +
		"nor in /usr/lib/postgresql/*/bin: install the PostgreSQL server " +
		"(e.g. apt-get install postgresql) or set DATABASE_URL to a server you already have")
}

// debianBinDirs lists /usr/lib/postgresql/<version>/bin, newest version first.
func debianBinDirs() []string {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	version := func(dir string) float64 {
		v, err := strconv.ParseFloat(filepath.Base(filepath.Dir(dir)), 64)
		if err != nil {
			return -1
		}
		return v
	}
	slices.SortFunc(dirs, func(a, b string) int {
		va, vb := version(a), version(b)
		switch {
		case va > vb:
			return -1
		case va < vb:
			return 1
		}
		return strings.Compare(a, b)
	})
	return dirs
}

func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}
