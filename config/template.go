package config

import (
	"fmt"
	"strings"
)

// part is a piece of a template word: fixed text or a placeholder.
type part struct {
	text  string // fixed text, when param is ""
	param string // placeholder name
	list  bool   // {name...}: one argv element per item
}

// word is a template for one string: an argv element, the working
// directory, an environment value or the stdin text. A placeholder fills
// only its own word, so a value can never add or remove a word.
type word []part

// isName reports whether s is a valid placeholder or parameter name.
func isName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for i, r := range s {
		ok := r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (i > 0 && r >= '0' && r <= '9')
		if !ok {
			return false
		}
	}
	return true
}

// parseWord finds placeholders in one word. `{name}` is a placeholder and
// `{name...}` a list placeholder; `{}` stays literal (find's `-exec … {}`),
// `{{` and `}}` are a literal `{` and `}`, and any other brace is literal
// text. A list placeholder must be the whole word: it expands to one element
// per item, so text around it would have no single word to attach to.
func parseWord(s string) (word, error) {
	_, w, err := appendWord(nil, s)
	return w, err
}

// appendWord is parseWord with the word's parts appended to parts, so that
// the words of a command share one array, not an allocation each. It
// returns parts with the word's added and the word, which has no room
// beyond its length.
func appendWord(parts []part, s string) ([]part, word, error) {
	start := len(parts)
	if s != "" && strings.IndexAny(s, "{}") < 0 {
		parts = append(parts, part{text: s}) // most words of a command are plain text
		return parts, parts[start:len(parts):len(parts)], nil
	}
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			parts = append(parts, part{text: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '{' && strings.HasPrefix(s[i:], "{{"):
			lit.WriteByte('{')
			i++
		case c == '}' && strings.HasPrefix(s[i:], "}}"):
			lit.WriteByte('}')
			i++
		case c == '{':
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				lit.WriteByte(c)
				continue
			}
			inner := s[i+1 : i+end]
			name, list := strings.CutSuffix(inner, "...")
			if !isName(name) {
				lit.WriteByte(c)
				continue
			}
			flush()
			parts = append(parts, part{param: name, list: list})
			i += end
		default:
			lit.WriteByte(c)
		}
	}
	flush()
	var w word
	if len(parts) > start {
		w = parts[start:len(parts):len(parts)]
	}
	for _, p := range w {
		if p.list && len(w) != 1 {
			return parts[:start], nil, fmt.Errorf("list placeholder {%s...} must be a whole word, with no text around it", p.param)
		}
	}
	return parts, w, nil
}

// params returns the placeholder names in the word, in order.
func (w word) params() []string {
	var names []string
	for _, p := range w {
		if p.param != "" {
			names = append(names, p.param)
		}
	}
	return names
}

// fixed reports whether the word has no placeholder.
func (w word) fixed() bool {
	for _, p := range w {
		if p.param != "" {
			return false
		}
	}
	return true
}

// listParam returns the name of the word's list placeholder, if it is one.
func (w word) listParam() (string, bool) {
	if len(w) == 1 && w[0].list {
		return w[0].param, true
	}
	return "", false
}

// leadingParam reports whether the word's first character comes from a
// placeholder rather than from fixed text: only then can a value decide
// whether the word looks like an option.
func (w word) leadingParam() bool { return len(w) > 0 && w[0].param != "" }

// literal returns the text of a word without placeholders.
func (w word) literal() string {
	if len(w) == 1 {
		return w[0].text // a word is most often one part, asked for again and again
	}
	var b strings.Builder
	for _, p := range w {
		b.WriteString(p.text)
	}
	return b.String()
}

// String writes the word back in template syntax, literal braces doubled.
func (w word) String() string {
	if len(w) == 1 {
		return w[0].String()
	}
	var b strings.Builder
	for _, p := range w {
		b.WriteString(p.String())
	}
	return b.String()
}

// String writes the part in template syntax.
func (p part) String() string {
	switch {
	case p.param == "":
		t := strings.ReplaceAll(p.text, "{", "{{")
		t = strings.ReplaceAll(t, "}", "}}")
		// {} is literal as written; doubling it would be noise.
		return strings.ReplaceAll(t, "{{}}", "{}")
	case p.list:
		return "{" + p.param + "...}"
	default:
		return "{" + p.param + "}"
	}
}

// fill substitutes values into the word. values holds one string per scalar
// placeholder. placed, when not nil, is told the byte range of the result
// each placeholder's value took.
func (w word) fill(values map[string]string, placed func(param string, start, end int)) string {
	if len(w) == 1 && w[0].param == "" {
		return w[0].text
	}
	var b strings.Builder
	for _, p := range w {
		if p.param == "" {
			b.WriteString(p.text)
			continue
		}
		start := b.Len()
		b.WriteString(values[p.param])
		if placed != nil {
			placed(p.param, start, b.Len())
		}
	}
	return b.String()
}

// PlainDescription turns the placeholders of a seed-style description
// ("List all files in a {directory}") into words ("... in a directory"), so
// the text reads naturally to a model; underscores become spaces. Braces
// that hold no placeholder name stay as written.
func PlainDescription(d string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(d, '{')
		j := strings.IndexByte(d[max(i, 0):], '}')
		if i < 0 || j < 0 {
			b.WriteString(d)
			return b.String()
		}
		name := strings.TrimSuffix(d[i+1:i+j], "...")
		if !isName(name) {
			b.WriteString(d[:i+1])
			d = d[i+1:]
			continue
		}
		b.WriteString(d[:i])
		b.WriteString(strings.ReplaceAll(name, "_", " "))
		d = d[i+j+1:]
	}
}
