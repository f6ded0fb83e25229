// Package examples holds the example tool files, and embeds the default
// pack so that assent runs on a fresh machine with no configuration.
package examples

import (
	_ "embed"
)

// defaultPack is a string, so it cannot be changed: every caller gets its
// own copy of the bytes.
//
//go:embed default.json
var defaultPack string

// DefaultName is how the embedded default pack is named in messages.
const DefaultName = "(embedded) examples/default.json"

// DefaultPack returns the embedded default tool pack and policy.
func DefaultPack() []byte {
	return []byte(defaultPack)
}
