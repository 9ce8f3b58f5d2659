package pgstore

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/cetpgen/cetpgen/runtime/store"
)

type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// useToken marks a token used if it is unused, unexpired and carries the
// decision. Under READ COMMITTED a concurrent use waits for this one and
// then re-checks the condition on the new row, so a token is used once.
func useToken(ctx context.Context, e execer, use store.TokenUse) error {
	res, err := e.ExecContext(ctx, `UPDATE cetp_tokens SET used = true
WHERE hash = $1 AND NOT used AND decision = $2 AND expires_ms > $3`, use.Hash[:], string(use.Decision), use.Now.UnixMilli())
	if err != nil {
		return fmt.Errorf("pgstore: use token: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return fmt.Errorf("pgstore: use token: %w", store.ErrTokenUnusable)
	}
	return nil
}

// CreateToken implements store.Store.
func (s *Store) CreateToken(ctx context.Context, t store.Token) (err error) {
	defer func() { err = fault(ctx, err) }()
	_, err = s.db.ExecContext(ctx, `INSERT INTO cetp_tokens
(hash, id, kind, caller, provider, request_id, tool, args_digest, args, decision, used, expires_ms)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, false, $11)`,
		t.Hash[:], t.ID, string(t.Kind), t.Key.Caller, t.Key.Provider, t.Key.RequestID, t.Binding.Tool,
		t.Binding.ArgsDigest[:], t.Args, string(t.Decision), t.ExpiresAt.UnixMilli())
	if err != nil {
		return fmt.Errorf("pgstore: create token: %w", err)
	}
	return nil
}

func (s *Store) token(ctx context.Context, where string, arg any) (_ store.Token, err error) {
	defer func() { err = fault(ctx, err) }()
	t, err := store.ScanToken(s.db.QueryRowContext(ctx, store.SelectTokenSQL+where, arg))
	if err != nil {
		return t, fmt.Errorf("pgstore: token: %w", err)
	}
	return t, nil
}

// TokenByHash implements store.Store.
func (s *Store) TokenByHash(ctx context.Context, hash store.Digest) (store.Token, error) {
	return s.token(ctx, "hash = $1", hash[:])
}

// TokenByID implements store.Store.
func (s *Store) TokenByID(ctx context.Context, id string) (store.Token, error) {
	return s.token(ctx, "id = $1", id)
}

// Decide implements store.Store.
func (s *Store) Decide(ctx context.Context, id string, d store.Decision, now time.Time) (err error) {
	defer func() { err = fault(ctx, err) }()
	res, err := s.db.ExecContext(ctx, `UPDATE cetp_tokens SET decision = $1
WHERE id = $2 AND NOT used AND decision = 'pending' AND expires_ms > $3`, string(d), id, now.UnixMilli())
	if err != nil {
		return fmt.Errorf("pgstore: decide %q: %w", id, err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return fmt.Errorf("pgstore: decide %q: %w", id, store.ErrTokenUnusable)
	}
	return nil
}

// ConsumeToken implements store.Store.
func (s *Store) ConsumeToken(ctx context.Context, use store.TokenUse) (err error) {
	defer func() { err = fault(ctx, err) }()
	return useToken(ctx, s.db, use)
}
