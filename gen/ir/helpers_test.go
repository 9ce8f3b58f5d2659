package ir_test

import "encoding/json"

func json1(s string) json.Number { return json.Number(s) }
