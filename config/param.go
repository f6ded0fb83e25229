package config

import (
	"regexp"
)

// Type is the type of a parameter's value.
type Type string

// Parameter types. A list placeholder {name...} takes an array whose items
// have the parameter's type.
const (
	// String is text (the default). It must be clean text: no control,
	// bidi or invisible characters; newline and tab only with Multiline.
	String Type = "string"
	// Integer is a whole number, written in decimal.
	Integer Type = "integer"
	// Number is a decimal number.
	Number Type = "number"
	// Boolean is true or false, written as the words "true" and "false".
	Boolean Type = "boolean"
	// Enum is one of the strings listed in Enum.
	Enum Type = "enum"
	// Path is a file system path. The value is made absolute, symlinks are
	// resolved, and the result must lie inside one of Under; the resolved
	// path is what the program receives.
	Path Type = "path"
)

// Default limits applied when a parameter does not set its own.
const (
	// DefaultMaxLength is the longest single-line string value, in characters.
	DefaultMaxLength = 4096
	// DefaultMaxLengthMultiline is the longest multiline value, in characters.
	DefaultMaxLengthMultiline = 1 << 20
)

// Param declares one parameter of a tool. Every placeholder in a tool's
// templates is a parameter; one that is not declared is a required,
// single-line string (a path, when it is the working directory; multiline,
// when it is used only in stdin).
//
// In a tool file, parameters are declared under "params", keyed by name:
//
//	"params": {"path": {"type": "path", "under": ["."], "default": "."}}
type Param struct {
	// Name is the placeholder name, as in {name}.
	Name string
	// Type is the value's type: string, integer, number, boolean, enum or
	// path ("type"; default string).
	Type Type
	// List is true when the placeholder is written {name...}: the value is a
	// JSON array and each item becomes one argv element.
	List bool
	// Description tells the agent what to pass ("description").
	Description string
	// Default is used when the agent omits the parameter ("default"). A
	// parameter with a default is optional; one without is required.
	Default any
	// Required is true when the agent must pass a value ("required"; true
	// unless a default is given). An optional parameter needs a default,
	// because leaving out a word would shift the words after it.
	Required bool
	// Enum lists the allowed values ("enum"); for type enum it is required,
	// for strings it further restricts them.
	Enum []string
	// Pattern is an RE2 expression the whole value must match ("pattern";
	// anchored at both ends whether or not it says so). For a path it is
	// matched against the resolved path, relative to the root it lies in.
	Pattern string
	// Min and Max bound a number or integer ("min", "max").
	Min, Max *float64
	// MaxLength bounds a string in characters ("max_length"; default 4096,
	// or 1 MiB when Multiline).
	MaxLength int
	// Under lists the directories a path must lie in ("under"; default the
	// directory assent runs in). Relative roots are taken from there.
	Under []string
	// Flags lists the exact option tokens a whole-word slot may carry
	// ("flags"), such as ["-i", "--ignore-case"]. Any other value that
	// starts with '-' is refused.
	Flags []string
	// Multiline admits newline, tab and CRLF in the value ("multiline").
	Multiline bool
	// Secret marks a value to be masked in the console and stored only as a
	// keyed hash in the journal ("secret").
	Secret bool

	pattern *regexp.Regexp
	roots   []string // Under, absolute and with symlinks resolved
	minSet  bool     // Min was declared (negative numbers may fill whole words)
}

// maxLength returns the effective length limit in characters.
func (p *Param) maxLength() int {
	switch {
	case p.MaxLength > 0:
		return p.MaxLength
	case p.Multiline:
		return DefaultMaxLengthMultiline
	}
	return DefaultMaxLength
}

// jsonType is the JSON Schema type of one value of the parameter.
func (p *Param) jsonType() string {
	switch p.Type {
	case Integer:
		return "integer"
	case Number:
		return "number"
	case Boolean:
		return "boolean"
	}
	return "string"
}
