package config

import (
	"cmp"
	"encoding/json"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/assent-sh/assent/exec"
)

// MinOutputSecret is the shortest secret masked in a program's output. A
// shorter value would match too much ordinary text: masking it would let
// the agent, who chose the value, erase what the operator reads.
const MinOutputSecret = 8

// SecretSpan is one stretch of a command that a secret parameter's value
// filled. Masking goes by these positions only: a value the agent merely
// repeated elsewhere in the call is not masked, so a secret can never hide
// other text from the operator or the journal.
type SecretSpan struct {
	// In names the field: "argv", "env", "stdin", "cwd", or "path" for a
	// whole entry of Command.Paths.
	In string
	// Index is the element's index in Argv, Env or Paths (0 otherwise).
	Index int
	// Start and End are the byte range [Start, End) in that element; for
	// env they count from the start of "NAME=value".
	Start, End int
	// Param is the secret parameter whose value filled it.
	Param string
}

// Masked returns the command as it may be shown and journaled: every span a
// secret parameter filled is replaced by mask, and nothing else changes.
func (e Expansion) Masked(mask string) exec.Command {
	return e.MaskedBy(func(string) string { return mask })
}

// MaskedBy is Masked with the replacement chosen per secret value, such as
// the journal's keyed token, so one secret can be followed across records
// without being readable.
func (e Expansion) MaskedBy(token func(secret string) string) exec.Command {
	c := e.Command
	if len(e.SecretSpans) == 0 {
		return c
	}
	c.Argv, c.Env, c.Paths = slices.Clone(c.Argv), slices.Clone(c.Env), slices.Clone(c.Paths)
	// Later spans first, so earlier offsets in the same string stay right.
	spans := slices.Clone(e.SecretSpans)
	slices.SortFunc(spans, func(a, b SecretSpan) int { return cmp.Compare(b.Start, a.Start) })
	for _, s := range spans {
		switch s.In {
		case "argv":
			c.Argv[s.Index] = replaceSpan(c.Argv[s.Index], s, token)
		case "env":
			c.Env[s.Index] = replaceSpan(c.Env[s.Index], s, token)
		case "stdin":
			c.Stdin = replaceSpan(c.Stdin, s, token)
		case "cwd":
			c.Dir = replaceSpan(c.Dir, s, token)
		case "path":
			p := &c.Paths[s.Index]
			p.Given, p.Resolved = token(p.Resolved), token(p.Resolved)
		}
	}
	return c
}

func replaceSpan(text string, s SecretSpan, token func(string) string) string {
	return text[:s.Start] + token(text[s.Start:s.End]) + text[s.End:]
}

// SecretsForOutput returns the secret values a program's output is masked
// for: only those of at least MinOutputSecret characters, and output is to
// be masked only where it holds a whole value, never a part of one.
func (e Expansion) SecretsForOutput() []string {
	vals := make([]string, len(e.SecretSpans))
	for i, s := range e.SecretSpans {
		vals[i] = e.spanText(s)
	}
	return SecretsForOutput(vals)
}

// SecretsForOutput is the secret values of vals that output is masked for,
// each once: those of at least MinOutputSecret characters.
func SecretsForOutput(vals []string) []string {
	var out []string
	for _, v := range vals {
		if utf8.RuneCountInString(v) >= MinOutputSecret && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// spanText is the secret text a span covers.
func (e Expansion) spanText(s SecretSpan) string {
	c := e.Command
	switch s.In {
	case "argv":
		return c.Argv[s.Index][s.Start:s.End]
	case "env":
		return c.Env[s.Index][s.Start:s.End]
	case "stdin":
		return c.Stdin[s.Start:s.End]
	case "cwd":
		return c.Dir[s.Start:s.End]
	}
	return c.Paths[s.Index].Resolved
}

// MaskedArgs returns a copy of a call's arguments, as the agent sent them,
// with the value of every secret parameter (each item of a list) replaced
// by token(value): the form to show and journal, which needs no successful
// expansion. Other values are kept as they are.
func (t *Tool) MaskedArgs(args map[string]any, token func(secret string) string) map[string]any {
	out := make(map[string]any, len(args))
	for k, v := range args {
		if p := t.params[k]; p != nil && p.Secret {
			v = maskValue(v, token)
		}
		out[k] = v
	}
	return out
}

func maskValue(v any, token func(string) string) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, it := range x {
			out[i] = maskValue(it, token)
		}
		return out
	case nil:
		return nil
	case string:
		return token(x)
	}
	b, _ := json.Marshal(v)
	return token(string(b))
}

// SecretTexts returns the ways a secret argument's value may be written
// in text: a string as it is, a number both as JSON writes it and in plain
// decimal, each item of a list.
//
// They are for checks of a call whose expansion failed; masking text
// wherever a value occurs would let an agent that chooses a secret hide
// anything, so masking is by position (Expansion.MaskedBy, Tool.MaskedArgs).
func SecretTexts(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case json.Number:
		return []string{string(x)}
	case float64:
		j, _ := json.Marshal(x)
		return []string{string(j), strconv.FormatFloat(x, 'f', -1, 64)}
	case []any:
		var out []string
		for _, it := range x {
			out = append(out, SecretTexts(it)...)
		}
		return out
	}
	return nil
}
