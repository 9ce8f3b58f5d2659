package catalog

import (
	"bytes"
	"io"
	"testing"
)

// FuzzOpenAndQuery feeds arbitrary catalog and index bytes to the loader
// and every kind of query: they may fail, never panic.
func FuzzOpenAndQuery(f *testing.F) {
	data, index, err := Encode(testRegistry(), "sha256:surface")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data, index, "cal event create")
	f.Add(data, bytes.Replace(index, []byte("["), []byte("[-"), 3), "cal")
	f.Add(data[:len(data)/2], index, "")
	f.Add([]byte("{}"), []byte(`{"version":1}`), "cal ls")
	f.Fuzz(func(t *testing.T, data, index []byte, path string) {
		c, err := Open(data, index)
		if err != nil {
			return
		}
		for _, q := range []Query{{Path: path}, {CLIPath: path}, {}, {All: true}, {All: true, Compact: true}, {Path: path, Compact: true}} {
			_ = c.Write(io.Discard, q)
		}
	})
}
