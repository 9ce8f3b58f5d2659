// Package kotlin renders a Provider's IR as Kotlin source for the ClawSeed
// Android SDK: an abstract base class over CetpV2ContentProvider holding the
// descriptor and the tools with their JSON schemas, typed data classes for
// every tool's input and output with conversion from and to the SDK's
// kotlinx.serialization.json types, one abstract typed method per tool with
// the dispatch in executeTool, the authorization and confirmation the spec
// already decides, the CETP v1 read-only subset for dual-stack Providers, a
// discovery Service, and a user-owned subclass skeleton written only once.
//
// The code is rendered from templates/kotlin with one view struct per
// template; this package prepares every name, literal and expression, so
// the templates only range over and test prepared fields. Every spec string
// reaches Kotlin through kotlinString (string literals) or kdoc (comments),
// and every name through an allocator that makes it a legal, unique Kotlin
// identifier while the JSON wire name stays exact.
package kotlin
