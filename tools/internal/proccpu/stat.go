package proccpu

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// userHZ is the unit of the times in /proc/<pid>/stat: clock ticks of
// 1/100 s, fixed by Linux's ABI whatever the kernel's own tick rate.
const userHZ = 100

// stat holds the fields of /proc/<pid>/stat that count CPU time.
type stat struct {
	ppid                         int
	utime, stime, cutime, cstime int64
}

func readStat(pid int) (stat, error) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return stat{}, err
	}
	return parseStat(string(b))
}

// parseStat reads a /proc/<pid>/stat line: "pid (comm) state ppid …",
// utime, stime, cutime and cstime being the 14th to 17th fields (proc(5)).
// The command name may hold spaces and parentheses, so the fields are
// counted from the last ')'.
func parseStat(line string) (stat, error) {
	i := strings.LastIndexByte(line, ')')
	if i < 0 {
		return stat{}, errors.New("no command name in /proc stat line")
	}
	f := strings.Fields(line[i+1:]) // f[0] is field 3, the state
	if len(f) < 15 {
		return stat{}, fmt.Errorf("/proc stat line has %d fields after the command name, want 15 or more", len(f))
	}
	var st stat
	var err error
	if st.ppid, err = strconv.Atoi(f[1]); err != nil {
		return stat{}, fmt.Errorf("/proc stat ppid: %w", err)
	}
	for j, p := range []*int64{&st.utime, &st.stime, &st.cutime, &st.cstime} {
		if *p, err = strconv.ParseInt(f[11+j], 10, 64); err != nil {
			return stat{}, fmt.Errorf("/proc stat field %d: %w", 14+j, err)
		}
	}
	return st, nil
}
