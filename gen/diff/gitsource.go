package diff

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"strings"
	"testing/fstest"
)

// IsGitTree reports whether arg names a spec directory in a git revision,
// REV:PATH (main:specs/alerts, HEAD~1:specs/alerts), rather than a
// directory on disk: it holds a colon and names no existing path.
func IsGitTree(arg string) bool {
	if !strings.Contains(arg, ":") {
		return false
	}
	_, err := os.Stat(arg)
	return err != nil
}

// GitFS reads the tree REV:PATH of the git repository of the current
// directory into memory, with git ls-tree and git cat-file.
func GitFS(tree string) (fs.FS, error) {
	listing, err := git("ls-tree", "-r", "-z", tree)
	if err != nil {
		return nil, err
	}
	fsys := fstest.MapFS{}
	for _, entry := range strings.Split(strings.TrimSuffix(string(listing), "\x00"), "\x00") {
		if entry == "" {
			continue
		}
		if err := addEntry(fsys, entry); err != nil {
			return nil, err
		}
	}
	return fsys, nil
}

// addEntry reads one ls-tree entry ("<mode> <type> <object>\t<path>") into
// fsys; entries that are not files (submodules) are skipped.
func addEntry(fsys fstest.MapFS, entry string) error {
	meta, name, ok := strings.Cut(entry, "\t")
	fields := strings.Fields(meta)
	if !ok || len(fields) != 3 {
		return fmt.Errorf("git ls-tree: unexpected entry %q", entry)
	}
	if fields[1] != "blob" {
		return nil
	}
	data, err := git("cat-file", "blob", fields[2])
	if err != nil {
		return err
	}
	fsys[name] = &fstest.MapFile{Data: data, Mode: 0o644}
	return nil
}

// git runs git with args in the current directory and returns its output;
// a failure carries git's own message.
func git(args ...string) ([]byte, error) {
	var stdout, stderr bytes.Buffer
	cmd := exec.Command("git", args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
	}
	return stdout.Bytes(), nil
}
