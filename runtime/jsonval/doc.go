// Package jsonval holds the JSON value types and codecs that generated Go
// code uses to keep every schema-valid value exactly: Int, an integer of
// any size decoded from any integral JSON number ("1.0", "1e2",
// "9007199254740993"); Int64, the same for integers whose schema bounds
// fit int64; Number, any JSON number kept exactly ("1e400",
// "0.10000000000000000001"); and MarshalObject and UnmarshalObject, which encode a struct
// together with the members its schema admits beyond the declared ones.
//
// JSON Schema counts every number with a zero fractional part as an
// integer, so a Consumer whose JSON writer prints 5.0 sends a valid
// integer; encoding/json refuses it for int64. These types accept it and
// encode the integer back in its shortest form (5), which is the same
// number.
package jsonval
