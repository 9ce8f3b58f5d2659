// Package templates embeds the text/template sources cetpgen renders:
// Kotlin, XML and the starter spec of `cetpgen init`. It holds data only;
// each template is rendered with a view struct of its own.
package templates

import "embed"

// FS holds every template, by path relative to this directory.
//
//go:embed init
//go:embed kotlin android
var FS embed.FS
