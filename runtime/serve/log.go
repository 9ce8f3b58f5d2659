package serve

import (
	"io"
	"log/slog"
)

// newLogger returns the server's logger on w in format (text or json).
func newLogger(w io.Writer, format string) *slog.Logger {
	opt := &slog.HandlerOptions{Level: slog.LevelInfo}
	if format == "json" {
		return slog.New(slog.NewJSONHandler(w, opt))
	}
	return slog.New(slog.NewTextHandler(w, opt))
}
