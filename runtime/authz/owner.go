package authz

import (
	"context"
	"slices"

	"github.com/cetpgen/cetpgen/runtime/protocol"
	"github.com/cetpgen/cetpgen/runtime/provider"
)

// Owner is an Authorizer under which one UID, normally the Provider's own
// (os.Getuid()), holds every scope of the catalogue and every other UID
// holds none.
type Owner struct {
	uid    int
	scopes []string
}

// NewOwner returns the Authorizer under which uid holds every scope in
// catalogue (provider.Descriptor.Scopes).
func NewOwner(uid int, catalogue []provider.Scope) Owner {
	names := make([]string, 0, len(catalogue))
	for _, s := range catalogue {
		names = append(names, s.Name)
	}
	slices.Sort(names)
	return Owner{uid: uid, scopes: slices.Compact(names)}
}

// UID returns the UID that holds every scope.
func (o Owner) UID() int { return o.uid }

// Scopes implements provider.Authorizer.
func (o Owner) Scopes(_ context.Context, c provider.Caller) ([]string, error) {
	if c.UID != o.uid {
		return nil, nil
	}
	return o.scopes, nil
}

// Resolution implements provider.Authorizer: there is no grant UI.
func (Owner) Resolution(context.Context, provider.Caller, provider.ToolInfo, []string) *protocol.Resolution {
	return nil
}

// Launch implements provider.Authorizer; it is never reached, since
// Resolution returns none.
func (Owner) Launch(context.Context, provider.Caller, *protocol.Resolution) error {
	return noUI()
}

func noUI() error {
	return protocol.NewError(protocol.CodePermissionDenied, "this Provider has no authorization UI")
}

// Union is an Authorizer under which a caller holds every scope that any
// of its members grants. A member that fails makes the whole answer fail
// (the engine answers UNAVAILABLE), so a broken grants file is seen at
// once rather than read as a revocation.
type Union []provider.Authorizer

// Scopes implements provider.Authorizer.
func (u Union) Scopes(ctx context.Context, c provider.Caller) ([]string, error) {
	var all []string
	for _, a := range u {
		s, err := a.Scopes(ctx, c)
		if err != nil {
			return nil, err
		}
		all = append(all, s...)
	}
	slices.Sort(all)
	return slices.Compact(all), nil
}

// Resolution implements provider.Authorizer: the first member that offers
// a resolution for the missing scopes is asked.
func (u Union) Resolution(ctx context.Context, c provider.Caller, t provider.ToolInfo, missing []string) *protocol.Resolution {
	for _, a := range u {
		if r := a.Resolution(ctx, c, t, missing); r != nil {
			return r
		}
	}
	return nil
}

// Launch implements provider.Authorizer: every member is tried until one
// launches r.
func (u Union) Launch(ctx context.Context, c provider.Caller, r *protocol.Resolution) error {
	err := noUI()
	for _, a := range u {
		if err = a.Launch(ctx, c, r); err == nil {
			return nil
		}
	}
	return err
}
