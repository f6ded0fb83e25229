// Package examples holds the example tool files, and embeds the default
// pack so that assent runs on a fresh machine with no configuration, and the
// starter configuration `assent init` writes.
package examples

import (
	"embed"
	"io/fs"
	"strings"
)

// defaultPack is a string, so it cannot be changed: every caller gets its
// own copy of the bytes.
//
//go:embed default.json
var defaultPack string

// starter is read-only by construction, like defaultPack.
//
//go:embed starter
var starter embed.FS

// DefaultName is how the embedded default pack is named in messages.
const DefaultName = "(embedded) examples/default.json"

// DefaultPack returns the embedded default tool pack. It holds tools only:
// the default policy is assent's built-in rules, which apply to every tool
// set.
func DefaultPack() []byte {
	return []byte(defaultPack)
}

// StarterFile is one file of the starter configuration.
type StarterFile struct {
	// Name is the file's path relative to the configuration directory,
	// with '/' between its parts: "tools.json", "tools.d/default.md",
	// "policy.json".
	Name string
	// Data is the file's contents.
	Data []byte
}

// Starter returns the starter configuration `assent init` writes into the
// configuration directory, in name order: the seed's simple form
// (tools.json), the default pack as a commented Markdown tool file
// (tools.d/default.md) and a policy file with one example rule
// (policy.json). Each call returns fresh copies.
func Starter() []StarterFile {
	var out []StarterFile
	// The walk cannot fail on an embedded tree; an error would only mean a
	// file this package embeds is missing, which the tests rule out.
	_ = fs.WalkDir(starter, "starter", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := starter.ReadFile(name)
		if err != nil {
			return err
		}
		out = append(out, StarterFile{Name: strings.TrimPrefix(name, "starter/"), Data: data})
		return nil
	})
	return out
}
