package ir

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// KotlinNames are a Provider's top-level Kotlin declarations besides its
// schema types, all derived from the spec's Kotlin class.
type KotlinNames struct {
	// Class is the app's Provider class and Base the generated class it
	// extends; Service is Targets.KotlinService.
	Class, Base, Service string
	// Json holds the shape checks; Optional, Reply and Confirmation are
	// the support types; Schemas holds one schema holder per tool; Store
	// is the durable state on the app's SQLiteDatabase.
	Json, Optional, Reply, Confirmation, Schemas, Store string
	// Validators holds the generated schema checks and Validation their
	// keyword primitives.
	Validators, Validation string
	// QualifiedClass and QualifiedService are Class and Service with the
	// Kotlin package: the JVM names the Android manifest declares.
	QualifiedClass, QualifiedService string
}

// all lists the names, which schema types never take.
func (k KotlinNames) all() []string {
	return []string{k.Class, k.Base, k.Service, k.Json, k.Optional, k.Reply, k.Confirmation, k.Schemas, k.Store, k.Validators, k.Validation}
}

// kotlinNames derives the Provider-level Kotlin names from the targets.
func kotlinNames(t Targets) KotlinNames {
	c := t.KotlinClass
	return KotlinNames{
		Class: c, Base: c + "Base", Service: t.KotlinService, Json: c + "Json",
		Optional: c + "Optional", Reply: c + "Reply", Confirmation: c + "Confirmation", Schemas: c + "Schemas",
		Store: c + "Store", Validators: c + "Validators", Validation: c + "Validation",
		QualifiedClass: t.KotlinPackage + "." + c, QualifiedService: t.KotlinPackage + "." + t.KotlinService,
	}
}

// KotlinReserved are the names a generated Kotlin type never takes: the
// Kotlin and JSON types the generated code uses, and the names its files
// import explicitly (an import beats a declaration of the same package).
var KotlinReserved = []string{
	"Any", "Array", "Boolean", "Int", "Long", "String", "List", "Map", "Set",
	"LinkedHashMap", "Unit", "Nothing", "Pair", "Charsets", "System",
	"Exception", "IllegalArgumentException", "ArithmeticException",
	"Companion", "Json", "JsonElement", "JsonObject", "JsonArray",
	"JsonPrimitive", "JsonNull", "BigDecimal", "BigInteger", "Input", "Output",
	"Bundle", "PendingIntent", "Service", "Intent", "IBinder",
	"CetpAccessDecision", "CetpCallerIdentity", "CetpLimits",
	"CetpMutationExecutor", "CetpProviderDescriptor", "CetpProviderOperation", "CetpProviderRequest",
	"CetpProviderResult", "CetpProviderTool", "CetpV2ContentProvider",
	"ConfirmationPolicy", "ExecutionMode", "ProviderScope", "ScopeAccess",
	"ScopeSensitivity", "ToolAnnotations", "ToolEffect", "ToolRisk",
}

// kotlinBaseMembers are the members of the generated base class and of
// the SDK and Android classes above it: a tool method never takes them.
var kotlinBaseMembers = []string{
	"provider", "providerTools", "mutationExecutor", "sessionTtlMillis",
	"onCetpCreate", "handleV1Call", "canDiscoverTool", "authorize",
	"executeTool", "getOperation", "cancelOperation", "onCreate", "call",
	"query", "getType", "insert", "delete", "update", "getContext",
	"holdsScope", "onMissingScopes", "confirm", "confirmByPolicy",
	"durableStore", "confirmationIntent", "confirmWithUser",
	"equals", "hashCode", "toString",
}

// kotlinMembers are the names a data class property never takes: the
// class's own functions.
var kotlinMembers = []string{"toJson", "copy", "equals", "hashCode", "toString"}

// kotlinExport converts any string to a Kotlin type name: words are split
// at every rune that is neither a letter nor a digit and each is
// capitalized (no Go initialisms: alert_id -> AlertId); a result that does
// not start with a letter gets the prefix "X".
func kotlinExport(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 1)
	for w := range eachWord(s) {
		r, n := utf8.DecodeRuneInString(w)
		b.WriteRune(unicode.ToUpper(r))
		b.WriteString(w[n:])
	}
	name := b.String()
	if r, _ := utf8.DecodeRuneInString(name); !unicode.IsLetter(r) {
		name = "X" + name
	}
	return name
}

// kotlinMember converts any string to a Kotlin property or function name.
func kotlinMember(s string) string { return unexport(kotlinExport(s)) }

// kotlinConst converts an enum value to an UPPER_SNAKE constant name; one
// that does not start with a letter gets the prefix "V" ("V_" when empty).
func kotlinConst(s string) string {
	ws := words(s)
	for i, w := range ws {
		ws[i] = strings.ToUpper(w)
	}
	name := strings.Join(ws, "_")
	if name == "" {
		return "V_"
	}
	if r, _ := utf8.DecodeRuneInString(name); !unicode.IsLetter(r) {
		name = "V" + name
	}
	return name
}
