package jsonval

import (
	"database/sql/driver"
	"fmt"
)

// Value stores the canonical literal, so a database keeps the number
// exactly in a text column; a numeric column converts it as it converts
// any numeric text.
func (n Number) Value() (driver.Value, error) { return n.String(), nil }

// Scan reads a number stored as text (the literal Value writes), as a
// float64 (the shortest decimal that reads back as it) or as an int64.
func (n *Number) Scan(src any) error {
	var (
		v   Number
		err error
	)
	switch s := src.(type) {
	case string:
		v, err = ParseNumber(s)
	case []byte:
		v, err = ParseNumber(string(s))
	case float64:
		v, err = NumberFromFloat(s)
	case int64:
		v = NumberFromInt(s)
	default:
		err = fmt.Errorf("jsonval: cannot read a number from %T", src)
	}
	if err != nil {
		return err
	}
	*n = v
	return nil
}
