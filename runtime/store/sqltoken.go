package store

import (
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// SelectTokenSQL selects every column of a token row from the cetp_tokens
// table the SQL stores share; a store appends its WHERE condition in its
// own placeholder syntax.
const SelectTokenSQL = `SELECT hash, id, kind, caller, provider, request_id, tool, args_digest, args, decision, used, expires_ms
FROM cetp_tokens WHERE `

// ScanToken reads the token row that a SelectTokenSQL query returned. A
// missing row is ErrNotFound.
func ScanToken(row *sql.Row) (Token, error) {
	var t Token
	var hash, digest []byte
	var expires int64
	err := row.Scan(&hash, &t.ID, &t.Kind, &t.Key.Caller, &t.Key.Provider, &t.Key.RequestID,
		&t.Binding.Tool, &digest, &t.Args, &t.Decision, &t.Used, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return t, ErrNotFound
	}
	if err != nil {
		return t, err
	}
	if len(hash) != len(t.Hash) || len(digest) != len(t.Binding.ArgsDigest) {
		return t, fmt.Errorf("corrupt digest in token %s", t.ID)
	}
	copy(t.Hash[:], hash)
	copy(t.Binding.ArgsDigest[:], digest)
	t.ExpiresAt = time.UnixMilli(expires)
	return t, nil
}
