// Command cetpgen validates CETP v2 Provider specs and generates code from
// them. All behaviour lives in package cli; the process-wide collector
// setting lives here, so that programs and tests driving cli.Main keep
// their own.
package main

import (
	"os"
	"runtime/debug"

	"github.com/cetpgen/cetpgen/gen/cli"
)

func main() {
	tuneGC()
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// tuneGC makes the collector run an eighth as often as Go's default unless
// GOGC is set, with a soft memory limit of 1 GiB unless GOMEMLIMIT is
// set: cetpgen is a short-lived batch process whose live heap is small
// (about 30 MB after checking 1,000 tools) next to what it allocates
// (about 220 MB for the Go target), so each collection it skips saves
// more work than the fresh pages it touches instead cost. On the
// synthetic 1,000-tool Provider, 16 alternated runs: --target go 0.43 ->
// 0.38 s wall against GOGC=400, for 145 -> 165 MB peak RSS; all targets
// unchanged in time, 403 -> 471 MB (BENCHMARKS.md). The limit keeps a far
// larger spec set from growing the heap to eight times its live size.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(800)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(1 << 30)
	}
}
