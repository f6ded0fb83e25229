package config

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/assent-sh/assent/jsonenc"
)

// InputSchema returns the JSON Schema of the tool's arguments: one property
// per parameter, required ones listed, and no other properties allowed. It
// is compact JSON with every object's keys in order, as json.Marshal writes
// a map: the bytes tools/list sends, written here without building the
// document first (a start with 200 tools spent a megabyte and a millisecond
// on maps that were encoded once and dropped).
func (t *Tool) InputSchema() json.RawMessage {
	names := make([]string, 0, len(t.Params)+1)
	byName := make(map[string]*Param, len(t.Params))
	for _, p := range t.Params {
		names = append(names, p.Name)
		byName[p.Name] = p
	}
	if t.system != nil {
		names = append(names, "env")
	}
	slices.Sort(names)
	b := make([]byte, 0, 128+256*len(names))
	b = append(b, `{"additionalProperties":false,"properties":{`...)
	for i, name := range names {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(jsonenc.String(b, name, true), ':')
		if p := byName[name]; p != nil {
			b = p.appendSchema(b)
			continue
		}
		b = append(b, `{"additionalProperties":{"type":"string"},"description":`...)
		b = jsonenc.String(b, "Extra environment variables ("+t.system.envList()+" allowed)", true)
		b = append(b, `,"type":"object"}`...)
	}
	b = append(b, `},"required":[`...)
	n := 0
	for _, p := range t.Params {
		if p.Required {
			if n > 0 {
				b = append(b, ',')
			}
			b = jsonenc.String(b, p.Name, true)
			n++
		}
	}
	return append(b, `],"type":"object"}`...)
}

// appendSchema appends the JSON Schema of one parameter, keys in order. A
// list is an array whose items carry the value's constraints; the
// description and the default are the list's.
func (p *Param) appendSchema(b []byte) []byte {
	b = append(b, '{')
	if p.Default != nil {
		b = appendJSON(append(b, `"default":`...), p.Default)
		b = append(b, ',')
	}
	if desc := p.schemaDescription(); desc != "" {
		b = jsonenc.String(append(b, `"description":`...), desc, true)
		b = append(b, ',')
	}
	if p.List {
		b = p.appendValueSchema(append(b, `"items":{`...))
		return append(b, `,"type":"array"}`...)
	}
	return p.appendValueSchema(b)
}

// appendValueSchema appends the keys of the schema one value of the
// parameter must meet, after its opening brace, and the closing one.
func (p *Param) appendValueSchema(b []byte) []byte {
	if len(p.Enum) > 0 {
		b = jsonenc.Strings(append(b, `"enum":`...), p.Enum, true)
		b = append(b, ',')
	}
	if p.Type == String || p.Type == Path {
		b = strconv.AppendInt(append(b, `"maxLength":`...), int64(p.maxLength()), 10)
		b = append(b, ',')
	}
	if p.Max != nil {
		b = appendJSON(append(b, `"maximum":`...), *p.Max)
		b = append(b, ',')
	}
	if p.Min != nil {
		b = appendJSON(append(b, `"minimum":`...), *p.Min)
		b = append(b, ',')
	}
	if p.Pattern != "" {
		b = jsonenc.String(append(b, `"pattern":`...), "^(?:"+p.Pattern+")$", true)
		b = append(b, ',')
	}
	b = jsonenc.String(append(b, `"type":`...), p.jsonType(), true)
	return append(b, '}')
}

// appendJSON appends a value a tool file gave (a default, a bound) as
// json.Marshal writes it. The value was read from JSON, so it has a JSON
// form.
func appendJSON(b []byte, v any) []byte {
	if out, ok := jsonenc.Value(b, v, true); ok {
		return out
	}
	enc, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("config: a value read from JSON has no JSON form: %v", err))
	}
	return append(b, enc...)
}

// schemaDescription is the parameter's description as its schema gives
// it, with what the schema's keywords cannot say in parentheses.
func (p *Param) schemaDescription() string {
	var note string
	switch {
	case p.Type == Path:
		note = "a path inside " + strings.Join(p.roots, " or ")
	case len(p.Flags) > 0:
		note = "may be one of the options " + strings.Join(p.Flags, ", ") + "; no other value may start with '-'"
	case p.Type == String && len(p.Enum) == 0 && p.Multiline:
		note = "newlines allowed"
	case p.Type == String && len(p.Enum) == 0:
		note = "a single line"
	}
	switch {
	case note == "":
		return p.Description
	case p.Description == "":
		return "(" + note + ")"
	}
	return p.Description + " (" + note + ")"
}

// Summary describes a parameter's type and constraints in one line, as
// `assent check` prints it.
func (p *Param) Summary() string {
	parts := []string{string(p.Type)}
	if p.List {
		parts[0] = "list of " + parts[0]
	}
	if p.Required {
		parts = append(parts, "required")
	} else {
		parts = append(parts, fmt.Sprintf("default %v", formatDefault(p.Default)))
	}
	if len(p.Enum) > 0 {
		parts = append(parts, "one of "+quoteList(p.Enum))
	}
	if p.Pattern != "" {
		parts = append(parts, "pattern "+p.Pattern)
	}
	if p.Min != nil {
		parts = append(parts, "min "+strconv.FormatFloat(*p.Min, 'f', -1, 64))
	}
	if p.Max != nil {
		parts = append(parts, "max "+strconv.FormatFloat(*p.Max, 'f', -1, 64))
	}
	if p.Type == String || p.Type == Path {
		parts = append(parts, fmt.Sprintf("max %d chars", p.maxLength()))
	}
	if p.Type == Path {
		parts = append(parts, "under "+strings.Join(p.roots, ", "))
	}
	if len(p.Flags) > 0 {
		parts = append(parts, "flags "+strings.Join(p.Flags, " "))
	}
	if p.Multiline {
		parts = append(parts, "multiline")
	}
	if p.Secret {
		parts = append(parts, "secret")
	}
	return strings.Join(parts, ", ")
}

func formatDefault(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("%q", x)
	case []any:
		if len(x) == 0 {
			return "[]"
		}
	}
	return fmt.Sprint(v)
}
