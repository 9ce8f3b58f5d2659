package cliout

import (
	"context"
	"io"
	"os"
	"syscall"
	"time"
	"unsafe"
)

// Stdio is a command's standard streams and environment. Zero fields take
// the process's own: os.Stdin, os.Stdout, os.Stderr and os.Getenv.
type Stdio struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
}

// In returns the standard input.
func (s Stdio) In() io.Reader {
	if s.Stdin == nil {
		return os.Stdin
	}
	return s.Stdin
}

// Out returns the standard output.
func (s Stdio) Out() io.Writer {
	if s.Stdout == nil {
		return os.Stdout
	}
	return s.Stdout
}

// Err returns the standard error.
func (s Stdio) Err() io.Writer {
	if s.Stderr == nil {
		return os.Stderr
	}
	return s.Stderr
}

// Env returns the value of the environment variable key.
func (s Stdio) Env(key string) string {
	if s.Getenv == nil {
		return os.Getenv(key)
	}
	return s.Getenv(key)
}

// IsTerminal reports whether f is a terminal (the TCGETS ioctl succeeds
// on it; a character device such as /dev/null is not one).
func IsTerminal(f interface{ Fd() uintptr }) bool {
	var t syscall.Termios
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), syscall.TCGETS, uintptr(unsafe.Pointer(&t)))
	return errno == 0
}

// Sleep waits for d or until ctx ends, and then returns ctx's error.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
