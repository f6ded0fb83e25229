package ui

import (
	"slices"
	"strings"

	"github.com/assent-sh/assent/queue"
)

// secretMask replaces a secret value wherever a call is shown.
const secretMask = "•••"

// partKind names the piece of a call a text shown comes from; where a
// secret may be masked depends on it.
type partKind uint8

const (
	partPath   partKind = iota // the program's path
	partArgv                   // argv element part.index (0 is the program as written)
	partEnv                    // the value of environment entry part.index
	partStdin                  // the text written to standard input
	partDir                    // the working directory
	partText                   // text that is not the command: reasons, accounts of an ending
	partOutput                 // a line of the call's output
)

// part names one piece of a call the console shows.
type part struct {
	kind  partKind
	index int
}

// span is a byte range [start, end) of a text that a secret filled.
type span struct{ start, end int }

// maskSecrets shows text, part p of call c, with its secrets replaced by
// secretMask, as the journal keeps them. It runs on raw text, before
// quoting or escaping, so a secret is found whatever those would make of
// it. In the command, exactly the bytes config recorded a secret parameter
// filled are masked (queue.Call.SecretSpans): a value the agent merely
// repeated elsewhere stays readable, and a one-letter secret erases
// nothing but itself. Other text and output have no positions: there a
// secret is masked where it occurs whole and is long enough not to occur
// by chance (queue.Call.OutputSecrets). Arguments are masked by name
// (maskArg), a rule by its parameters (policy.Rule.StringMasked).
func maskSecrets(c *queue.Call, p part, text string) string {
	if c == nil || len(c.Secrets) == 0 {
		return text
	}
	sp := secretSpans(c, p, text)
	if len(sp) == 0 {
		return text
	}
	var b strings.Builder
	at := 0
	for _, s := range sp {
		b.WriteString(text[at:s.start])
		b.WriteString(secretMask)
		at = s.end
	}
	b.WriteString(text[at:])
	return b.String()
}

// secretSpans returns the ranges of text, which is p of call c, that a
// secret filled, in order and not overlapping.
func secretSpans(c *queue.Call, p part, text string) []span {
	var in string
	switch p.kind {
	case partPath:
		return nil
	case partArgv:
		in = "argv"
	case partEnv:
		in = "env"
	case partStdin:
		in = "stdin"
	case partDir:
		in = "cwd"
	default:
		var out []span
		for _, sec := range c.OutputSecrets {
			out = appendAll(out, text, sec)
		}
		return mergeSpans(out)
	}
	offset := 0
	if in == "env" && p.index < len(c.Command.Env) {
		// The console shows an env entry's value; the spans count from
		// the start of NAME=value.
		if eq := strings.IndexByte(c.Command.Env[p.index], '='); eq >= 0 {
			offset = eq + 1
		}
	}
	var out []span
	for _, sp := range c.SecretSpans {
		if sp.In != in || (in != "stdin" && in != "cwd" && sp.Index != p.index) {
			continue
		}
		start, end := sp.Start-offset, sp.End-offset
		if start >= 0 && start <= end && end <= len(text) {
			out = append(out, span{start, end})
		}
	}
	return mergeSpans(out)
}

// maskArg is argument name's value v as the console shows it: masked whole
// (each item of a list) when the parameter is secret, as it is.
func maskArg(c *queue.Call, name string, v any) any {
	if c == nil || !slices.Contains(c.SecretParams, name) {
		return v
	}
	if list, ok := v.([]any); ok {
		out := make([]any, len(list))
		for i := range list {
			out[i] = secretMask
		}
		return out
	}
	return secretMask
}

// appendAll adds every occurrence of sec in text.
func appendAll(out []span, text, sec string) []span {
	for at := 0; sec != ""; {
		i := strings.Index(text[at:], sec)
		if i < 0 {
			return out
		}
		out = append(out, span{at + i, at + i + len(sec)})
		at += i + len(sec)
	}
	return out
}

// mergeSpans sorts spans and joins those that overlap.
func mergeSpans(sp []span) []span {
	if len(sp) < 2 {
		return sp
	}
	slices.SortFunc(sp, func(a, b span) int { return a.start - b.start })
	out := sp[:1]
	for _, s := range sp[1:] {
		if last := &out[len(out)-1]; s.start <= last.end {
			last.end = max(last.end, s.end)
			continue
		}
		out = append(out, s)
	}
	return out
}
