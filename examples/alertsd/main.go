package main

import (
	"flag"
	"fmt"
	"time"

	"github.com/cetpgen/cetpgen/out/go/alerts"
	"github.com/cetpgen/cetpgen/runtime/confirm"
	"github.com/cetpgen/cetpgen/runtime/provider"
	"github.com/cetpgen/cetpgen/runtime/serve"
	"github.com/cetpgen/cetpgen/runtime/store/pgstore"
	"github.com/cetpgen/cetpgen/runtime/store/sqlitestore"
)

func main() { serve.Main(server()) }

// server is alertsd: the common serve flags, two of its own, and the
// alerts handler on the same database as the runtime store.
func server() serve.Server {
	workDelay, pollAfter := 2*time.Second, 250*time.Millisecond
	return serve.Server{
		Name:       "alertsd",
		Descriptor: alerts.Descriptor(),
		Defaults:   serve.Flags{Socket: "/tmp/alerts.sock", DB: "alerts.db"},
		AddFlags: func(fs *flag.FlagSet) {
			fs.DurationVar(&workDelay, "work-delay", workDelay, "how long create_alert works before it saves, reporting progress")
			fs.DurationVar(&pollAfter, "poll-after", pollAfter, "poll_after_ms the Provider suggests for operations")
		},
		Options: provider.Options{ConfirmPolicy: confirm.OnlyAlways},
		Tools: func(env serve.Env) ([]provider.Tool, error) {
			h, err := newHandler(env, workDelay)
			if err != nil {
				return nil, err
			}
			env.Options.PollAfter = pollAfter
			return alerts.Tools(h), nil
		},
	}
}

// newHandler creates the alerts table in the store's database and returns
// the handler on it.
func newHandler(env serve.Env, delay time.Duration) (*handler, error) {
	h := &handler{delay: delay, now: time.Now}
	switch st := env.Store.(type) {
	case *sqlitestore.Store:
		h.db = st.DB()
	case *pgstore.Store:
		h.db, h.dialect = st.DB(), dialect{postgres: true}
	default:
		return nil, fmt.Errorf("alertsd keeps its alerts in SQL; the store %T has no database", env.Store)
	}
	if err := createSchema(env.Context, h.db); err != nil {
		return nil, err
	}
	return h, nil
}
