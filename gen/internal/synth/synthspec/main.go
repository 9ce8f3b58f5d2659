// Command synthspec writes a synthetic Provider spec for benchmarks:
//
//	go run ./gen/internal/synth/synthspec -tools 1000 -out /tmp/synth
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/cetpgen/cetpgen/gen/internal/synth"
)

func main() {
	n := flag.Int("tools", 1000, "number of tools")
	out := flag.String("out", "", "spec directory to create")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "synthspec: -out is required")
		os.Exit(2)
	}
	if err := synth.Write(*out, *n); err != nil {
		fmt.Fprintln(os.Stderr, "synthspec:", err)
		os.Exit(1)
	}
}
