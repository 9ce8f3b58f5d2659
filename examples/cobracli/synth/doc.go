// Package synth builds a synthetic Cobra CLI of any size with realistic
// flags and every catalog source filled (registry, aliases, exclusions,
// reviewed metadata and selection, bindings, typed metadata, pinned CETP
// interfaces), for the catalog benchmarks in BENCHMARKS.md.
package synth
