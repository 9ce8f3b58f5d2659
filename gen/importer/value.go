package importer

import (
	"encoding/json"
	"slices"
	"strconv"
)

// object is a JSON object that keeps the order of its keys, so that an
// imported schema reads like its source (properties in the order their
// author wrote them). Keys are unique.
type object struct {
	keys []string
	vals map[string]any
}

func newObject() *object { return &object{vals: map[string]any{}} }

// get returns the value of k.
func (o *object) get(k string) (any, bool) {
	v, ok := o.vals[k]
	return v, ok
}

// has reports whether o holds k.
func (o *object) has(k string) bool {
	_, ok := o.vals[k]
	return ok
}

// set sets k, appending it when new.
func (o *object) set(k string, v any) {
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

// del removes k.
func (o *object) del(k string) {
	if _, ok := o.vals[k]; !ok {
		return
	}
	delete(o.vals, k)
	o.keys = slices.DeleteFunc(o.keys, func(s string) bool { return s == k })
}

// rename moves the value of from to the new key to, in from's place. to
// must not be present.
func (o *object) rename(from, to string) {
	v, ok := o.vals[from]
	if !ok {
		return
	}
	delete(o.vals, from)
	o.vals[to] = v
	o.keys[slices.Index(o.keys, from)] = to
}

// str returns the string value of k, or "".
func (o *object) str(k string) string {
	s, _ := o.vals[k].(string)
	return s
}

// plain converts v to the plain Go form the spec packages use
// (map[string]any), for comparisons.
func plain(v any) any {
	switch x := v.(type) {
	case *object:
		m := make(map[string]any, len(x.keys))
		for _, k := range x.keys {
			m[k] = plain(x.vals[k])
		}
		return m
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = plain(e)
		}
		return out
	}
	return v
}

func sortStrings(s []string) { slices.Sort(s) }

func jsonNumber(i int) any { return json.Number(strconv.Itoa(i)) }
