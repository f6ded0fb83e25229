package config

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// schemaDocument is the input schema built as a document, the way
// InputSchema once built it before encoding: the reference the written
// schema is held to, through json.Marshal.
func schemaDocument(t *Tool) map[string]any {
	props := map[string]any{}
	required := []string{}
	for _, p := range t.Params {
		props[p.Name] = paramDocument(p)
		if p.Required {
			required = append(required, p.Name)
		}
	}
	if t.system != nil {
		props["env"] = map[string]any{
			"type":                 "object",
			"description":          "Extra environment variables (" + t.system.envList() + " allowed)",
			"additionalProperties": map[string]any{"type": "string"},
		}
	}
	return map[string]any{"type": "object", "properties": props, "required": required, "additionalProperties": false}
}

func paramDocument(p *Param) map[string]any {
	item := map[string]any{"type": p.jsonType()}
	var notes []string
	if len(p.Enum) > 0 {
		item["enum"] = p.Enum
	}
	if p.Pattern != "" {
		item["pattern"] = "^(?:" + p.Pattern + ")$"
	}
	if p.Min != nil {
		item["minimum"] = *p.Min
	}
	if p.Max != nil {
		item["maximum"] = *p.Max
	}
	if p.Type == String || p.Type == Path {
		item["maxLength"] = p.maxLength()
	}
	switch {
	case p.Type == Path:
		notes = append(notes, "a path inside "+strings.Join(p.roots, " or "))
	case len(p.Flags) > 0:
		notes = append(notes, "may be one of the options "+strings.Join(p.Flags, ", ")+"; no other value may start with '-'")
	case p.Type == String && len(p.Enum) == 0:
		if p.Multiline {
			notes = append(notes, "newlines allowed")
		} else {
			notes = append(notes, "a single line")
		}
	}
	desc := p.Description
	if len(notes) > 0 {
		if desc != "" {
			desc += " "
		}
		desc += "(" + strings.Join(notes, "; ") + ")"
	}
	s := item
	if p.List {
		s = map[string]any{"type": "array", "items": item}
	}
	if desc != "" {
		s["description"] = desc
	}
	if p.Default != nil {
		s["default"] = p.Default
	}
	return s
}

// checkSchema fails t unless tl's written schema is the document's, as
// json.Marshal writes it.
func checkSchema(t *testing.T, tl *Tool) {
	t.Helper()
	want, err := json.Marshal(schemaDocument(tl))
	if err != nil {
		t.Fatal(err)
	}
	if got := tl.InputSchema(); !bytes.Equal(got, want) {
		t.Errorf("tool %s: schema\n%s\njson.Marshal of the document\n%s", tl.Name, got, want)
	}
}

func TestInputSchema_IsTheDocumentAsJSONMarshalWritesIt(t *testing.T) {
	opts := testOptions(t)
	for _, text := range []string{
		`{"settings": {"system_command": {"allow": ["uname"], "env": ["TZ", "LC_ALL"]}},
	  "tools": [{"name": "t", "description": "<all> & \"kinds\"", "command": ["uname", "{s}", "{i}", "{n}", "{b}", "{e}", "{l...}", "{p}", "{f}", "{r}", "{m...}"],
	  "params": {
	    "s": {"type": "string", "pattern": "[a-z<>&]+", "max_length": 10, "default": "a<b>", "description": "é \u2028"},
	    "i": {"type": "integer", "min": -5, "max": 1e3, "default": 7},
	    "n": {"type": "number", "min": -1e21, "max": 0.000000125, "default": -0.5e-7},
	    "b": {"type": "boolean", "default": false},
	    "e": {"type": "enum", "enum": ["fast", "-s", "slow"], "default": "fast", "description": "speed"},
	    "l": {"type": "string", "required": false, "multiline": true},
	    "p": {"type": "path", "default": ".", "description": "where"},
	    "f": {"type": "string", "flags": ["-v", "--all"], "default": "-v"},
	    "r": {"type": "string", "required": true, "enum": ["a", "b"]},
	    "m": {"type": "integer", "min": 0, "default": [1, 2], "description": "counts"}
	  }}]}`,
		`[{"name": "bare", "command": "uname"}, {"name": "one", "command": "uname {x}"},
	  {"name": "paths", "command": "ls -- {p...}", "params": {"p": {"type": "path", "required": true}}}]`,
	} {
		for _, tl := range mustLoad(t, opts, "tools.json", text).Tools {
			checkSchema(t, tl)
		}
	}
}
