// Package examples holds the example tool files, and embeds the default
// pack so that assent runs on a fresh machine with no configuration.
package examples

import (
	_ "embed"
)

//go:embed default.json
var defaultPack []byte

// DefaultName is how the embedded default pack is named in messages.
const DefaultName = "(embedded) examples/default.json"

// DefaultPack returns the embedded default tool pack and policy.
func DefaultPack() []byte {
	return append([]byte(nil), defaultPack...)
}
