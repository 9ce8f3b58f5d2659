package serve

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
)

// Flags are the settings every server reads from its command line.
type Flags struct {
	// Socket is the path of the Unix socket to serve (--socket).
	Socket string
	// DB is the store's DSN (--db): a SQLite file path (sqlite:PATH and
	// file:PATH too), or a postgres:// or postgresql:// URL.
	DB string
	// SocketMode is the socket file's mode (--socket-mode, octal). 0600
	// lets only the server's UID connect; callers of other UIDs named in a
	// grants file need a mode that lets them in, such as 0666.
	SocketMode os.FileMode
	// LogFormat is text or json (--log-format).
	LogFormat string
	// Grants is the path of a grants file (--grants); empty, only the
	// server's UID holds scopes.
	Grants string
	// AutoDeny denies every confirmation without asking (--auto-deny); it
	// is the behaviour whenever stdin is not a terminal.
	AutoDeny bool
}

// Defaults are the flags' values when neither the command line nor
// Server.Defaults sets them, for a server called name.
func Defaults(name string) Flags {
	return Flags{Socket: filepath.Join(os.TempDir(), name+".sock"), DB: name + ".db", SocketMode: 0o600, LogFormat: "text"}
}

// withDefaults fills the zero fields of f from d.
func (f Flags) withDefaults(d Flags) Flags {
	if f.Socket == "" {
		f.Socket = d.Socket
	}
	if f.DB == "" {
		f.DB = d.DB
	}
	if f.SocketMode == 0 {
		f.SocketMode = d.SocketMode
	}
	if f.LogFormat == "" {
		f.LogFormat = d.LogFormat
	}
	return f
}

// Register adds the common flags to fs, with f's current values as their
// defaults; parsing fs fills f.
func (f *Flags) Register(fs *flag.FlagSet) {
	fs.StringVar(&f.Socket, "socket", f.Socket, "path of the Unix socket to serve")
	fs.StringVar(&f.DB, "db", f.DB, "store DSN: a SQLite file path, or a postgres:// URL for the shared store")
	fs.Var((*modeValue)(&f.SocketMode), "socket-mode", "file mode of the socket, octal (0600: only this UID may connect)")
	fs.Var((*formatValue)(&f.LogFormat), "log-format", "log format on stderr: text or json")
	fs.StringVar(&f.Grants, "grants", f.Grants, "grants file: the scopes of callers other than this UID (re-read on change)")
	fs.BoolVar(&f.AutoDeny, "auto-deny", f.AutoDeny, "deny every confirmation without asking (the default when stdin is not a terminal)")
}

// errUsage is a command line that cannot be served; the message was
// printed.
var errUsage = errors.New("usage")

// parseFlags parses args into the common flags (defaults d) and the
// server's own (add); it prints usage errors on stderr.
func parseFlags(name string, args []string, d Flags, add func(*flag.FlagSet), stderr io.Writer) (Flags, error) {
	f := d
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	f.Register(fs)
	if add != nil {
		add(fs)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return f, err
		}
		return f, errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "%s: unexpected argument %q\n", name, fs.Arg(0))
		fs.Usage()
		return f, errUsage
	}
	return f, nil
}

// modeValue is a file mode given in octal.
type modeValue os.FileMode

func (m *modeValue) String() string { return fmt.Sprintf("%04o", uint32(*m)) }

func (m *modeValue) Set(s string) error {
	v, err := strconv.ParseUint(s, 8, 32)
	if err != nil || v > 0o777 {
		return errors.New("want an octal mode such as 0600 or 0666")
	}
	if v&0o600 != 0o600 {
		return errors.New("the mode must let the server's own UID read and write (0600)")
	}
	*m = modeValue(v)
	return nil
}

// formatValue is a log format.
type formatValue string

func (f *formatValue) String() string { return string(*f) }

func (f *formatValue) Set(s string) error {
	if s != "text" && s != "json" {
		return errors.New("want text or json")
	}
	*f = formatValue(s)
	return nil
}
