package golang

import (
	"bytes"
	"go/format"
	"testing"
)

// FuzzLayUnit proves that whatever source the fast layout accepts, it
// lays out in the bytes go/format prints for it, starting from units in
// jennifer's unformatted style.
func FuzzLayUnit(f *testing.F) {
	for _, seed := range []string{
		"// T is a type.\ntype T struct{\n// C carries the calls.\nC * consumer.Client\nLongName map[string] json.RawMessage `json:\"x\"`\nB [] byte `json:\"b,omitzero\"`\n}\n",
		"// N.\nfunc NewClient (c * consumer.Client) * Client {\nreturn & Client {C:c}\n}\n",
		"// M.\nfunc (v * T) UnmarshalJSON (data [] byte) error {\ntype plain T\nreturn jsonval.UnmarshalObject (data,(* plain) (v),[] string {\"a\",\"b\"},nil,& v . Extra)\n}\n",
		"// K.\ntype K string\n// The values of K.\nconst (\nKAlpha K = \"alpha\"\nKB K = \"b\"\n)\n",
		"// D.\nfunc D () provider.Descriptor {\nreturn provider.Descriptor {\nCapabilities:[] string {\"a\",\"b\"},\nID:\"x\",\nLimits:provider.Limits {\nMaxRequestBytes:65536,\n},\nName:\"n\",\n}\n}\n",
		"// A.\nfunc adapt [In,Out any] (m func (context.Context,* provider.Call,In) (Out,error)) provider.Handler {\nreturn func (ctx context.Context,args json.RawMessage) (json.RawMessage,error) {\nvar in In\nif err := json.Unmarshal (args,& in);err != nil {\nreturn nil,err\n}\nreturn json.Marshal (in)\n}\n}\n",
		"// S.\nfunc (u U) MarshalJSON () ([] byte,error) {\nswitch  {\ncase u.A != nil:\nreturn json.Marshal (u.A)\n}\nreturn nil,errors.New (\"none\")\n}\n",
		"// H handles.\ntype H interface {\n// Do does.\n//\n// More.\nDo (ctx context.Context,in X) (Y,error)\n}\n",
		"// G.\ntype G[T any]struct {\nValue T\nSet bool\n}\n",
		// Found in review, once laid out unlike gofmt: keys of several
		// tokens, a leading variadic, a named array length, a blank line
		// between declarations, parentheses gofmt drops.
		"var m = map[string]int{\npkg.A:1,\npkg.LongName:2,\n}\n",
		"var m = map[int]string{\n-1:\"a\",\n100:\"b\",\n}\n",
		"func f (...string) {}\n",
		"type F func (...any) error\n",
		"func f (buf [N] byte) {}\n",
		"var x [N] int\n",
		"type A int\n\ntype B int\n",
		"func f () {\nif (x) {\nreturn\n}\n}\n",
		"func f () {\nx := ((y))\n}\n",
		"var _ = ((* T)) (nil)\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		got, ok := layUnit([]byte(src))
		if !ok {
			return
		}
		want, err := format.Source([]byte("package x\n\n" + src))
		if err != nil {
			return // not Go: jennifer never renders it
		}
		want = bytes.TrimPrefix(bytes.TrimPrefix(want, []byte("package x\n")), []byte("\n"))
		if !bytes.Equal(got, want) {
			t.Fatalf("laid out\n%s\ngofmt prints\n%s", got, want)
		}
	})
}
