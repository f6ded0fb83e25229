package config

import (
	"fmt"
	"strconv"
	"strings"
)

// InputSchema returns the JSON Schema of the tool's arguments: one property
// per parameter, required ones listed, and no other properties allowed.
func (t *Tool) InputSchema() map[string]any {
	props := map[string]any{}
	required := []string{}
	for _, p := range t.Params {
		props[p.Name] = p.schema()
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
	return map[string]any{
		"type":                 "object",
		"properties":           props,
		"required":             required,
		"additionalProperties": false,
	}
}

// schema is the JSON Schema of one parameter.
func (p *Param) schema() map[string]any {
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
