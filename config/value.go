package config

import (
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// valueError is a refused value: rule is a short stable name of the check
// that failed, msg says it in words an agent can act on. msg continues
// `parameter "p" …` ("is required") unless alone says it is a clause of
// its own ("want a string, got a number"); see ArgError.
type valueError struct {
	rule  string
	msg   string
	alone bool
}

// withoutValue is the refusal of a secret parameter's value: messages that
// would repeat the value (or a path made from it) say what was wrong
// without it, since refusals reach the agent, the console and the journal.
func (e *valueError) withoutValue(p *Param) *valueError {
	switch e.rule {
	case "type":
		return refuse(e.rule, "has the wrong type (want %s; the value is secret and not repeated)", p.Type)
	case "range":
		lo, hi := "-∞", "∞"
		if p.Min != nil {
			lo = strconv.FormatFloat(*p.Min, 'f', -1, 64)
		}
		if p.Max != nil {
			hi = strconv.FormatFloat(*p.Max, 'f', -1, 64)
		}
		return refuse(e.rule, "is outside [%s, %s] (the value is secret and not repeated)", lo, hi)
	case "path", "pattern", "find-operand", "option":
		return refuse(e.rule, "is refused by the %s check (the value is secret and not repeated)", e.rule)
	}
	return e
}

// refuse is a refusal whose message continues `parameter "p" …`.
func refuse(rule, format string, args ...any) *valueError {
	return &valueError{rule: rule, msg: fmt.Sprintf(format, args...)}
}

// refuseClause is a refusal whose message is a clause of its own.
func refuseClause(rule, format string, args ...any) *valueError {
	return &valueError{rule: rule, msg: fmt.Sprintf(format, args...), alone: true}
}

// values checks a JSON value against the parameter and returns the text
// each item contributes: one string for a scalar, one per item for a list.
// base is the directory relative paths start from. m is the Load's memo
// while a default is checked, so a path is resolved once per Load; nil for
// a call's values, which are resolved when the call is made.
func (p *Param) values(v any, base string, m *memo) ([]string, *valueError) {
	if !p.List {
		s, err := p.item(v, base, m)
		if err != nil {
			return nil, err
		}
		return []string{s}, nil
	}
	items, ok := v.([]any)
	if !ok {
		if s, isStrs := v.([]string); isStrs {
			for _, x := range s {
				items = append(items, x)
			}
		} else {
			return nil, refuseClause("type", "want an array of %s values, got %s", p.Type, jsonKind(v))
		}
	}
	if p.Required && len(items) == 0 {
		return nil, refuseClause("missing", "want at least one item")
	}
	out := make([]string, 0, len(items))
	for i, it := range items {
		s, err := p.item(it, base, m)
		if err != nil {
			err.msg = fmt.Sprintf("item %d: %s", i, err.msg)
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// item checks one value of the parameter's type.
func (p *Param) item(v any, base string, m *memo) (string, *valueError) {
	switch p.Type {
	case Integer:
		return p.integer(v)
	case Number:
		return p.number(v)
	case Boolean:
		b, ok := v.(bool)
		if !ok {
			return "", refuseClause("type", "want true or false, got %s", jsonKind(v))
		}
		return strconv.FormatBool(b), nil
	}
	s, ok := v.(string)
	if !ok {
		return "", refuseClause("type", "want a string, got %s", jsonKind(v))
	}
	if pr := textProblem(s, p.Multiline); pr != "" {
		hint := ""
		if !p.Multiline && (strings.ContainsAny(s, "\n\t")) {
			hint = "; this parameter takes a single line"
		}
		return "", refuse("text", "contains %s%s", pr, hint)
	}
	if n := utf8.RuneCountInString(s); n > p.maxLength() {
		return "", refuse("length", "is %d characters long; the limit is %d", n, p.maxLength())
	}
	if len(p.Enum) > 0 && !slices.Contains(p.Enum, s) {
		return "", refuse("enum", "must be one of %s", quoteList(p.Enum))
	}
	if p.Type == Path {
		return p.path(s, base, m)
	}
	if p.pattern != nil && !p.pattern.MatchString(s) {
		return "", refuse("pattern", "does not match the pattern %s", p.Pattern)
	}
	return s, nil
}

// path resolves a path value and checks it against its roots and its
// pattern. The pattern is matched against the resolved path, relative to
// the root it lies in, because that is what the program receives:
// "docs/../.env" or a symlink docs/a.md -> ../.env must not pass a pattern
// written for docs/.
func (p *Param) path(s, base string, m *memo) (string, *valueError) {
	r, err := m.resolvePath(base, s)
	if err != nil {
		return "", refuse("path", "cannot be resolved: %v", err)
	}
	for _, root := range p.roots {
		if !within(r, root) {
			continue
		}
		if k := kernelTree(r); k != "" && !within(root, k) {
			return "", refuse("path", "resolves to %s, in %s, where the kernel shows processes and devices "+
				"(assent's own environment included); a path there needs a root that lies in %s", r, k, k)
		}
		if p.pattern != nil {
			rel, _ := filepath.Rel(root, r)
			if !p.pattern.MatchString(rel) {
				return "", refuse("pattern", "resolves to %s, which does not match the pattern %s", rel, p.Pattern)
			}
		}
		return r, nil
	}
	return "", refuse("path", "resolves to %s, which is outside the allowed directories %s", r, quoteList(p.roots))
}

func (p *Param) integer(v any) (string, *valueError) {
	var i int64
	switch x := v.(type) {
	case float64:
		if err := wholeFloat(x); err != nil {
			return "", err
		}
		i = int64(x)
	case json.Number:
		n, err := strconv.ParseInt(string(x), 10, 64)
		if err != nil {
			f, ferr := x.Float64()
			if ferr != nil {
				return "", refuseClause("type", "want a whole number, got %s", x)
			}
			if err := wholeFloat(f); err != nil {
				return "", err
			}
			n = int64(f)
		}
		i = n
	case int:
		i = int64(x)
	case int64:
		i = x
	default:
		return "", refuseClause("type", "want a whole number, got %s", jsonKind(v))
	}
	if err := p.inRange(float64(i)); err != nil {
		return "", err
	}
	return strconv.FormatInt(i, 10), nil
}

// exactFloat is the magnitude from which a float64 no longer holds every
// whole number: 2^53+1 decodes as 2^53.
const exactFloat = 1 << 53

// wholeFloat refuses a decoded number that is not a whole number, or that
// may not be the one the caller wrote: from 2^53 on, neighbouring whole
// numbers decode to the same float64, and the argument that ran would
// differ from the one asked for without anyone seeing it.
func wholeFloat(f float64) *valueError {
	switch {
	case f != math.Trunc(f):
		return refuseClause("type", "want a whole number, got %v", f)
	case math.Abs(f) >= exactFloat:
		return refuseClause("type", "want a whole number of magnitude below 2^53 (9007199254740992): "+
			"a larger one may have been rounded when it was read, got %s", digits(f))
	}
	return nil
}

// digits writes a large decoded number as its digits, where there are not
// too many of them to read.
func digits(f float64) string {
	if math.Abs(f) < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

func (p *Param) number(v any) (string, *valueError) {
	var f float64
	switch x := v.(type) {
	case float64:
		f = x
	case json.Number:
		var err error
		if f, err = x.Float64(); err != nil {
			return "", refuseClause("type", "want a number, got %s", x)
		}
	case int:
		f = float64(x)
	case int64:
		f = float64(x)
	default:
		return "", refuseClause("type", "want a number, got %s", jsonKind(v))
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "", refuseClause("type", "want a finite number")
	}
	if err := p.inRange(f); err != nil {
		return "", err
	}
	return strconv.FormatFloat(f, 'f', -1, 64), nil
}

func (p *Param) inRange(f float64) *valueError {
	switch {
	case p.Min != nil && f < *p.Min:
		return refuseClause("range", "%v is below the minimum %v", f, *p.Min)
	case p.Max != nil && f > *p.Max:
		return refuseClause("range", "%v is above the maximum %v", f, *p.Max)
	}
	return nil
}

// jsonKind names the JSON type of a decoded value, for messages.
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case float64, json.Number, int, int64:
		return "a number"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

func quoteList(l []string) string {
	q := make([]string, len(l))
	for i, s := range l {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}
