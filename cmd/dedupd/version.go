package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// version is set at build time with -ldflags "-X main.version=v1.2.3";
// without it the module version or VCS revision Go recorded is shown.
var version = ""

// versionString says which dedupd this is and what built it.
func versionString() string {
	v, rev := version, ""
	if info, ok := debug.ReadBuildInfo(); ok {
		if v == "" {
			v = info.Main.Version
		}
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				rev = s.Value[:12]
			}
			if s.Key == "vcs.modified" && s.Value == "true" && rev != "" {
				rev += "+dirty"
			}
		}
	}
	if v == "" {
		v = "(devel)"
	}
	if rev != "" {
		v += " " + rev
	}
	return fmt.Sprintf("dedupd %s %s %s/%s", v, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
