package write

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/cetpgen/cetpgen/gen/internal/par"
)

// writeAll stages every new file as a temporary sibling, then renames them
// into place and deletes stale files. The files are staged in parallel on
// the generator's pool (staging is most of the write's time: an
// all-targets run writes tens of megabytes); the renames run in path
// order. A failure while staging removes the temporaries and leaves the
// output as it was; the error is the first failure in path order.
func writeAll(root string, changes []change) error {
	tmps := make([]string, len(changes))
	errs := make([]error, len(changes))
	par.Each(len(changes), func(i int) {
		if !changes[i].remove {
			tmps[i], errs[i] = stage(root, changes[i])
		}
	})
	staged := map[string]string{}
	for i, c := range changes {
		if tmps[i] != "" {
			staged[c.path] = tmps[i]
		}
	}
	for _, err := range errs {
		if err != nil {
			for _, tmp := range staged {
				os.Remove(tmp)
			}
			return err
		}
	}
	return commit(root, changes, staged)
}

func stage(root string, c change) (string, error) {
	dst := filepath.Join(root, filepath.FromSlash(c.path))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return "", fmt.Errorf("write %s: %w", c.path, err)
	}
	f, err := os.CreateTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".tmp-*")
	if err != nil {
		return "", fmt.Errorf("write %s: %w", c.path, err)
	}
	_, werr := f.Write(c.new)
	cerr := f.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(f.Name(), 0o644)
	}
	if werr != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("write %s: %w", c.path, werr)
	}
	return f.Name(), nil
}

func commit(root string, changes []change, staged map[string]string) error {
	for _, c := range changes {
		dst := filepath.Join(root, filepath.FromSlash(c.path))
		var err error
		if c.remove {
			err = os.Remove(dst)
		} else {
			err = os.Rename(staged[c.path], dst)
		}
		if err != nil {
			return fmt.Errorf("write %s: %w", c.path, err)
		}
	}
	return nil
}
