package cetpcli

// App is the data table of one generated Consumer CLI.
type App struct {
	// Name is the root command's name (the binary's name).
	Name string
	// Short and Long are the root command's help.
	Short string
	Long  string
	// Product is the catalog product: the first word of every command
	// path. ProductShort is the help of the product's command.
	Product      string
	ProductShort string
	// ProviderID and Revision identify the Provider and the tool set the
	// CLI was generated from.
	ProviderID string
	Revision   string
	// SocketEnv names the environment variable that holds the default of
	// --socket.
	SocketEnv string
	// Commands are the tool commands, one per tool.
	Commands []Command
}

// Command is the leaf command of one tool.
type Command struct {
	// Path is the command's words below the root, starting with the
	// product ("alert create").
	Path string
	// Aliases are other full paths below the root that run the same tool.
	// One that differs from Path in its last word only becomes a cobra
	// alias; any other becomes a compatibility leaf with the same flags.
	Aliases []string
	// Canonical is the catalog's canonical path, recorded on the command
	// as its native identity annotation.
	Canonical string
	// Tool is the CETP tool name.
	Tool string
	// Short and Long are the command's help: the tool's title and
	// description.
	Short string
	Long  string
	// Flags are the flags derived from the input schema, by flag name.
	Flags []Flag
	// Required are the properties the input schema requires, by name; a
	// call without one of them fails before it is sent.
	Required []string
}

// Flag binds one command-line flag to one property of the args object.
type Flag struct {
	// Name is the flag's name, without the dashes.
	Name string
	// Property is the args property the flag sets.
	Property string
	// Kind is the type of the value, or of each item when List is set.
	Kind Kind
	// List makes the flag repeatable: each occurrence adds one item to an
	// array.
	List bool
	// Enum lists the values an Enum flag accepts.
	Enum []string
	// Default is the schema's default, shown in help; a flag that is not
	// given sends nothing and leaves the default to the Provider.
	Default string
	// Usage is the flag's help text.
	Usage string
}

// Kind is the type of a flag's value.
type Kind string

// The kinds of flag values.
const (
	// String is a JSON string, taken as written.
	String Kind = "string"
	// Integer is a JSON integer literal.
	Integer Kind = "integer"
	// Number is a JSON number literal, kept exactly as written.
	Number Kind = "number"
	// Boolean is true or false; the bare flag means true.
	Boolean Kind = "boolean"
	// Enum is a string from Flag.Enum.
	Enum Kind = "enum"
	// JSON is any JSON value, for a property that no other kind can hold
	// (objects, unions, arrays of objects).
	JSON Kind = "json"
)

// JSONFlag is the flag that takes the whole args object.
const JSONFlag = "json"

// SocketFlag is the persistent flag that names the Provider's socket.
const SocketFlag = "socket"

// TimeoutFlag is the persistent flag that bounds a whole call.
const TimeoutFlag = "timeout"

// RequestIDFlag is the persistent flag that runs a call under a given
// request ID: the ID a failed call printed resumes that call.
const RequestIDFlag = "request-id"

// ReservedFlags are flag names no property may take.
var ReservedFlags = []string{JSONFlag, SocketFlag, TimeoutFlag, RequestIDFlag, "help"}
